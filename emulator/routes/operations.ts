import { projectFor } from "../access";
import { notFound } from "../errors";
import { renderOperation } from "../operations";
import { defaultLimit, page } from "../paging";
import type { Route } from "../router";
import { parseLimit } from "../validation";

/** Operation polling: one operation, and the project's operations newest first with cursor paging. */
export const operationRoutes: Route[] = [
  {
    method: "GET",
    pattern: "/projects/:project_id/operations",
    handler: ({ state, key, params, query, now }) => {
      const project = projectFor(state.store, key, params.project_id);
      state.lifecycle.settleProject(project.id, now);
      // limit 1..1000 (OpenAPI listProjectOperations); its default is not documented: 10 is a guess
      const limit = parseLimit(
        query.get("limit") ?? undefined,
        1000,
        defaultLimit(state.behaviours.pageSize, 10, 1000),
      );
      const all = state.store.opsByProject.get(project.id) ?? [];
      const { items, cursor } = page(all, query.get("cursor"), limit, true);
      return { status: 200, body: { operations: items.map((o) => renderOperation(o, now)), pagination: { cursor } } };
    },
  },
  {
    method: "GET",
    pattern: "/projects/:project_id/operations/:operation_id",
    handler: ({ state, key, params, now }) => {
      const project = projectFor(state.store, key, params.project_id);
      const op = state.store.operations.get(params.operation_id);
      if (!op || op.projectId !== project.id) throw notFound("operation");
      return { status: 200, body: { operation: renderOperation(op, now) } };
    },
  },
];
