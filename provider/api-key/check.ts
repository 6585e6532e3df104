/**
 * `check` and `diff` for ApiKey: pure, so preview is offline.
 */
import {
  CheckFailure,
  isString,
  lengthBetween,
  matches,
  optional,
  required,
  shown,
  Validator,
} from "../shared/validators";
import { isUnknown } from "../shared/unknown";

/** Organization and project ids (OpenAPI: `org_id`, `project_id`: `^[a-z0-9-]{1,60}$`). */
const SERVICE_ID = /^[a-z0-9-]{1,60}$/;

/** Each input and what it may hold; any other property is refused. */
const VALIDATORS: Record<string, Validator> = {
  keyName: required(isString, lengthBetween(1, 64)),
  orgId: optional(
    isString,
    matches(
      SERVICE_ID,
      "an organization id: 1 to 60 lowercase letters, digits and hyphens, like org-morning-bread-81040908",
    ),
  ),
  projectId: optional(
    isString,
    matches(SERVICE_ID, "a project id: 1 to 60 lowercase letters, digits and hyphens, like spring-example-302709"),
  ),
};
const KNOWN = Object.keys(VALIDATORS);

const NEEDS_ORG =
  "needs orgId: a project-scoped key is an organization key limited to one project; set orgId to the id of the " +
  "project's organization";

const absent = (value: unknown): boolean => value === undefined || value === null;

/** Validates ApiKey inputs: a key name of 1 to 64 characters, optional well-formed orgId and projectId (needing orgId). */
export function checkApiKeyInputs(news: Record<string, unknown>): CheckFailure[] {
  const failures: CheckFailure[] = [];
  for (const property of Object.keys(news)) {
    if (property !== "__provider" && !KNOWN.includes(property)) {
      failures.push({ property, reason: `is not an ApiKey property; known: ${KNOWN.join(", ")}` });
    }
  }
  for (const [property, validate] of Object.entries(VALIDATORS)) {
    const reason = isUnknown(news[property]) ? undefined : validate(news[property]);
    if (reason) failures.push({ property, reason });
  }
  // A value not known yet (preview) may resolve to anything, absent included: only known values are refused.
  const known = !isUnknown(news.projectId) && !isUnknown(news.orgId);
  if (known && !absent(news.projectId) && absent(news.orgId))
    failures.push({ property: "projectId", reason: `${NEEDS_ORG}; got ${shown(news.projectId)} and no orgId` });
  return failures;
}

/** Inputs that make a new key when they change: neither a key's name nor its scope can change in place. */
const REPLACING = ["keyName", "orgId", "projectId"] as const;

/**
 * The provider's record, in a key's state, of the `projectId` the program declared (null: none). The `projectId`
 * output is what the service answered, which may differ (a service that omits `project_id` answers nothing): the diff
 * compares the program's `projectId` with this record, so that such an answer never makes a permanent replacement.
 */
export const DECLARED_PROJECT_ID = "declaredProjectId";

/** The declared value of an input, from the inputs or the state (where `projectId` is recorded apart; a state
 * written before that record existed holds the declared value in `projectId`). */
export function declaredValue(props: Record<string, unknown>, property: string): unknown {
  if (property === "projectId" && DECLARED_PROJECT_ID in props) return props[DECLARED_PROJECT_ID];
  return props[property];
}

/**
 * A change of name or scope means a new key, created before the old one is revoked. Absent and null are the same
 * (state holds `projectId: null` for a key not limited to a project).
 */
export function planApiKeyChange(olds: Record<string, unknown>, news: Record<string, unknown>) {
  const replaces = REPLACING.filter((property) => (news[property] ?? null) !== (declaredValue(olds, property) ?? null));
  return { changes: replaces.length > 0, replaces: [...replaces], deleteBeforeReplace: false };
}
