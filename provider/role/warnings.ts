/**
 * The preview's warnings of a Role's planned change (the plan: declaration.ts): what a replacement, a reset and a
 * create drop. Pure: no API call, no credentials.
 */
import { branchConnectionsDrop, shown } from "../shared/connections";
import { RolePlan } from "./declaration";

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
