/**
 * Branch's rules that one row of its declaration cannot say alone: its annotations, and Check's rules over several
 * inputs (its points in time and LSNs are read and compared by shared/instants.ts). Sources: the OpenAPI document
 * (`BranchCreateRequest`, `AnnotationValueData`, `init_source`) and Neon's docs (Branch expiration). Reasons name the
 * allowed values and never echo free text (a name or an annotation may have been a secret in the program).
 */
import { hasFraction, instantOf, spanOf } from "../shared/instants";
import { isUnknown } from "../shared/unknown";
import { CheckFailure, isStringMap, Validator } from "../shared/validators";

type Props = Record<string, unknown>;

/** The longest expiry ahead of now: 30 days (Neon docs, Branch expiration, "maximum expiration is 30 days"). */
export const MAX_EXPIRY_MS = 30 * 24 * 3600 * 1000;

/** `AnnotationValueData`: at most 50 properties, each a string. */
export const isAnnotations: Validator = (v) => {
  const problem = isStringMap(v);
  if (problem) return problem;
  const count = Object.keys(v as object).length;
  return count <= 50
    ? undefined
    : `must have at most 50 entries (Neon's limit for a branch's annotations); got ${count}`;
};

/** Check's rules over several inputs, as of `now` (epoch ms), for inputs each of whose rows accepts its value. */
export function severalInputs(news: Props, now: number): CheckFailure[] {
  return [...pointInTime(news, now), ...expiry(news, now), ...resetOfRoot(news)];
}

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
function resetOfRoot(news: Props): CheckFailure[] {
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
