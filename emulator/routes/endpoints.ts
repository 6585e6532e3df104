import { conflict } from "../errors";
import { newEndpointId } from "../ids";
import { renderOperation } from "../operations";
import { renderEndpoint } from "../render";
import type { Reply, RequestContext, Route } from "../router";
import type { EndpointRecord, OperationRecord } from "../types";
import { defaultConfig } from "../fixture";
import { parseEndpointCreate, parseEndpointUpdate, resolveSizes } from "../validation";

const RW_EXISTS = "read_write endpoint already exists";

/** Settles the project, then 423 if an operation is unfinished: the gate of every compute mutation. */
function gate(ctx: RequestContext, projectId: string): void {
  ctx.state.lifecycle.settleProject(projectId, ctx.now);
  ctx.state.ops.assertNotBusy(projectId, ctx.now);
}

/** 409 when the branch already has a primary compute other than `except`. */
function assertNoOtherPrimary(ctx: RequestContext, projectId: string, branchId: string, except?: string): void {
  const taken = ctx.state.store
    .endpointsOf(projectId, branchId)
    .some((e) => e.type === "read_write" && e.id !== except);
  if (taken) throw conflict(RW_EXISTS);
}

function withOps(status: number, e: EndpointRecord, ops: OperationRecord[], now: number): Reply {
  return {
    status,
    body: { endpoint: renderEndpoint(e), operations: ops.map((o) => renderOperation(o, now, true)) },
  };
}

function create(ctx: RequestContext): Reply {
  const { store, lifecycle } = ctx.state;
  const project = store.project(ctx.account.id, ctx.params.project_id);
  const input = parseEndpointCreate(ctx.body, project.regionId);
  const config = { ...defaultConfig(), ...input.config };
  const sizes = resolveSizes(
    { min: input.config.autoscaling_limit_min_cu, max: input.config.autoscaling_limit_max_cu },
    { min: 0.25, max: 0.25 },
    "endpoint",
  );
  config.autoscaling_limit_min_cu = sizes.min;
  config.autoscaling_limit_max_cu = sizes.max;
  store.branch(project.id, input.branchId);
  if (input.type === "read_write") assertNoOtherPrimary(ctx, project.id, input.branchId);
  gate(ctx, project.id);
  const e: EndpointRecord = {
    id: newEndpointId(),
    projectId: project.id,
    branchId: input.branchId,
    regionId: project.regionId,
    type: input.type,
    config,
    creationSource: "console",
    createdAt: ctx.now,
    updatedAt: ctx.now,
    currentState: "init",
    seq: store.nextSeq(),
  };
  store.addEndpoint(e);
  return withOps(201, e, lifecycle.created(e, ctx.now), ctx.now);
}

function update(ctx: RequestContext): Reply {
  const { store, lifecycle } = ctx.state;
  const project = store.project(ctx.account.id, ctx.params.project_id);
  const e = store.endpoint(project.id, ctx.params.endpoint_id);
  const input = parseEndpointUpdate(ctx.body, { type: e.type, regionId: e.regionId });
  const next = { ...e.config, ...input.config };
  const sizes = resolveSizes(
    { min: input.config.autoscaling_limit_min_cu, max: input.config.autoscaling_limit_max_cu },
    { min: e.config.autoscaling_limit_min_cu, max: e.config.autoscaling_limit_max_cu },
    "endpoint",
  );
  next.autoscaling_limit_min_cu = sizes.min;
  next.autoscaling_limit_max_cu = sizes.max;
  const branchId = input.branchId ?? e.branchId;
  if (branchId !== e.branchId) {
    store.branch(project.id, branchId);
    if (e.type === "read_write") assertNoOtherPrimary(ctx, project.id, branchId, e.id);
  }
  gate(ctx, project.id);
  return withOps(200, e, lifecycle.updated(e, next, branchId, ctx.now), ctx.now);
}

function remove(ctx: RequestContext): Reply {
  const project = ctx.state.store.project(ctx.account.id, ctx.params.project_id);
  const e = ctx.state.store.endpoint(project.id, ctx.params.endpoint_id);
  gate(ctx, project.id);
  ctx.state.store.removeEndpoint(e.id);
  return withOps(200, e, [], ctx.now);
}

type Step = "restart" | "start" | "suspend";

/** restart / start / suspend: no body, `200 {endpoint, operations}`. */
const step =
  (which: Step) =>
  (ctx: RequestContext): Reply => {
    const project = ctx.state.store.project(ctx.account.id, ctx.params.project_id);
    const e = ctx.state.store.endpoint(project.id, ctx.params.endpoint_id);
    gate(ctx, project.id);
    return withOps(200, e, ctx.state.lifecycle[which](e, ctx.now), ctx.now);
  };

function list(ctx: RequestContext, branchId?: string): Reply {
  const { store, lifecycle } = ctx.state;
  const project = store.project(ctx.account.id, ctx.params.project_id);
  if (branchId !== undefined) store.branch(project.id, branchId);
  lifecycle.settleProject(project.id, ctx.now);
  const endpoints = store.endpointsOf(project.id, branchId).sort((a, b) => a.seq - b.seq);
  return { status: 200, body: { endpoints: endpoints.map(renderEndpoint) } };
}

function get(ctx: RequestContext): Reply {
  const { store, lifecycle } = ctx.state;
  const project = store.project(ctx.account.id, ctx.params.project_id);
  const e = store.endpoint(project.id, ctx.params.endpoint_id);
  lifecycle.settleProject(project.id, ctx.now);
  return { status: 200, body: { endpoint: renderEndpoint(e) } };
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
