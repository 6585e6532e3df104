import type { BranchUpdateInput } from "../branch-input";
import { childrenOf } from "../branching";
import { badRequest, conflict, unprocessable } from "../errors";
import type { Store } from "../store";
import type { Branch, OperationRecord, Project } from "../types";
import { takeLock, type Service } from "./service";

/**
 * The rules of a branch's update and delete (OpenAPI `updateProjectBranch`, `deleteProjectBranch`), and the name rule
 * every branch route shares. The create is branch-create.ts, the restore branch-restore.ts.
 */

/**
 * 409 for a name another branch of the project has: Neon's CLI meets "branch already exists" as an API 409 when a
 * branch name is taken (neondatabase/neon-pkgs#307; the message as neondatabase/create-branch-action#67 shows it).
 * Names are unique within a project, so a client can find a branch it created by its name.
 */
export function assertNameFree(store: Store, projectId: string, name: string, except?: string): void {
  if (store.branchesOf(projectId).some((b) => b.name === name && b.id !== except)) {
    throw conflict(`branch already exists; branch_name:${JSON.stringify(name)}`);
  }
}

/** `ttl_interval_seconds`: "the interval between the time `expires_at` was set and the expiration timestamp itself". */
export const ttlOf = (expiresAt: number, now: number): number => Math.round((expiresAt - now) / 1000);

const which = (b: Branch): string => `branch ${b.name} (${b.id})`;
const names = (branches: Branch[]): string => branches.map((c) => c.name).join(", ");

/**
 * PATCH (OpenAPI `updateProjectBranch`, `BranchUpdateRequest`): `name`, `protected`, `expires_at` (null removes it).
 * Expiration rules, Neon docs, Branch expiration, "Restrictions": not on the default branch, not on a protected branch
 * nor protecting an expiring one, not on a branch with children. A request that contradicts itself answers 400, one
 * that the branch's state refuses 422 (both statuses a **guess**). Takes the lock though it makes no operation (guess).
 */
export function updateBranch(
  svc: Service,
  project: Project,
  branch: Branch,
  input: BranchUpdateInput,
  now: number,
): Branch {
  const { store } = svc;
  if (input.name !== undefined) assertNameFree(store, project.id, input.name, branch.id);
  const expiring = input.expiresAt === undefined ? branch.expiresAt !== undefined : input.expiresAt !== null;
  const protecting = input.protected ?? branch.protected === true;
  if (typeof input.expiresAt === "number") {
    if (input.protected === true)
      throw badRequest("branch.expires_at: a protected branch cannot expire; send one of them");
    refuseExpiry(store, branch, protecting);
  } else if (input.protected === true && expiring) {
    throw unprocessable(
      `${which(branch)} expires: an expiring branch cannot be protected; send expires_at null with it`,
    );
  }
  takeLock(svc, project.id, now);
  if (input.name !== undefined) branch.name = input.name;
  if (input.protected !== undefined) {
    if (input.protected) branch.protected = true;
    else delete branch.protected;
  }
  if (input.expiresAt === null) {
    delete branch.expiresAt;
    delete branch.ttlSeconds; // GUESS: a removed expiration leaves no TTL behind
  } else if (input.expiresAt !== undefined) {
    branch.expiresAt = input.expiresAt;
    branch.ttlSeconds = ttlOf(input.expiresAt, now);
  }
  branch.updatedAt = now;
  store.dirty = true;
  return branch;
}

/** 422 when the branch may not expire (Neon docs, Branch expiration, "Restrictions"). */
function refuseExpiry(store: Store, branch: Branch, protecting: boolean): void {
  if (branch.isDefault)
    throw unprocessable(`${which(branch)} is the project's default branch: a default branch cannot expire`);
  if (protecting)
    throw unprocessable(`${which(branch)} is protected: a protected branch cannot expire; unprotect it first`);
  const children = childrenOf(store, branch);
  if (children.length) {
    throw unprocessable(`${which(branch)} has child branches (${names(children)}): a parent branch cannot expire`);
  }
}

/**
 * DELETE (OpenAPI `deleteProjectBranch`): undefined (the route's 204) when the project has no such branch ("Returned if
 * the branch doesn't exist or has already been deleted"); refused for the default or root branch and for a branch with
 * children ("You cannot delete a project's root or default branch, or a branch that has a child branch"), and for a
 * protected branch (Neon docs, Protected branches: "Protected branches cannot be deleted"). Status 422 for the
 * refusals: **guess**. Else the branch, removed with its computes, roles and databases, and the delete's operations
 * (Lifecycle.branchDeleted).
 */
export function deleteBranch(
  svc: Service,
  project: Project,
  branchId: string,
  now: number,
): { branch: Branch; operations: OperationRecord[] } | undefined {
  const branch = svc.store.branches.get(branchId);
  if (branch?.projectId !== project.id) return undefined;
  if (branch.isDefault) throw unprocessable(`${which(branch)} is the project's default branch: it cannot be deleted`);
  if (!branch.parentId && branch.initSource !== "schema-only") {
    throw unprocessable(`${which(branch)} is the project's root branch: it cannot be deleted`);
  }
  if (branch.protected)
    throw unprocessable(`${which(branch)} is protected: a protected branch cannot be deleted; unprotect it first`);
  const children = childrenOf(svc.store, branch);
  if (children.length) {
    throw unprocessable(
      `${which(branch)} has child branches (${names(children)}): delete them first; a branch with children cannot be deleted`,
    );
  }
  takeLock(svc, project.id, now);
  return { branch, operations: svc.lifecycle.branchDeleted(branch, now) };
}
