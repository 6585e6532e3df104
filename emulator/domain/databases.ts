import { newDatabase } from "../branching";
import { ApiError, conflict } from "../errors";
import type { Store } from "../store";
import type { Branch, DatabaseRecord, OperationRecord, Project } from "../types";
import { takeLock, type Service } from "./service";

/**
 * The rules of a branch's databases (OpenAPI `createProjectBranchDatabase`, `updateProjectBranchDatabase`,
 * `deleteProjectBranchDatabase`). Mutations take the project lock (423) after their own checks, and make the operations
 * that carry the change to the branch's computes (Lifecycle.configApplied), as the document's examples show.
 */

/** A database and the operations its change made. */
export interface DatabaseChange {
  database: DatabaseRecord;
  operations: OperationRecord[];
}

/**
 * The owner must be a role of the branch: the service answers `database owner not found` (neondatabase/neonctl#272,
 * a database created for an owner the branch lacks); status 404 is a **guess** (it is how this service answers every
 * "… not found").
 */
function assertOwner(store: Store, branch: Branch, ownerName: string): void {
  if (!store.findRole(branch.id, ownerName)) {
    throw new ApiError(404, `database owner not found: branch ${branch.id} has no role ${JSON.stringify(ownerName)}`);
  }
}

/**
 * 409 for a name another database of the branch has (neondatabase/neon-pkgs#307 counts "database-already-exists" among
 * the API's 409s; the wording is a **guess**).
 */
function assertNameFree(store: Store, branch: Branch, name: string): void {
  if (store.findDatabase(branch.id, name))
    throw conflict(`database ${JSON.stringify(name)} already exists on branch ${branch.id}`);
}

export function createDatabase(
  svc: Service,
  project: Project,
  branch: Branch,
  input: { name: string; ownerName: string },
  now: number,
): DatabaseChange {
  assertNameFree(svc.store, branch, input.name);
  assertOwner(svc.store, branch, input.ownerName);
  takeLock(svc, project.id, now);
  const database = newDatabase(svc.store, branch, input.name, input.ownerName, now);
  return { database, operations: svc.lifecycle.configApplied(branch, now) };
}

/**
 * An update of `name` and/or `owner_name`. A request that changes nothing makes no operations (**guess**, as a compute
 * update that changes nothing), but takes the lock like any other.
 */
export function updateDatabase(
  svc: Service,
  project: Project,
  branch: Branch,
  db: DatabaseRecord,
  input: { name?: string; ownerName?: string },
  now: number,
): DatabaseChange {
  const { store } = svc;
  const rename = input.name !== undefined && input.name !== db.name;
  const reown = input.ownerName !== undefined && input.ownerName !== db.ownerName;
  if (rename) assertNameFree(store, branch, input.name as string);
  if (reown) assertOwner(store, branch, input.ownerName as string);
  takeLock(svc, project.id, now);
  if (!rename && !reown) return { database: db, operations: [] };
  if (rename) store.renameDatabase(db, input.name as string);
  if (reown) db.ownerName = input.ownerName as string;
  db.updatedAt = now;
  store.dirty = true;
  return { database: db, operations: svc.lifecycle.configApplied(branch, now) };
}

/**
 * A delete: undefined (the route's 204) "if the database doesn't exist or has already been deleted". Under behaviour
 * `databaseOwnedUntil: "finished"` the role's delete still counts it until these operations finish (roles.ts).
 */
export function deleteDatabase(
  svc: Service,
  project: Project,
  branch: Branch,
  name: string,
  now: number,
): DatabaseChange | undefined {
  const db = svc.store.findDatabase(branch.id, name);
  if (!db) return undefined;
  takeLock(svc, project.id, now);
  svc.store.removeDatabase(db);
  const operations = svc.lifecycle.configApplied(branch, now);
  if (svc.behaviours.databaseOwnedUntil === "finished") {
    const operationIds = operations.map((op) => op.id);
    svc.databasesBeingDeleted.push({ branchId: branch.id, name: db.name, ownerName: db.ownerName, operationIds });
  }
  return { database: db, operations };
}
