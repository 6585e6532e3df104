import { projectFor } from "../access";
import { poolerRule, type BranchMove } from "../behaviours";
import { ApiError, badRequest, conflict, unprocessable } from "../errors";
import { defaultConfig } from "../fixture";
import { newEndpointId } from "../ids";
import { renderOperation } from "../operations";
import { settleConfig } from "../plans";
import { renderEndpoint } from "../render";
import type { Reply, RequestContext, Route } from "../router";
import type { Branch, EndpointRecord, OperationRecord, Project } from "../types";
import { applySizes, parseEndpointCreate, parseEndpointUpdate } from "../validation";

const RW_EXISTS = "read_write endpoint already exists";

/** The real message of a compute create on a branch that was just created (api.md, "Transient errors"). */
export const BRANCH_NOT_READY = "branch not ready yet";

/**
 * The path's project, settled first (Lifecycle.settleProject), so that a compute of an expired branch is gone before
 * a route looks it up.
 */
function settled(ctx: RequestContext): Project {
  const project = projectFor(ctx.state.store, ctx.key, ctx.params.project_id);
  ctx.state.lifecycle.settleProject(project.id, ctx.now);
  return project;
}

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

/** 422 `branch not ready yet` while a branch created through the API is still being set up. */
function assertBranchReady(ctx: RequestContext, branch: Branch): void {
  if (branch.readyAt !== undefined && ctx.now < branch.readyAt) throw unprocessable(BRANCH_NOT_READY);
}

const render = (ctx: RequestContext, e: EndpointRecord) => renderEndpoint(e, ctx.state.behaviours.poolerFields);

function withOps(ctx: RequestContext, status: number, e: EndpointRecord, ops: OperationRecord[]): Reply {
  const operations = ops.map((o) => renderOperation(o, ctx.now, true));
  return { status, body: { endpoint: render(ctx, e), operations } };
}

function create(ctx: RequestContext): Reply {
  const { store, lifecycle, behaviours } = ctx.state;
  const project = settled(ctx);
  const input = parseEndpointCreate(ctx.body, project.regionId, poolerRule(behaviours));
  const sized = applySizes({ ...defaultConfig(), ...input.config }, input.config, { min: 0.25, max: 0.25 }, "endpoint");
  const config = settleConfig(ctx.account.plan, sized, "endpoint");
  const branch = store.branch(project.id, input.branchId);
  assertBranchReady(ctx, branch);
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
  return withOps(ctx, 201, e, lifecycle.created(e, ctx.now));
}

function update(ctx: RequestContext): Reply {
  const { store, lifecycle, behaviours } = ctx.state;
  const project = settled(ctx);
  const e = store.endpoint(project.id, ctx.params.endpoint_id);
  const input = parseEndpointUpdate(ctx.body, { type: e.type, regionId: e.regionId }, poolerRule(behaviours));
  const current = { min: e.config.autoscaling_limit_min_cu, max: e.config.autoscaling_limit_max_cu };
  const sized = applySizes({ ...e.config, ...input.config }, input.config, current, "endpoint");
  const next = settleConfig(ctx.account.plan, sized, "endpoint");
  const branchId = branchAfter(input.branchId, e.branchId, behaviours.branchMove);
  if (branchId !== e.branchId) {
    store.branch(project.id, branchId);
    if (e.type === "read_write") assertNoOtherPrimary(ctx, project.id, branchId, e.id);
  }
  gate(ctx, project.id);
  return withOps(ctx, 200, e, lifecycle.updated(e, next, branchId, ctx.now));
}

/**
 * The branch a PATCH leaves the compute on: `branch_id` moves it today (api.md "Branch move"); the `branchMove`
 * behaviour models the two plausible services after the deprecated field is removed (behaviours.ts).
 */
function branchAfter(requested: string | undefined, current: string, rule: BranchMove): string {
  if (requested === undefined || rule === "ignored") return current;
  if (rule === "refused")
    throw badRequest("endpoint.branch_id is not accepted in an update: it was removed from the API; allowed: absent");
  return requested;
}

/**
 * DELETE: 204 when the project has no such compute, "Returned if the endpoint doesn't exist or has already been
 * deleted" (OpenAPI, deleteProjectEndpoint), so a compute deleted before and an id never seen answer alike (the
 * project itself must exist: 404 otherwise); 422 on a protected branch; else the compute is removed at once and, with
 * `deleteOperations`, a running suspend_compute is returned that locks the project until it ends (the official
 * spec's example).
 */
function remove(ctx: RequestContext): Reply {
  const { store, lifecycle, behaviours } = ctx.state;
  const project = settled(ctx);
  const found = store.endpoints.get(ctx.params.endpoint_id);
  if (found?.projectId !== project.id) return { status: 204, body: undefined };
  const e = found;
  const branch = store.branch(project.id, e.branchId);
  if (branch.protected) {
    throw unprocessable(
      `endpoint ${e.id} cannot be deleted: branch ${branch.name} (${branch.id}) is protected; ` +
        `computes of a protected branch cannot be deleted until the branch is unprotected`,
    );
  }
  gate(ctx, project.id);
  const ops = behaviours.deleteOperations ? lifecycle.deleted(e, ctx.now) : [];
  store.removeEndpoint(e.id);
  return withOps(ctx, 200, e, ops);
}

type Step = "restart" | "start" | "suspend";

/**
 * restart / start / suspend: no body, `200 {endpoint, operations}`; restart only of an active compute; start and
 * restart not of a disabled one. Start of an active compute and suspend of an idle one are accepted, returning their
 * operation and leaving the state as it is (**guess**: no source says whether the service refuses them).
 */
const step =
  (which: Step) =>
  (ctx: RequestContext): Reply => {
    const project = settled(ctx);
    const e = ctx.state.store.endpoint(project.id, ctx.params.endpoint_id);
    gate(ctx, project.id);
    if (which !== "suspend" && e.config.disabled) throw disabledRefusal(e.id, which);
    if (which === "restart" && ctx.state.behaviours.restartRequiresActive && e.currentState !== "active") {
      throw unprocessable(
        `endpoint ${e.id} is ${e.currentState}: restart works only on an active compute; start it with ` +
          `POST /projects/${project.id}/endpoints/${e.id}/start or wake it with a query`,
      );
    }
    return withOps(ctx, 200, e, ctx.state.lifecycle[which](e, ctx.now));
  };

/**
 * A disabled compute is not started by a request: "A disabled compute endpoint cannot be enabled by a connection or
 * console action" (OpenAPI, EndpointUpdateRequest.disabled). The status (422, like the other refusals of an
 * object's present state) and the wording are a **guess**.
 */
function disabledRefusal(id: string, which: Step): ApiError {
  return unprocessable(
    `endpoint ${id} is disabled: a disabled compute cannot be ${which === "start" ? "started" : "restarted"}; ` +
      `enable it first (PATCH with endpoint.disabled false)`,
  );
}

function list(ctx: RequestContext, branchId?: string): Reply {
  const { store } = ctx.state;
  const project = settled(ctx);
  if (branchId !== undefined) store.branch(project.id, branchId);
  const endpoints = store.endpointsOf(project.id, branchId).sort((a, b) => a.seq - b.seq);
  return { status: 200, body: { endpoints: endpoints.map((e) => render(ctx, e)) } };
}

function get(ctx: RequestContext): Reply {
  const project = settled(ctx);
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
