/**
 * `check` for Database: the service's rules for a database, enforced at preview time, offline, each failure naming the
 * property and what is allowed. Values unknown during preview pass.
 *
 * Protected names: Neon docs, Manage databases, "Protected database names": "The following names are protected and
 * cannot be given to a database: `postgres`, `template0`, `template1`" (the emulator refuses the same:
 * emulator/pg-input.ts). The owner is a role's name, so a Postgres name too; whether the branch has it is the
 * service's to say (the create explains its refusal: refusal.ts).
 */
import { postgresName } from "../shared/branch-objects";
import { branchIdRule, projectIdRule } from "../shared/ids";
import { isUnknown } from "../shared/unknown";
import { CheckFailure, required, Validator } from "../shared/validators";

/** Database names Neon refuses. */
export const PROTECTED_DATABASE_NAMES = ["postgres", "template0", "template1"] as const;

const notProtected: Validator = (value) =>
  (PROTECTED_DATABASE_NAMES as readonly string[]).includes(String(value))
    ? `is one of Neon's protected database names, which cannot be given to a database (protected: ${PROTECTED_DATABASE_NAMES.join(", ")})`
    : undefined;

/** One validator per input property. */
export const DATABASE_RULES: Record<string, Validator> = {
  projectId: projectIdRule,
  branchId: branchIdRule,
  name: required(postgresName("database"), notProtected),
  ownerName: required(postgresName("owner role")),
};

/** Validates Database inputs; returns the failures, each naming its property. */
export function checkDatabaseInputs(news: Record<string, unknown>): CheckFailure[] {
  const failures: CheckFailure[] = [];
  for (const property of new Set([...Object.keys(news), ...Object.keys(DATABASE_RULES)])) {
    if (property === "__provider") continue;
    const validate = DATABASE_RULES[property];
    const value = news[property];
    if (!validate) {
      failures.push({
        property,
        reason: `is not a Database property; known: ${Object.keys(DATABASE_RULES).join(", ")}`,
      });
    } else if (!isUnknown(value)) {
      const reason = validate(value);
      if (reason) failures.push({ property, reason });
    }
  }
  return failures;
}
