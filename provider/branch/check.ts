/**
 * `check` for Branch: every rule the service applies to a branch's inputs, enforced at preview time, offline, so that
 * an invalid program fails in the pull request that introduced it and never reaches the API. Rules come from the
 * OpenAPI document (`BranchCreateRequest`, `BranchUpdateRequest`, `AnnotationValueData`) and Neon's docs (Branch
 * expiration, Reset from parent). Values unknown during preview pass. Reasons name the allowed values and never echo
 * free text (a name or an annotation may have been a secret in the program).
 */
import { isBranchId, projectIdRule } from "../shared/ids";
import { isUnknown } from "../shared/unknown";
import {
  CheckFailure,
  Validator,
  isBoolean,
  isString,
  isStringMap,
  lengthBetween,
  matches,
  oneOf,
  optional,
  shown,
  isList,
} from "../shared/validators";
import { BRANCH_DIFF_RULES, inputChanged } from "./diff";
import { hasFraction, instantOf, LSN, MAX_EXPIRY_MS, spanOf } from "./time";

type Props = Record<string, unknown>;

const isTimestamp: Validator = (v) =>
  instantOf(v) !== undefined
    ? undefined
    : `must be an RFC 3339 timestamp with a time zone, such as 2025-06-09T18:02:16Z or 2025-06-09T13:02:16-05:00; got ${shown(v)}`;

/** `AnnotationValueData`: at most 50 properties, each a string. */
const isAnnotations: Validator = (v) => {
  const problem = isStringMap(v);
  if (problem) return problem;
  const count = Object.keys(v as object).length;
  return count <= 50
    ? undefined
    : `must have at most 50 entries (Neon's limit for a branch's annotations); got ${count}`;
};

/** One validator per input property: the table users read in the docs. */
export const BRANCH_RULES: Record<string, Validator> = {
  projectId: projectIdRule,
  parentId: optional(isString, isBranchId),
  name: optional(isString, lengthBetween(1, 256)),
  parentLsn: optional(isString, matches(LSN, "a Log Sequence Number: two hex numbers such as 0/1DE2850")),
  parentTimestamp: optional(isTimestamp),
  initSource: optional(oneOf(["parent-data", "schema-only"])),
  protected: optional(isBoolean),
  expiresAt: optional(isTimestamp),
  annotations: optional(isAnnotations),
  resetTriggers: optional(isList),
  adoptId: optional(isString, isBranchId),
  resourceName: optional(isString),
};

/** Validates Branch inputs as of `now` (epoch ms); returns the failures, each naming its property. */
export function checkBranchInputs(news: Props, now: number = Date.now()): CheckFailure[] {
  const failures: CheckFailure[] = [];
  for (const property of new Set([...Object.keys(news), "projectId"])) {
    if (property === "__provider") continue;
    const validate = BRANCH_RULES[property];
    const value = news[property];
    if (!validate) failures.push({ property, reason: `is not a Branch property; known: ${known()}` });
    else if (!isUnknown(value)) {
      const reason = validate(value);
      if (reason) failures.push({ property, reason });
    }
  }
  if (failures.length > 0) return failures;
  return [...pointInTime(news, now), ...expiry(news, now), ...reset(news)];
}

const known = () => Object.keys(BRANCH_RULES).join(", ");
const given = (news: Props, property: string) => news[property] !== undefined && !isUnknown(news[property]);

/** One point on the parent, named once, and not in the future (a branch cannot start from data not yet written). */
function pointInTime(news: Props, now: number): CheckFailure[] {
  if (given(news, "parentLsn") && given(news, "parentTimestamp")) {
    return [
      {
        property: "parentTimestamp",
        reason: "cannot be set with parentLsn: both name the point on the parent the branch starts from; set one",
      },
    ];
  }
  const at = given(news, "parentTimestamp") ? instantOf(news.parentTimestamp) : undefined;
  if (at === undefined || at <= now) return [];
  return [
    {
      property: "parentTimestamp",
      reason: `must not be in the future (it is ${spanOf(at - now)} ahead): the parent has no data there yet`,
    },
  ];
}

/**
 * `expiresAt`: whole seconds (the service keeps only seconds: another value would differ from the program's on every
 * up), in the future, at most 30 days ahead, and not on a protected branch (Neon docs, Branch expiration,
 * "Timestamp format requirements" and "Restrictions").
 */
function expiry(news: Props, now: number): CheckFailure[] {
  if (!given(news, "expiresAt")) return [];
  const fail = (reason: string): CheckFailure[] => [{ property: "expiresAt", reason }];
  const text = String(news.expiresAt);
  const at = instantOf(text) as number;
  if (hasFraction(text)) return fail(`must be whole seconds, such as 2025-06-09T18:02:16Z (Neon keeps only seconds)`);
  if (at <= now) {
    return fail(
      `must be in the future; it was ${spanOf(now - at)} ago (the branch is deleted at that time: set a later time, ` +
        `or remove expiresAt)`,
    );
  }
  if (at > now + MAX_EXPIRY_MS) {
    return fail(`must be at most 30 days ahead (Neon's limit); it is ${spanOf(at - now)} ahead`);
  }
  if (news.protected === true) {
    return fail("cannot be set on a protected branch (protected: true): Neon does not expire a protected branch");
  }
  return [];
}

/** A reset takes the parent's latest data: a schema-only branch has no parent (OpenAPI, `init_source`). */
function reset(news: Props): CheckFailure[] {
  if (news.resetTriggers === undefined || news.initSource !== "schema-only") return [];
  return [
    {
      property: "resetTriggers",
      reason:
        "cannot be used on a schema-only branch (initSource: schema-only): it is a root branch with no parent to " +
        "reset from; remove resetTriggers, or replace the branch to start it again",
    },
  ];
}

/** The inputs whose change replaces a branch (diff.ts). */
const REPLACING_INPUTS = Object.keys(BRANCH_DIFF_RULES).filter((p) => BRANCH_DIFF_RULES[p].effect === "replace");

/**
 * A replacement of a branch the program protected (its old inputs say `protected: true`): Neon would let the new
 * branch be made and then refuse to delete the old one, and `protected: false` in the same change would apply to the
 * new branch only. Refused here, naming the property (the Diff refuses it too, from the service's record, for a branch
 * protected outside the program).
 */
export function checkReplaceProtected(olds: Props, news: Props): CheckFailure[] {
  if (olds.protected !== true) return [];
  return REPLACING_INPUTS.filter((p) => !isUnknown(news[p]) && inputChanged(p, olds, news)).map((property) => ({
    property,
    reason:
      "changed on a protected branch: the replacement would make a new branch and then fail to delete this one " +
      "(Neon does not delete a protected branch). Unprotect it first in an up of its own (protected: false, " +
      "without this change; in the same up it would apply to the new branch only), then make this change",
  }));
}

/**
 * A reset the update would make while the branch stays protected: Neon does not reset a protected branch (docs,
 * Protected branches). Only a changed value resets (a create, or a first value, resets nothing: diff.ts).
 */
export function checkResetProtected(olds: Props, news: Props, changedTriggers: boolean): CheckFailure[] {
  if (!changedTriggers || olds.resetTriggers === undefined || news.resetTriggers === undefined) return [];
  if (news.protected !== true) return [];
  return [
    {
      property: "resetTriggers",
      reason:
        "changed while protected is true: Neon does not reset a protected branch. Set protected: false in the same " +
        "change (the update unprotects the branch, then resets it), or leave resetTriggers as they were",
    },
  ];
}
