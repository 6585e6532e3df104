import { newDatabase } from "../branching";
import { ApiError, conflict } from "../errors";
import { parseDatabaseCreate, parseDatabaseUpdate } from "../pg-input";
import { renderDatabase } from "../render";
import type { Reply, RequestContext, Route } from "../router";
import type { Store } from "../store";
import type { Branch } from "../types";
import { assertNotBusy, created, settledBranch } from "./gate";

/**
 * Databases of a branch (OpenAPI `listProjectBranchDatabases`, `createProjectBranchDatabase`,
 * `getProjectBranchDatabase`, `updateProjectBranchDatabase`, `deleteProjectBranchDatabase`). Mutations take the project
 * lock (423) after their own checks, and answer the operations that carry the change to the branch's computes
 * (Lifecycle.configApplied), as the document's examples show.
 */

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

/** POST → 201 `{database, operations}`. */
function create(ctx: RequestContext): Reply {
  const { store, lifecycle } = ctx.state;
  const { project, branch } = settledBranch(ctx);
  const input = parseDatabaseCreate(ctx.body);
  assertNameFree(store, branch, input.name);
  assertOwner(store, branch, input.ownerName);
  assertNotBusy(ctx, project.id);
  const db = newDatabase(store, branch, input.name, input.ownerName, ctx.now);
  const ops = lifecycle.configApplied(branch, ctx.now);
  return { status: 201, body: { database: renderDatabase(db), operations: created(ctx, ops) } };
}

/**
 * PATCH → 200 `{database, operations}`: `name` and/or `owner_name`. A request that changes nothing answers no operations
 * (**guess**, as a compute update that changes nothing).
 */
function update(ctx: RequestContext): Reply {
  const { store, lifecycle } = ctx.state;
  const { project, branch } = settledBranch(ctx);
  const db = store.database(branch.id, ctx.params.database_name);
  const input = parseDatabaseUpdate(ctx.body);
  const rename = input.name !== undefined && input.name !== db.name;
  const reown = input.ownerName !== undefined && input.ownerName !== db.ownerName;
  if (rename) assertNameFree(store, branch, input.name as string);
  if (reown) assertOwner(store, branch, input.ownerName as string);
  assertNotBusy(ctx, project.id);
  if (!rename && !reown) return { status: 200, body: { database: renderDatabase(db), operations: [] } };
  if (rename) store.renameDatabase(db, input.name as string);
  if (reown) db.ownerName = input.ownerName as string;
  db.updatedAt = ctx.now;
  store.dirty = true;
  const ops = lifecycle.configApplied(branch, ctx.now);
  return { status: 200, body: { database: renderDatabase(db), operations: created(ctx, ops) } };
}

/** DELETE → 200 `{database, operations}`; 204 "if the database doesn't exist or has already been deleted". */
function remove(ctx: RequestContext): Reply {
  const { store, lifecycle } = ctx.state;
  const { project, branch } = settledBranch(ctx);
  const db = store.findDatabase(branch.id, ctx.params.database_name);
  if (!db) return { status: 204, body: undefined };
  assertNotBusy(ctx, project.id);
  store.removeDatabase(db);
  const ops = lifecycle.configApplied(branch, ctx.now);
  return { status: 200, body: { database: renderDatabase(db), operations: created(ctx, ops) } };
}

const ALL = "/projects/:project_id/branches/:branch_id/databases";
const ONE = `${ALL}/:database_name`;

/** Databases: list, create, get, update, delete. */
export const databaseRoutes: Route[] = [
  {
    method: "GET",
    pattern: ALL,
    handler: (ctx) => {
      const { branch } = settledBranch(ctx);
      return { status: 200, body: { databases: ctx.state.store.databasesOf(branch.id).map(renderDatabase) } };
    },
  },
  { method: "POST", pattern: ALL, handler: create },
  {
    method: "GET",
    pattern: ONE,
    handler: (ctx) => {
      const { branch } = settledBranch(ctx);
      return {
        status: 200,
        body: { database: renderDatabase(ctx.state.store.database(branch.id, ctx.params.database_name)) },
      };
    },
  },
  { method: "PATCH", pattern: ONE, handler: update },
  { method: "DELETE", pattern: ONE, handler: remove },
];
