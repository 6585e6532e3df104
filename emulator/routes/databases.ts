import { createDatabase, deleteDatabase, updateDatabase, type DatabaseChange } from "../domain/databases";
import { parseDatabaseCreate, parseDatabaseUpdate } from "../pg-input";
import { renderDatabase } from "../render";
import type { Reply, RequestContext, Route } from "../router";
import { created, settledBranch } from "./gate";

/**
 * Databases of a branch (OpenAPI `listProjectBranchDatabases`, `createProjectBranchDatabase`,
 * `getProjectBranchDatabase`, `updateProjectBranchDatabase`, `deleteProjectBranchDatabase`): each handler parses the
 * request, calls its rule in domain/databases.ts and renders `{database, operations}`.
 */

const withOps = (ctx: RequestContext, status: number, c: DatabaseChange): Reply => ({
  status,
  body: { database: renderDatabase(c.database), operations: created(ctx, c.operations) },
});

/** POST → 201 `{database, operations}`. */
function create(ctx: RequestContext): Reply {
  const { project, branch } = settledBranch(ctx);
  const input = parseDatabaseCreate(ctx.body);
  return withOps(ctx, 201, createDatabase(ctx.state, project, branch, input, ctx.now));
}

/** PATCH → 200 `{database, operations}`: `name` and/or `owner_name`. */
function update(ctx: RequestContext): Reply {
  const { project, branch } = settledBranch(ctx);
  const db = ctx.state.store.database(branch.id, ctx.params.database_name);
  const input = parseDatabaseUpdate(ctx.body);
  return withOps(ctx, 200, updateDatabase(ctx.state, project, branch, db, input, ctx.now));
}

/** DELETE → 200 `{database, operations}`; 204 "if the database doesn't exist or has already been deleted". */
function remove(ctx: RequestContext): Reply {
  const { project, branch } = settledBranch(ctx);
  const deleted = deleteDatabase(ctx.state, project, branch, ctx.params.database_name, ctx.now);
  return deleted ? withOps(ctx, 200, deleted) : { status: 204, body: undefined };
}

function list(ctx: RequestContext): Reply {
  const { branch } = settledBranch(ctx);
  return { status: 200, body: { databases: ctx.state.store.databasesOf(branch.id).map(renderDatabase) } };
}

function get(ctx: RequestContext): Reply {
  const { branch } = settledBranch(ctx);
  return {
    status: 200,
    body: { database: renderDatabase(ctx.state.store.database(branch.id, ctx.params.database_name)) },
  };
}

const ALL = "/projects/:project_id/branches/:branch_id/databases";
const ONE = `${ALL}/:database_name`;

/** Databases: list, create, get, update, delete. */
export const databaseRoutes: Route[] = [
  { method: "GET", pattern: ALL, handler: list },
  { method: "POST", pattern: ALL, handler: create },
  { method: "GET", pattern: ONE, handler: get },
  { method: "PATCH", pattern: ONE, handler: update },
  { method: "DELETE", pattern: ONE, handler: remove },
];
