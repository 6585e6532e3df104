import * as service from "../domain/service";
import { renderOperation } from "../operations";
import type { RequestContext } from "../router";
import type { Branch, OperationRecord, Project } from "../types";

/**
 * What the project routes share: the project (and branch) of the path, settled first (domain/service.ts), and the
 * operations as a mutation's reply shows them.
 */

/** The path's project, settled to `now` (Lifecycle.settleProject: expiries, autosuspends); 404 `project not found`. */
export function settledProject(ctx: RequestContext): Project {
  return service.settledProject(ctx.state, ctx.key, ctx.params.project_id, ctx.now);
}

/** The path's project and branch (404 `branch not found`), settled. */
export function settledBranch(ctx: RequestContext): { project: Project; branch: Branch } {
  const ids = { projectId: ctx.params.project_id, branchId: ctx.params.branch_id };
  return service.settledBranch(ctx.state, ctx.key, ids, ctx.now);
}

/** Operations as a mutation's response shows them (as created: `running` or `scheduling`). */
export const created = (ctx: RequestContext, ops: OperationRecord[]): Record<string, unknown>[] =>
  ops.map((o) => renderOperation(o, ctx.now, true));
