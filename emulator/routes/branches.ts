import { poolerRule } from "../behaviours";
import { parseBranchCreate, parseBranchRestore, parseBranchUpdate } from "../branch-input";
import { createBranch } from "../domain/branch-create";
import { restoreBranch } from "../domain/branch-restore";
import { deleteBranch, updateBranch } from "../domain/branches";
import { computeDefaults } from "../domain/projects";
import {
  renderAnnotation,
  renderBranch,
  renderConnections,
  renderDatabase,
  renderEndpoint,
  renderRole,
} from "../render";
import type { Reply, RequestContext, Route } from "../router";
import { branchList } from "./branch-list";
import { created, settledBranch, settledProject } from "./gate";

/**
 * Branches (OpenAPI `createProjectBranch`, `listProjectBranches`, `getProjectBranch`, `updateProjectBranch`,
 * `deleteProjectBranch`, `restoreProjectBranch`): each handler parses the request, calls its rule in domain/ (which
 * makes its own checks, then takes the project lock, 423) and renders the reply.
 */

/** POST → 201 `{branch, endpoints, operations, roles, databases, connection_uris}` (OpenAPI `CreatedBranch`). */
function create(ctx: RequestContext): Reply {
  const project = settledProject(ctx);
  const { behaviours } = ctx.state;
  const options = { pooler: poolerRule(behaviours), plan: ctx.account.plan, now: ctx.now };
  const input = parseBranchCreate(ctx.body, { ...options, defaults: computeDefaults(project) });
  const made = createBranch(ctx.state, project, input, ctx.now);
  const body = {
    branch: renderBranch(made.branch, ctx.now, true),
    endpoints: made.endpoints.map((e) => renderEndpoint(e, behaviours.poolerFields)),
    operations: created(ctx, made.operations),
    roles: made.roles.map((r) => renderRole(r)),
    databases: made.databases.map(renderDatabase),
    connection_uris: renderConnections(made.connection),
  };
  return { status: 201, body };
}

/** GET one: `{branch, annotation}` (OpenAPI `getProjectBranch`: `BranchResponse` + `AnnotationResponse`). */
function get(ctx: RequestContext): Reply {
  const { branch } = settledBranch(ctx);
  return { status: 200, body: { branch: renderBranch(branch, ctx.now), annotation: renderAnnotation(branch) } };
}

/** PATCH → `{branch, operations: []}`, as the example of OpenAPI `updateProjectBranch` (domain/branches.ts). */
function update(ctx: RequestContext): Reply {
  const { project, branch } = settledBranch(ctx);
  const input = parseBranchUpdate(ctx.body, ctx.now);
  const updated = updateBranch(ctx.state, project, branch, input, ctx.now);
  return { status: 200, body: { branch: renderBranch(updated, ctx.now), operations: [] } };
}

/** DELETE → `{branch, operations}`, 204 when the project has no such branch (domain/branches.ts). */
function remove(ctx: RequestContext): Reply {
  const project = settledProject(ctx);
  const deleted = deleteBranch(ctx.state, project, ctx.params.branch_id, ctx.now);
  if (!deleted) return { status: 204, body: undefined };
  return {
    status: 200,
    body: { branch: renderBranch(deleted.branch, ctx.now), operations: created(ctx, deleted.operations) },
  };
}

/** POST …/restore → 200 `{branch, operations}` (domain/branch-restore.ts). */
function restore(ctx: RequestContext): Reply {
  const { project, branch } = settledBranch(ctx);
  const input = parseBranchRestore(ctx.body);
  const ops = restoreBranch(ctx.state, project, branch, input, ctx.now);
  return { status: 200, body: { branch: renderBranch(branch, ctx.now), operations: created(ctx, ops) } };
}

/** Branches: list, create, get, update, delete, restore. */
export const branchRoutes: Route[] = [
  { method: "GET", pattern: "/projects/:project_id/branches", handler: branchList },
  { method: "POST", pattern: "/projects/:project_id/branches", handler: create },
  { method: "GET", pattern: "/projects/:project_id/branches/:branch_id", handler: get },
  { method: "PATCH", pattern: "/projects/:project_id/branches/:branch_id", handler: update },
  { method: "DELETE", pattern: "/projects/:project_id/branches/:branch_id", handler: remove },
  { method: "POST", pattern: "/projects/:project_id/branches/:branch_id/restore", handler: restore },
];
