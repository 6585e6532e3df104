/**
 * `check` for Role: the service's rules for a role, enforced at preview time, offline, each failure naming the property
 * and what is allowed. Values unknown during preview pass.
 *
 * Protected names: Neon docs, Manage roles, "Protected role names": "The following names are protected and cannot be
 * given to a role: Any name starting with `pg_`, `neon_superuser`, `cloud_admin`, `zenith_admin`, `public`, `none`"
 * (the emulator refuses the same: emulator/pg-input.ts). Names are compared exactly, as Postgres compares quoted
 * identifiers (`PG_x` is allowed; the emulator does the same).
 */
import { postgresName } from "../shared/branch-objects";
import { branchIdRule, projectIdRule } from "../shared/ids";
import { isUnknown } from "../shared/unknown";
import { CheckFailure, isBoolean, isList, optional, required, Validator } from "../shared/validators";

/** Role names Neon refuses, besides those starting with `pg_`. */
export const PROTECTED_ROLE_NAMES = ["neon_superuser", "cloud_admin", "zenith_admin", "public", "none"] as const;
export const PROTECTED_ROLE_PREFIX = "pg_";

const PROTECTED_TEXT = `any name starting with ${PROTECTED_ROLE_PREFIX}, ${PROTECTED_ROLE_NAMES.join(", ")}`;

/** Not one of Neon's protected role names (the reason names the rule and the list, not the value). */
const notProtected: Validator = (value) => {
  const name = String(value);
  if (name.startsWith(PROTECTED_ROLE_PREFIX))
    return `must not start with ${PROTECTED_ROLE_PREFIX}: Neon reserves those role names (protected: ${PROTECTED_TEXT})`;
  if ((PROTECTED_ROLE_NAMES as readonly string[]).includes(name))
    return `is one of Neon's protected role names, which cannot be given to a role (protected: ${PROTECTED_TEXT})`;
  return undefined;
};

/** One validator per input property. */
export const ROLE_RULES: Record<string, Validator> = {
  projectId: projectIdRule,
  branchId: branchIdRule,
  name: required(postgresName("role"), notProtected),
  noLogin: optional(isBoolean),
  passwordTriggers: optional(isList),
};

/** Validates Role inputs; returns the failures, each naming its property. */
export function checkRoleInputs(news: Record<string, unknown>): CheckFailure[] {
  const failures: CheckFailure[] = [];
  for (const property of new Set([...Object.keys(news), "projectId", "branchId", "name"])) {
    if (property === "__provider") continue;
    const validate = ROLE_RULES[property];
    const value = news[property];
    if (!validate)
      failures.push({ property, reason: `is not a Role property; known: ${Object.keys(ROLE_RULES).join(", ")}` });
    else if (!isUnknown(value)) {
      const reason = validate(value);
      if (reason) failures.push({ property, reason });
    }
  }
  return failures.concat(checkTriggersWithoutLogin(news));
}

/** A role that cannot log in has no password to reset (the service refuses the reset: emulator/routes/roles.ts). */
function checkTriggersWithoutLogin(news: Record<string, unknown>): CheckFailure[] {
  if (news.noLogin !== true || news.passwordTriggers === undefined || news.passwordTriggers === null) return [];
  return [
    {
      property: "passwordTriggers",
      reason: "must not be set on a role with noLogin: true: a role that cannot log in has no password to reset",
    },
  ];
}
