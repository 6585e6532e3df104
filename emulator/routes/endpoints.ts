import { poolerRule } from "../behaviours";
import {
  createEndpoint,
  deleteEndpoint,
  stepEndpoint,
  updateEndpoint,
  type Changed,
  type Step,
} from "../domain/endpoints";
import { parseEndpointCreate, parseEndpointUpdate } from "../endpoint-input";
import { renderEndpoint } from "../render";
import type { Reply, RequestContext, Route } from "../router";
import type { EndpointRecord } from "../types";
import { created, settledProject } from "./gate";

/**
 * Computes (OpenAPI `createProjectEndpoint`, `listProjectEndpoints`, `getProjectEndpoint`, `updateProjectEndpoint`,
 * `deleteProjectEndpoint`, `restartProjectEndpoint`, `startProjectEndpoint`, `suspendProjectEndpoint`): each handler
 * parses the request, calls its rule in domain/endpoints.ts and renders `{endpoint, operations}`.
 */

const render = (ctx: RequestContext, e: EndpointRecord) => renderEndpoint(e, ctx.state.behaviours.poolerFields);

function withOps(ctx: RequestContext, status: number, { endpoint, operations }: Changed): Reply {
  return { status, body: { endpoint: render(ctx, endpoint), operations: created(ctx, operations) } };
}

function create(ctx: RequestContext): Reply {
  const project = settledProject(ctx);
  const input = parseEndpointCreate(ctx.body, project.regionId, poolerRule(ctx.state.behaviours));
  return withOps(ctx, 201, createEndpoint(ctx.state, project, input, ctx.account.plan, ctx.now));
}

function update(ctx: RequestContext): Reply {
  const project = settledProject(ctx);
  const e = ctx.state.store.endpoint(project.id, ctx.params.endpoint_id);
  const input = parseEndpointUpdate(ctx.body, { type: e.type, regionId: e.regionId }, poolerRule(ctx.state.behaviours));
  return withOps(ctx, 200, updateEndpoint(ctx.state, project, e, input, ctx.account.plan, ctx.now));
}

/** DELETE → `{endpoint, operations}`; 204 when the project has no such compute (the project itself must exist). */
function remove(ctx: RequestContext): Reply {
  const project = settledProject(ctx);
  const deleted = deleteEndpoint(ctx.state, project, ctx.params.endpoint_id, ctx.now);
  return deleted ? withOps(ctx, 200, deleted) : { status: 204, body: undefined };
}

/** restart / start / suspend: no body, `200 {endpoint, operations}`. */
const step =
  (which: Step) =>
  (ctx: RequestContext): Reply => {
    const project = settledProject(ctx);
    const e = ctx.state.store.endpoint(project.id, ctx.params.endpoint_id);
    return withOps(ctx, 200, stepEndpoint(ctx.state, project, e, which, ctx.now));
  };

function list(ctx: RequestContext, branchId?: string): Reply {
  const { store } = ctx.state;
  const project = settledProject(ctx);
  if (branchId !== undefined) store.branch(project.id, branchId);
  const endpoints = store.endpointsOf(project.id, branchId).sort((a, b) => a.seq - b.seq);
  return { status: 200, body: { endpoints: endpoints.map((e) => render(ctx, e)) } };
}

function get(ctx: RequestContext): Reply {
  const project = settledProject(ctx);
  const e = ctx.state.store.endpoint(project.id, ctx.params.endpoint_id);
  return { status: 200, body: { endpoint: render(ctx, e) } };
}

const ONE = "/projects/:project_id/endpoints/:endpoint_id";

/** Computes: create, list (project and branch), get, update, delete, restart, start, suspend. */
export const endpointRoutes: Route[] = [
  { method: "POST", pattern: "/projects/:project_id/endpoints", handler: create },
  { method: "GET", pattern: "/projects/:project_id/endpoints", handler: (ctx) => list(ctx) },
  { method: "GET", pattern: ONE, handler: get },
  { method: "PATCH", pattern: ONE, handler: update },
  { method: "DELETE", pattern: ONE, handler: remove },
  { method: "POST", pattern: `${ONE}/restart`, handler: step("restart") },
  { method: "POST", pattern: `${ONE}/start`, handler: step("start") },
  { method: "POST", pattern: `${ONE}/suspend`, handler: step("suspend") },
  {
    method: "GET",
    pattern: "/projects/:project_id/branches/:branch_id/endpoints",
    handler: (ctx) => list(ctx, ctx.params.branch_id),
  },
];
