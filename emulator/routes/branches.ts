import { projectFor } from "../access";
import { poolerRule, type PoolerRule } from "../behaviours";
import { badRequest } from "../errors";
import { defaultConfig } from "../fixture";
import { newBranchId, newEndpointId } from "../ids";
import { renderOperation, type OperationSpec } from "../operations";
import { renderBranch, renderEndpoint } from "../render";
import type { Reply, RequestContext, Route } from "../router";
import { settleConfig } from "../plans";
import { NEVER, type Branch, type EndpointRecord, type EndpointType, type Plan } from "../types";
import { applySizes, branchId as checkBranchId, configFields, requireObject } from "../validation";

interface BranchInput {
  name?: string;
  parentId?: string;
  protected?: boolean;
  endpoints: { type: EndpointType; config: ReturnType<typeof defaultConfig> }[];
}

/**
 * `{branch?: {name?, parent_id?, protected?}, endpoints?: [{type, sizes, suspend_timeout_seconds, ...}]}`; each
 * compute's config settled for the account's plan (plans.ts).
 */
function parseBranchCreate(body: unknown, options: { pooler: PoolerRule; plan?: Plan }): BranchInput {
  const b = body === undefined ? {} : requireObject(body);
  const br = b.branch === undefined ? {} : requireObject(b.branch, "branch");
  const out: BranchInput = { endpoints: [] };
  if (br.name !== undefined) {
    if (typeof br.name !== "string" || br.name.length < 1 || br.name.length > 256) {
      throw badRequest("branch.name must be a string of 1..256 characters");
    }
    out.name = br.name;
  }
  if (br.parent_id !== undefined) out.parentId = checkBranchId("branch.parent_id", br.parent_id);
  if (br.protected !== undefined) {
    if (typeof br.protected !== "boolean") throw badRequest("branch.protected must be a boolean (true or false)");
    out.protected = br.protected;
  }
  if (b.endpoints !== undefined && !Array.isArray(b.endpoints)) throw badRequest("endpoints must be an array");
  for (const [i, raw] of ((b.endpoints as unknown[]) ?? []).entries()) {
    const ep = requireObject(raw, `endpoints[${i}]`);
    if (ep.type !== "read_write" && ep.type !== "read_only") {
      throw badRequest(`endpoints[${i}].type is required; allowed values: read_write, read_only`);
    }
    const fields = configFields(ep, `endpoints[${i}]`, options.pooler);
    const sized = applySizes({ ...defaultConfig(), ...fields }, fields, { min: 0.25, max: 0.25 }, `endpoints[${i}]`);
    out.endpoints.push({ type: ep.type, config: settleConfig(options.plan, sized, `endpoints[${i}]`) });
  }
  if (out.endpoints.filter((e) => e.type === "read_write").length > 1) {
    throw badRequest("endpoints: at most one read_write endpoint per branch");
  }
  return out;
}

/** A compute of a new branch: init, pending active until its start_compute finishes. */
function newEndpoint(
  ctx: RequestContext,
  branch: Branch,
  regionId: string,
  ep: BranchInput["endpoints"][number],
): EndpointRecord {
  return {
    id: newEndpointId(),
    projectId: branch.projectId,
    branchId: branch.id,
    regionId,
    type: ep.type,
    config: ep.config,
    creationSource: "console",
    createdAt: ctx.now,
    updatedAt: ctx.now,
    currentState: "init",
    pendingState: "active",
    seq: ctx.state.store.nextSeq(),
  };
}

/** POST /projects/{id}/branches → 201 `{branch, endpoints, operations, roles, databases}` like the real API. */
function create(ctx: RequestContext): Reply {
  const { store, ops, lifecycle } = ctx.state;
  const project = projectFor(store, ctx.key, ctx.params.project_id);
  const input = parseBranchCreate(ctx.body, { pooler: poolerRule(ctx.state.behaviours), plan: ctx.account.plan });
  const parent = input.parentId
    ? store.branch(project.id, input.parentId)
    : store.branchesOf(project.id).find((b) => b.isDefault);
  lifecycle.settleProject(project.id, ctx.now);
  ops.assertNotBusy(project.id, ctx.now);
  const id = newBranchId();
  const branch: Branch = {
    id,
    projectId: project.id,
    name: input.name ?? id,
    ...(parent ? { parentId: parent.id } : {}),
    isDefault: false,
    ...(input.protected ? { protected: true } : {}),
    createdAt: ctx.now,
    updatedAt: ctx.now,
    seq: store.nextSeq(),
  };
  store.addBranch(branch);
  const endpoints = input.endpoints.map((ep) => newEndpoint(ctx, branch, project.regionId, ep));
  const specs: OperationSpec[] = [{ action: "create_branch", initial: "running", branchId: id }];
  for (const e of endpoints)
    specs.push({ action: "start_compute", initial: "scheduling", branchId: id, endpointId: e.id });
  const created = ops.create(project.id, ctx.now, specs);
  const setUp = created[0].endAt; // not ready while create_branch runs, and branchReadyDelayMs after it
  branch.readyAt = setUp === NEVER ? NEVER : setUp + ctx.state.behaviours.branchReadyDelayMs;
  endpoints.forEach((e, i) => {
    e.pendingOpId = created[i + 1].id;
    store.addEndpoint(e);
  });
  const body = {
    branch: renderBranch(branch),
    endpoints: endpoints.map((e) => renderEndpoint(e, ctx.state.behaviours.poolerFields)),
    operations: created.map((o) => renderOperation(o, ctx.now, true)),
    roles: [],
    databases: [],
    connection_uris: [],
  };
  return { status: 201, body };
}

/** Branches: list, create, get one. */
export const branchRoutes: Route[] = [
  {
    method: "GET",
    pattern: "/projects/:project_id/branches",
    handler: ({ state, key, params }) => {
      const project = projectFor(state.store, key, params.project_id);
      const branches = state.store.branchesOf(project.id).sort((a, b) => a.seq - b.seq);
      return { status: 200, body: { branches: branches.map(renderBranch), annotations: {} } };
    },
  },
  { method: "POST", pattern: "/projects/:project_id/branches", handler: create },
  {
    method: "GET",
    pattern: "/projects/:project_id/branches/:branch_id",
    handler: ({ state, key, params }) => {
      const project = projectFor(state.store, key, params.project_id);
      return { status: 200, body: { branch: renderBranch(state.store.branch(project.id, params.branch_id)) } };
    },
  },
];
