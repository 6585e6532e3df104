import { renderOperation } from "../operations";
import { renderEndpoint } from "../render";
import type { Route } from "../router";

/**
 * Emulator-only routes under /_emulator (outside /api/v2, so no client mistakes them for the real API):
 * simulate a connection or a query on a compute, for users of the command line.
 */
export const adminRoutes: Route[] = [
  {
    method: "POST",
    pattern: "/activity/:project_id/:endpoint_id",
    handler: ({ state, account, params, now }) => {
      const project = state.store.project(account.id, params.project_id);
      const e = state.store.endpoint(project.id, params.endpoint_id);
      const ops = state.lifecycle.activity(e, now);
      return {
        status: 200,
        body: {
          endpoint: renderEndpoint(e, state.behaviours.poolerFields),
          operations: ops.map((o) => renderOperation(o, now, true)),
        },
      };
    },
  },
];
