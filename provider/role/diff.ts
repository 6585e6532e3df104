/**
 * `diff` for Role: pure (no API call, no credentials). What a change does is data (ROLE_DIFF_RULES); the table in
 * docs/resources.md (Role, Database) is this table. New inputs are compared with the old outputs.
 *
 * A role has no update in the API but its password reset: its name, branch and project address it, so a change of
 * any replaces it; `passwordTriggers` reset the password.
 */
import { branchConnectionsDrop, shown } from "../shared/connections";
import { isUnknown } from "../shared/unknown";
import { stableJson } from "../shared/stable-json";
import { cannotLogIn } from "./mapping";

/** replace: a new role; reset: POST …/reset_password; record: kept in state, nothing sent. */
export type RoleChangeEffect = "replace" | "reset" | "record";

export const ROLE_DIFF_RULES: Record<string, RoleChangeEffect> = {
  projectId: "replace",
  branchId: "replace",
  name: "replace",
  noLogin: "replace",
  passwordTriggers: "reset",
};

/** The service's value for a property the program may leave out. */
const DEFAULTS: Record<string, unknown> = { noLogin: false };

export interface RolePlan {
  changes: boolean;
  replaces: string[];
  /** The replacement keeps the role's address (only noLogin changed): the old role must go first, its name is taken. */
  deleteBeforeReplace: boolean;
  /**
   * The password is reset: passwordTriggers changed from one value to another. A first value (none before) is
   * recorded, as a removal is, like a Branch's resetTriggers: a reset breaks every client of the old password. But a
   * first value resets a role whose state has no password (one that could not be read back): the advice then given.
   */
  reset: boolean;
}

/** Decides what changing `olds` (old outputs) into `news` (new inputs) does to the role. */
export function planRoleChange(olds: Record<string, unknown>, news: Record<string, unknown>): RolePlan {
  const changed = Object.keys(ROLE_DIFF_RULES).filter((property) => differs(property, olds, news));
  const replaces = changed.filter((property) => ROLE_DIFF_RULES[property] === "replace");
  const sameAddress = ["projectId", "branchId", "name"].every((p) => !replaces.includes(p));
  return {
    changes: changed.length > 0,
    replaces,
    deleteBeforeReplace: replaces.length > 0 && sameAddress,
    reset:
      replaces.length === 0 &&
      changed.includes("passwordTriggers") &&
      news.passwordTriggers !== undefined &&
      (olds.passwordTriggers !== undefined || lacksPassword(olds)),
  };
}

/** A role that can log in, whose state holds no password. */
function lacksPassword(olds: Record<string, unknown>): boolean {
  return olds.password === undefined && !cannotLogIn(olds);
}

function differs(property: string, olds: Record<string, unknown>, news: Record<string, unknown>): boolean {
  const wanted = news[property] ?? DEFAULTS[property];
  // Removed triggers are recorded (an update that sends nothing).
  if (wanted === undefined) return property === "passwordTriggers" && olds[property] !== undefined;
  if (isUnknown(wanted)) return true;
  return stableJson(olds[property] ?? DEFAULTS[property]) !== stableJson(wanted);
}

/**
 * The preview's warning for a replacement that deletes the old role first (only `noLogin` changed: the new role takes
 * its name): its connections drop, and Neon refuses to delete a role that owns a database, which the plugin cannot see
 * offline. Undefined for any other plan.
 */
export function deleteFirstWarning(id: string, olds: Record<string, unknown>, plan: RolePlan): string | undefined {
  if (!plan.deleteBeforeReplace) return undefined;
  return (
    `Role ${String(olds.name)} of branch ${String(olds.branchId)} (${id}) will be replaced (${plan.replaces.join(", ")} ` +
    `changed), the old role deleted first since the new one takes its name: its connections drop, and a role that ` +
    `owns a database cannot be deleted (Neon refuses): give such a database another owner (its ownerName) first.`
  );
}

/**
 * The preview's warning for a password reset, undefined when there is none. It names the property, never a value
 * (the plugin cannot know which values were secrets), and says what breaks: the branch's open connections (OpenAPI
 * `resetProjectBranchRolePassword`), and whoever still uses the old password.
 */
export function resetWarning(id: string, olds: Record<string, unknown>, plan: RolePlan): string | undefined {
  if (!plan.reset) return undefined;
  return branchConnectionsDrop(
    `Role ${String(olds.name)} of branch ${String(olds.branchId)} (${id}) will get a new password (passwordTriggers changed)`,
    olds.branchId,
    `; clients still using the old password fail once the reset is in force: give them the new password output`,
  );
}

/**
 * The preview's warning for a role to be created (a create, or a replacement's new role: `replaced` names the old one
 * and the plan): creating a role drops the branch's open connections (OpenAPI `createProjectBranchRole`).
 */
export function createWarning(news: Record<string, unknown>, replaced?: { id: string; plan: RolePlan }): string {
  const replacing = replaced ? ` (replacing ${replaced.id}: ${replaced.plan.replaces.join(", ")} changed)` : "";
  return branchConnectionsDrop(
    `Role ${shown(news.name)} of branch ${shown(news.branchId)} will be created${replacing}`,
    news.branchId,
  );
}
