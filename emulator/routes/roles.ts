import { createRole, deleteRole, resetPassword, revealPassword, type RoleChange } from "../domain/roles";
import { parseRoleCreate } from "../pg-input";
import { renderRole } from "../render";
import type { Reply, RequestContext, Route } from "../router";
import { created, settledBranch } from "./gate";

/**
 * Postgres roles of a branch (OpenAPI `listProjectBranchRoles`, `createProjectBranchRole`, `getProjectBranchRole`,
 * `deleteProjectBranchRole`, `getProjectBranchRolePassword`, `resetProjectBranchRolePassword`): each handler parses the
 * request, calls its rule in domain/roles.ts and renders the reply.
 */

const withOps = (ctx: RequestContext, status: number, c: RoleChange, password = false): Reply => ({
  status,
  body: { role: renderRole(c.role, password), operations: created(ctx, c.operations) },
});

/** POST → 201 `{role (with its password), operations}` (OpenAPI `RoleOperations`, the document's example). */
function create(ctx: RequestContext): Reply {
  const { project, branch } = settledBranch(ctx);
  const input = parseRoleCreate(ctx.body);
  return withOps(ctx, 201, createRole(ctx.state, project, branch, input, ctx.now), true);
}

/** DELETE → 200 `{role, operations}`; 204 when the branch has no such role. */
function remove(ctx: RequestContext): Reply {
  const { project, branch } = settledBranch(ctx);
  const deleted = deleteRole(ctx.state, project, branch, ctx.params.role_name, ctx.now);
  return deleted ? withOps(ctx, 200, deleted) : { status: 204, body: undefined };
}

/** GET …/reveal_password → `{password}` (OpenAPI `RolePasswordResponse`). */
function reveal(ctx: RequestContext): Reply {
  const { branch } = settledBranch(ctx);
  return { status: 200, body: { password: revealPassword(ctx.state, branch, ctx.params.role_name, ctx.now) } };
}

/** POST …/reset_password → 200 `{role (with the new password), operations}`. */
function reset(ctx: RequestContext): Reply {
  const { project, branch } = settledBranch(ctx);
  return withOps(ctx, 200, resetPassword(ctx.state, project, branch, ctx.params.role_name, ctx.now), true);
}

function list(ctx: RequestContext): Reply {
  const { branch } = settledBranch(ctx);
  return { status: 200, body: { roles: ctx.state.store.rolesOf(branch.id).map((r) => renderRole(r)) } };
}

function get(ctx: RequestContext): Reply {
  const { branch } = settledBranch(ctx);
  return { status: 200, body: { role: renderRole(ctx.state.store.role(branch.id, ctx.params.role_name)) } };
}

const ALL = "/projects/:project_id/branches/:branch_id/roles";
const ONE = `${ALL}/:role_name`;

/** Roles: list (no passwords), create, get (no password), delete, reveal_password, reset_password. */
export const roleRoutes: Route[] = [
  { method: "GET", pattern: ALL, handler: list },
  { method: "POST", pattern: ALL, handler: create },
  { method: "GET", pattern: ONE, handler: get },
  { method: "DELETE", pattern: ONE, handler: remove },
  { method: "GET", pattern: `${ONE}/reveal_password`, handler: reveal },
  { method: "POST", pattern: `${ONE}/reset_password`, handler: reset },
];
