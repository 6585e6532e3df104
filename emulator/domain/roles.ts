import { newRole } from "../branching";
import { ApiError, conflict, unprocessable } from "../errors";
import { newRolePassword } from "../ids";
import { isUnfinished } from "../operations";
import type { Branch, OperationRecord, Project, RoleRecord } from "../types";
import { passwordsStored } from "./projects";
import { takeLock, type DeletedDatabase, type Service } from "./service";

/**
 * The rules of a branch's Postgres roles (OpenAPI `createProjectBranchRole`, `deleteProjectBranchRole`,
 * `getProjectBranchRolePassword`, `resetProjectBranchRolePassword`). Mutations take the project lock (423) after their
 * own checks, and make the operations that carry the change to the branch's computes (Lifecycle.configApplied).
 */

/** A role and the operations its change made. */
export interface RoleChange {
  role: RoleRecord;
  operations: OperationRecord[];
}

/**
 * A role that cannot log in has no password to reveal or reset: 422 (**guess**: the document answers reveal_password
 * "if possible", and names only 404 and 412, "Storing passwords is disabled", which is not this case).
 */
function noPassword(r: RoleRecord, what: string): ApiError {
  return unprocessable(`role ${r.name} was created with no_login: it cannot log in and has no password to ${what}`);
}

/** A new role (with its password unless `noLogin`), as OpenAPI `RoleOperations` and the document's example show. */
export function createRole(
  svc: Service,
  project: Project,
  branch: Branch,
  input: { name: string; noLogin: boolean },
  now: number,
): RoleChange {
  // GUESS: 409, as for a branch or database name already taken (neondatabase/neon-pkgs#307 lists those as 409s)
  if (svc.store.findRole(branch.id, input.name))
    throw conflict(`role ${JSON.stringify(input.name)} already exists on branch ${branch.id}`);
  takeLock(svc, project.id, now);
  const role = newRole(svc.store, branch, input.name, now, { noLogin: input.noLogin });
  return { role, operations: svc.lifecycle.configApplied(branch, now) };
}

/**
 * A delete: undefined (the route's 204) when the branch has no such role ("Returned if the role doesn't exist or has
 * already been deleted"). A role that owns a database is refused: Neon docs, Manage roles: "you cannot delete a role
 * that owns a database. The database must be deleted before" (status 422: **guess**). The ownership check comes before
 * the project lock. By default a deleted database is gone at once, so while the delete of the database it owned runs,
 * the answer is 423; under behaviour `databaseOwnedUntil: "finished"` it is 422 until that delete's operations finish
 * (both **guesses**: README "Guesses"; the provider converges under either).
 */
export function deleteRole(
  svc: Service,
  project: Project,
  branch: Branch,
  name: string,
  now: number,
): RoleChange | undefined {
  const { store } = svc;
  const role = store.findRole(branch.id, name);
  if (!role) return undefined;
  const owned = [
    ...store.databasesOf(branch.id).filter((d) => d.ownerName === role.name),
    ...stillBeingDeleted(svc, branch, now).filter((d) => d.ownerName === role.name),
  ];
  if (owned.length) {
    throw unprocessable(
      `role ${role.name} owns database(s) ${owned.map((d) => d.name).join(", ")}: a role that owns a database cannot be ` +
        `deleted; delete the database or give it another owner first`,
    );
  }
  takeLock(svc, project.id, now);
  store.removeRole(role);
  return { role, operations: svc.lifecycle.configApplied(branch, now) };
}

/**
 * What reveal_password answers (OpenAPI `RolePasswordResponse`); 404 `role not found`; 412 "Storing passwords is
 * disabled" (the document's) in a project made with `store_passwords: false`, or with behaviour `storePasswords: false`. While a reset's operations run, the old password
 * with behaviour `revealAfterReset: "old"` (a **guess**, as the default `new` is: behaviours.ts).
 */
export function revealPassword(svc: Service, branch: Branch, name: string, now: number): string {
  const role = svc.store.role(branch.id, name);
  if (role.password === undefined) throw noPassword(role, "reveal");
  if (!passwordsStored(svc, svc.store.projects.get(branch.projectId)))
    throw new ApiError(412, "Storing passwords is disabled");
  return resetInFlight(svc, role, now) ? role.reset!.oldPassword : role.password;
}

/** The branch's deleted databases whose delete operations run (behaviour `databaseOwnedUntil: "finished"`). */
function stillBeingDeleted(svc: Service, branch: Branch, now: number): DeletedDatabase[] {
  const unfinished = (id: string) => {
    const op = svc.store.operations.get(id);
    return op !== undefined && isUnfinished(op, now);
  };
  svc.databasesBeingDeleted = svc.databasesBeingDeleted.filter((d) => d.operationIds.some(unfinished));
  return svc.databasesBeingDeleted.filter((d) => d.branchId === branch.id);
}

/** True while the role's last reset has an unfinished operation, under behaviour `revealAfterReset: "old"`. */
function resetInFlight(svc: Service, role: RoleRecord, now: number): boolean {
  if (svc.behaviours.revealAfterReset !== "old" || role.reset === undefined) return false;
  return role.reset.operationIds.some((id) => {
    const op = svc.store.operations.get(id);
    return op !== undefined && isUnfinished(op, now);
  });
}

/**
 * reset_password: a new password and the operations that apply it ("Returns a new password and operations"). What
 * reveal answers until the operations finish is a **guess** (behaviour `revealAfterReset`): "The old password remains
 * valid until last operation finishes" may hold for reveal too.
 */
export function resetPassword(svc: Service, project: Project, branch: Branch, name: string, now: number): RoleChange {
  const role = svc.store.role(branch.id, name);
  if (role.password === undefined) throw noPassword(role, "reset");
  takeLock(svc, project.id, now);
  const oldPassword = role.password;
  role.password = newRolePassword();
  role.updatedAt = now;
  svc.store.dirty = true;
  const operations = svc.lifecycle.configApplied(branch, now);
  role.reset = { oldPassword, operationIds: operations.map((op) => op.id) };
  return { role, operations };
}
