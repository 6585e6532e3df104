/**
 * ApiKey, declared: a personal, organization or project-scoped API key. Each property is one row (what it is, its
 * rules and their source, what a change does); Check, the diff's plan, schema.json and the table in docs/resources.md
 * are derived from it (shared/declaration.ts). Neither a key's name nor its scope can change in place: a change makes
 * a new key, created before the old one is revoked. Personal, organization and project-scoped keys differ only in the
 * list and routes they live in (routes.ts).
 */
import { Declaration, planChange, SchemaType } from "../shared/declaration";
import { CheckFailure, isString, lengthBetween, matches, shown } from "../shared/validators";
import { isUnknown } from "../shared/unknown";

type Props = Record<string, unknown>;

const STRING: SchemaType = { type: "string" };

/** Organization and project ids (OpenAPI: `org_id`, `project_id`: `^[a-z0-9-]{1,60}$`). */
const SERVICE_ID = /^[a-z0-9-]{1,60}$/;
const OPENAPI_IDS = "OpenAPI ApiKeyCreateRequest / OrgApiKeyCreateRequest: ^[a-z0-9-]{1,60}$";

const NEEDS_ORG =
  "needs orgId: a project-scoped key is an organization key limited to one project; set orgId to the id of the " +
  "project's organization";

const absent = (value: unknown): boolean => value === undefined || value === null;

/** A projectId needs an orgId. A value not known yet (preview) may resolve to anything, absent included. */
function projectNeedsOrg(news: Props): CheckFailure[] {
  if (isUnknown(news.projectId) || isUnknown(news.orgId) || absent(news.projectId) || !absent(news.orgId)) return [];
  return [{ property: "projectId", reason: `${NEEDS_ORG}; got ${shown(news.projectId)} and no orgId` }];
}

export const API_KEY = {
  name: "ApiKey",
  docs: "docs/resources.md#apikey",
  description:
    "An API key: a personal key (without orgId), an organization key (orgId) or a key limited to one project of an organization (orgId and projectId), for example the key a CI pipeline holds. A new name or scope replaces it, creating the new key before the old one is revoked. Destroying it revokes it.",
  inputs: {
    keyName: {
      schema: STRING,
      required: true,
      rules: [isString, lengthBetween(1, 64)],
      source: "OpenAPI ApiKeyCreateRequest.key_name",
      change: "replace",
      description:
        "The key's name, 1 to 64 characters. A new name makes a new key (created before the old one is revoked).",
    },
    orgId: {
      schema: STRING,
      rules: [
        isString,
        matches(
          SERVICE_ID,
          "an organization id: 1 to 60 lowercase letters, digits and hyphens, like org-morning-bread-81040908",
        ),
      ],
      source: OPENAPI_IDS,
      change: "replace",
      removalIsChange: true,
      description:
        "The organization the key belongs to (an id such as org-morning-bread-81040908). Without it, a personal key of the account neon:apiKey belongs to; with it, an organization key, created with the personal key of a member (an organization-wide key: of an admin). A change makes a new key (created before the old one is revoked).",
    },
    projectId: {
      schema: STRING,
      rules: [
        isString,
        matches(SERVICE_ID, "a project id: 1 to 60 lowercase letters, digits and hyphens, like spring-example-302709"),
      ],
      source: OPENAPI_IDS,
      change: "replace",
      removalIsChange: true,
      description:
        "Limits the key to this project of the organization (an id such as spring-example-302709); requires orgId. Such a key can use only that project (its branches, computes and operations): not list projects, create projects or keys, or reach another project. A change makes a new key (created before the old one is revoked).",
    },
  },
  outputs: {
    keyName: { schema: STRING, description: "The key's name." },
    keyId: { schema: { type: "integer" }, description: "The key's numeric id." },
    key: {
      schema: STRING,
      secret: true,
      description: "The secret value: shown only at creation, kept encrypted in state.",
    },
    createdAt: { schema: STRING, description: "Creation time (ISO 8601)." },
    lastUsedAt: {
      schema: STRING,
      optional: true,
      nullable: true,
      description: "When the key was last used, if ever (updated by refresh).",
    },
    lastUsedFromAddr: {
      schema: STRING,
      optional: true,
      nullable: true,
      description: "The address the key was last used from, if ever (updated by refresh).",
    },
    orgId: {
      schema: STRING,
      optional: true,
      description: "The organization of an organization or project-scoped key, as declared; absent for a personal key.",
    },
    projectId: {
      schema: STRING,
      optional: true,
      nullable: true,
      description:
        "The project the key is limited to, as the service answered; null for personal and organization-wide keys, and when the service does not say. A project-scoped key the service answers with another scope is revoked and the create fails.",
    },
  },
  crossChecks: [projectNeedsOrg],
} satisfies Declaration;

/**
 * The provider's record, in a key's state, of the `projectId` the program declared (null: none). The `projectId`
 * output is what the service answered, which may differ (a service that omits `project_id` answers nothing): the diff
 * compares the program's `projectId` with this record, so that such an answer never makes a permanent replacement.
 */
export const DECLARED_PROJECT_ID = "declaredProjectId";

/** The declared value of an input, from the inputs or the state (where `projectId` is recorded apart; a state
 * written before that record existed holds the declared value in `projectId`). */
export function declaredValue(props: Props, property: string): unknown {
  if (property === "projectId" && DECLARED_PROJECT_ID in props) return props[DECLARED_PROJECT_ID];
  return props[property];
}

/**
 * A change of name or scope means a new key, created before the old one is revoked. Absent and null are the same
 * (state holds `projectId: null` for a key not limited to a project).
 */
export function planApiKeyChange(olds: Props, news: Props) {
  const declared = Object.fromEntries(Object.keys(API_KEY.inputs).map((p) => [p, declaredValue(olds, p) ?? undefined]));
  const replaces = planChange(API_KEY, declared, news).by.replace;
  return { changes: replaces.length > 0, replaces, deleteBeforeReplace: false };
}
