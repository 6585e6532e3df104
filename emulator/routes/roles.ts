import { newRole } from "../branching";
import { ApiError, conflict, unprocessable } from "../errors";
import { newRolePassword } from "../ids";
import { isUnfinished } from "../operations";
import { parseRoleCreate } from "../pg-input";
import { renderRole } from "../render";
import type { Reply, RequestContext, Route } from "../router";
import type { RoleRecord } from "../types";
import { assertNotBusy, created, settledBranch } from "./gate";

/**
 * Postgres roles of a branch (OpenAPI `listProjectBranchRoles`, `createProjectBranchRole`, `getProjectBranchRole`,
 * `deleteProjectBranchRole`, `getProjectBranchRolePassword`, `resetProjectBranchRolePassword`). Mutations take the
 * project lock (423) after their own checks, and answer the operations that carry the change to the branch's computes
 * (Lifecycle.configApplied).
 */

/**
 * A role that cannot log in has no password to reveal or reset: 422 (**guess**: the document answers reveal_password
 * "if possible", and names only 404 and 412, "Storing passwords is disabled", which is not this case).
 */
function noPassword(r: RoleRecord, what: string): ApiError {
  return unprocessable(`role ${r.name} was created with no_login: it cannot log in and has no password to ${what}`);
}

/** POST → 201 `{role (with its password), operations}` (OpenAPI `RoleOperations`, the document's example). */
function create(ctx: RequestContext): Reply {
  const { store, lifecycle } = ctx.state;
  const { project, branch } = settledBranch(ctx);
  const input = parseRoleCreate(ctx.body);
  // GUESS: 409, as for a branch or database name already taken (neondatabase/neon-pkgs#307 lists those as 409s)
  if (store.findRole(branch.id, input.name))
    throw conflict(`role ${JSON.stringify(input.name)} already exists on branch ${branch.id}`);
  assertNotBusy(ctx, project.id);
  const role = newRole(store, branch, input.name, ctx.now, { noLogin: input.noLogin });
  const ops = lifecycle.configApplied(branch, ctx.now);
  return { status: 201, body: { role: renderRole(role, true), operations: created(ctx, ops) } };
}

/**
 * DELETE → 200 `{role, operations}`; 204 when the branch has no such role ("Returned if the role doesn't exist or has
 * already been deleted"). A role that owns a database is refused: Neon docs, Manage roles: "you cannot delete a role
 * that owns a database. The database must be deleted before" (status 422: **guess**). The ownership check comes before
 * the project lock and a deleted database is gone at once, so while the delete of the database it owned runs, the
 * answer is 423 (**guess**: README "Guesses"; the provider converges under either).
 */
function remove(ctx: RequestContext): Reply {
  const { store, lifecycle } = ctx.state;
  const { project, branch } = settledBranch(ctx);
  const role = store.findRole(branch.id, ctx.params.role_name);
  if (!role) return { status: 204, body: undefined };
  const owned = store.databasesOf(branch.id).filter((d) => d.ownerName === role.name);
  if (owned.length) {
    throw unprocessable(
      `role ${role.name} owns database(s) ${owned.map((d) => d.name).join(", ")}: a role that owns a database cannot be ` +
        `deleted; delete the database or give it another owner first`,
    );
  }
  assertNotBusy(ctx, project.id);
  store.removeRole(role);
  const ops = lifecycle.configApplied(branch, ctx.now);
  return { status: 200, body: { role: renderRole(role), operations: created(ctx, ops) } };
}

/**
 * GET …/reveal_password → `{password}` (OpenAPI `RolePasswordResponse`); 404 `role not found`; 412 "Storing passwords
 * is disabled" (the document's) with behaviour `storePasswords: false`. While a reset's operations run, the old
 * password with behaviour `revealAfterReset: "old"` (a **guess**, as the default `new` is: behaviours.ts).
 */
function reveal(ctx: RequestContext): Reply {
  const { branch } = settledBranch(ctx);
  const role = ctx.state.store.role(branch.id, ctx.params.role_name);
  if (role.password === undefined) throw noPassword(role, "reveal");
  if (!ctx.state.behaviours.storePasswords) throw new ApiError(412, "Storing passwords is disabled");
  return { status: 200, body: { password: resetInFlight(ctx, role) ? role.reset!.oldPassword : role.password } };
}

/** True while the role's last reset has an unfinished operation, under behaviour `revealAfterReset: "old"`. */
function resetInFlight(ctx: RequestContext, role: RoleRecord): boolean {
  if (ctx.state.behaviours.revealAfterReset !== "old" || role.reset === undefined) return false;
  return role.reset.operationIds.some((id) => {
    const op = ctx.state.store.operations.get(id);
    return op !== undefined && isUnfinished(op, ctx.now);
  });
}

/**
 * POST …/reset_password → 200 `{role (with the new password), operations}` ("Returns a new password and operations").
 * What reveal answers until the operations finish is a **guess** (behaviour `revealAfterReset`): "The old password
 * remains valid until last operation finishes" may hold for reveal too.
 */
function reset(ctx: RequestContext): Reply {
  const { store, lifecycle } = ctx.state;
  const { project, branch } = settledBranch(ctx);
  const role = store.role(branch.id, ctx.params.role_name);
  if (role.password === undefined) throw noPassword(role, "reset");
  assertNotBusy(ctx, project.id);
  const oldPassword = role.password;
  role.password = newRolePassword();
  role.updatedAt = ctx.now;
  store.dirty = true;
  const ops = lifecycle.configApplied(branch, ctx.now);
  role.reset = { oldPassword, operationIds: ops.map((op) => op.id) };
  return { status: 200, body: { role: renderRole(role, true), operations: created(ctx, ops) } };
}

const ALL = "/projects/:project_id/branches/:branch_id/roles";
const ONE = `${ALL}/:role_name`;

/** Roles: list (no passwords), create, get (no password), delete, reveal_password, reset_password. */
export const roleRoutes: Route[] = [
  {
    method: "GET",
    pattern: ALL,
    handler: (ctx) => {
      const { branch } = settledBranch(ctx);
      return { status: 200, body: { roles: ctx.state.store.rolesOf(branch.id).map((r) => renderRole(r)) } };
    },
  },
  { method: "POST", pattern: ALL, handler: create },
  {
    method: "GET",
    pattern: ONE,
    handler: (ctx) => {
      const { branch } = settledBranch(ctx);
      return { status: 200, body: { role: renderRole(ctx.state.store.role(branch.id, ctx.params.role_name)) } };
    },
  },
  { method: "DELETE", pattern: ONE, handler: remove },
  { method: "GET", pattern: `${ONE}/reveal_password`, handler: reveal },
  { method: "POST", pattern: `${ONE}/reset_password`, handler: reset },
];
