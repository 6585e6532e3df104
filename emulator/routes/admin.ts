import { projectFor } from "../access";
import { badRequest } from "../errors";
import { renderOperation, type OperationRule } from "../operations";
import { renderEndpoint } from "../render";
import type { RequestContext, Route } from "../router";
import { requireObject } from "../validation";

const STATUSES = ["failed", "error", "cancelled"];

/**
 * The body of an operation control: `{action?, times?, error?, status?, retries?}` (`retries: "forever"` for a
 * failure retried without end, as JSON has no Infinity); each field checked, 400 naming it otherwise.
 */
function parseRule(body: unknown, outcomes: boolean): OperationRule {
  const b = body === undefined ? {} : requireObject(body);
  const rule: OperationRule = {};
  if (b.action !== undefined) {
    if (typeof b.action !== "string" || b.action === "") throw badRequest("action must be a non-empty string");
    rule.action = b.action;
  }
  if (b.times !== undefined) {
    if (!Number.isInteger(b.times) || (b.times as number) < 1) throw badRequest("times must be an integer ≥ 1");
    rule.times = b.times as number;
  }
  if (!outcomes) return rule;
  if (b.error !== undefined) {
    if (typeof b.error !== "string") throw badRequest("error must be a string");
    rule.error = b.error;
  }
  if (b.status !== undefined) {
    if (typeof b.status !== "string" || !STATUSES.includes(b.status)) {
      throw badRequest(`status: ${JSON.stringify(b.status)} is not allowed; allowed values: ${STATUSES.join(", ")}`);
    }
    rule.status = b.status as OperationRule["status"];
  }
  if (b.retries === "forever") rule.retries = Infinity;
  else if (b.retries !== undefined) {
    if (!Number.isInteger(b.retries) || (b.retries as number) < 0) {
      throw badRequest('retries must be an integer ≥ 0, or "forever"');
    }
    rule.retries = b.retries as number;
  }
  return rule;
}

/** POST /_emulator/operations/{fail,skip,stick}-next: `emulator.operations.*Next` for users of the command line. */
function arm(which: "failNext" | "skipNext" | "stickNext") {
  return ({ state, body }: RequestContext) => {
    const rule = parseRule(body, which === "failNext");
    state.ops[which](rule);
    return {
      status: 200,
      body: { armed: which, rule: { ...rule, retries: rule.retries === Infinity ? "forever" : rule.retries } },
    };
  };
}

/**
 * Emulator-only routes under /_emulator (outside /api/v2, so no client mistakes them for the real API), for users
 * of the command line: simulate a connection or a query on a compute, and script how the next operations end.
 */
export const adminRoutes: Route[] = [
  {
    method: "POST",
    pattern: "/activity/:project_id/:endpoint_id",
    handler: ({ state, key, params, now }) => {
      const project = projectFor(state.store, key, params.project_id);
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
  { method: "POST", pattern: "/operations/fail-next", handler: arm("failNext") },
  { method: "POST", pattern: "/operations/skip-next", handler: arm("skipNext") },
  { method: "POST", pattern: "/operations/stick-next", handler: arm("stickNext") },
];
