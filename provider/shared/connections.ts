/**
 * The preview's one line for a change Neon carries to the computes of a branch (an `apply_config`) and that drops
 * their open connections, as the OpenAPI document says of creating a role (`createProjectBranchRole`: "Connections
 * established to the active compute endpoint will be dropped") and of resetting its password
 * (`resetProjectBranchRolePassword`: "Connections to the compute endpoint are dropped"). Worded as Compute's restart
 * warning (compute/refusal.ts `connectionWarning`); docs/resources.md lists which changes warn.
 */
import { isUnknown } from "./unknown";

/** A value for a message: "(known after apply)" while the preview does not know it. */
export function shown(value: unknown): string {
  return isUnknown(value) ? "(known after apply)" : String(value);
}

/** `<what>: the computes of branch <b> apply it, and their open connections will drop<then>.` */
export function branchConnectionsDrop(what: string, branchId: unknown, then = ""): string {
  return `${what}: the computes of branch ${shown(branchId)} apply it, and their open connections will drop${then}.`;
}

/** The branches this process created (not adopted): nothing was connected to them before this update. */
const created = new Set<string>();

/** Notes a branch this process has just created. */
export function noteBranchCreated(branchId: string): void {
  created.add(branchId);
}

/**
 * True when the branch can have no open connections to drop: it is unknown in a preview (the update creates or
 * replaces it), or this process created it in this update.
 */
export function isNewBranch(branchId: unknown): boolean {
  return isUnknown(branchId) || (typeof branchId === "string" && created.has(branchId));
}
