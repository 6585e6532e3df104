import { projectFor } from "../access";
import { renderOperation } from "../operations";
import type { RequestContext } from "../router";
import type { Branch, OperationRecord, Project } from "../types";

/**
 * What the branch, role and database routes share: the project and branch of the path, settled first (so an expired
 * branch is gone before anything reads it), and the lock every mutation takes.
 */

/** The path's project, settled to `now` (Lifecycle.settleProject: expiries, autosuspends). */
export function settledProject(ctx: RequestContext): Project {
  const project = projectFor(ctx.state.store, ctx.key, ctx.params.project_id);
  ctx.state.lifecycle.settleProject(project.id, ctx.now);
  return project;
}

/** The path's project and branch (404 `branch not found`), settled. */
export function settledBranch(ctx: RequestContext): { project: Project; branch: Branch } {
  const project = settledProject(ctx);
  return { project, branch: ctx.state.store.branch(project.id, ctx.params.branch_id) };
}

/**
 * 423 while the project has an unfinished operation (api.md "Project busy"): every mutation takes this lock after its
 * own checks, as the compute routes do, so a refused request changes nothing.
 */
export function assertNotBusy(ctx: RequestContext, projectId: string): void {
  ctx.state.ops.assertNotBusy(projectId, ctx.now);
}

/** Operations as a mutation's response shows them (as created: `running` or `scheduling`). */
export const created = (ctx: RequestContext, ops: OperationRecord[]): Record<string, unknown>[] =>
  ops.map((o) => renderOperation(o, ctx.now, true));
