import type { BranchMove } from "../behaviours";
import type { EndpointCreate, EndpointUpdate } from "../endpoint-input";
import { ApiError, badRequest, conflict, unprocessable } from "../errors";
import { newEndpointId } from "../ids";
import { settleConfig } from "../plans";
import type { EndpointRecord, OperationRecord, Plan, Project } from "../types";
import { applySizes } from "../validation";
import { computeDefaults } from "./projects";
import { takeLock, type Service } from "./service";

/**
 * The rules of the compute routes: one primary per branch, a branch not ready yet, the plan's sizes (plans.ts), a
 * protected branch's computes, a disabled compute, an idle restart. Each checks first, then takes the project lock (423),
 * then asks the lifecycle (compute-lifecycle.ts) for the change and its operations.
 */

const RW_EXISTS = "read_write endpoint already exists";

/** The real message of a compute create on a branch that was just created (api.md, "Transient errors"). */
export const BRANCH_NOT_READY = "branch not ready yet";

/** A compute and the operations a change of it made. */
export interface Changed {
  endpoint: EndpointRecord;
  operations: OperationRecord[];
}

/** 409 when the branch already has a primary compute other than `except`. */
function assertNoOtherPrimary(svc: Service, projectId: string, branchId: string, except?: string): void {
  const taken = svc.store.endpointsOf(projectId, branchId).some((e) => e.type === "read_write" && e.id !== except);
  if (taken) throw conflict(RW_EXISTS);
}

/**
 * POST: a new compute with the project's default settings (0.25 CU unless set) unless sized, its config settled for the account's plan (plans.ts); 422 `branch not
 * ready yet` while a branch created through the API is still being set up.
 */
export function createEndpoint(
  svc: Service,
  project: Project,
  input: EndpointCreate,
  plan: Plan | undefined,
  now: number,
): Changed {
  const { store } = svc;
  const base = computeDefaults(project); // the project's default_endpoint_settings (domain/projects.ts)
  const current = { min: base.autoscaling_limit_min_cu, max: base.autoscaling_limit_max_cu };
  const sized = applySizes({ ...base, ...input.config }, input.config, current, "endpoint");
  const config = settleConfig(plan, sized, "endpoint");
  const branch = store.branch(project.id, input.branchId);
  if (branch.readyAt !== undefined && now < branch.readyAt) throw unprocessable(BRANCH_NOT_READY);
  if (input.type === "read_write") assertNoOtherPrimary(svc, project.id, input.branchId);
  takeLock(svc, project.id, now);
  const e: EndpointRecord = {
    id: newEndpointId(),
    projectId: project.id,
    branchId: input.branchId,
    regionId: project.regionId,
    type: input.type,
    config,
    creationSource: "console",
    createdAt: now,
    updatedAt: now,
    currentState: "init",
    seq: store.nextSeq(),
  };
  store.addEndpoint(e);
  return { endpoint: e, operations: svc.lifecycle.created(e, now) };
}

/** PATCH: the config merged and settled for the plan; a move to another branch keeps one primary per branch. */
export function updateEndpoint(
  svc: Service,
  project: Project,
  e: EndpointRecord,
  input: EndpointUpdate,
  plan: Plan | undefined,
  now: number,
): Changed {
  const current = { min: e.config.autoscaling_limit_min_cu, max: e.config.autoscaling_limit_max_cu };
  const sized = applySizes({ ...e.config, ...input.config }, input.config, current, "endpoint");
  const next = settleConfig(plan, sized, "endpoint");
  const branchId = branchAfter(input.branchId, e.branchId, svc.behaviours.branchMove);
  if (branchId !== e.branchId) {
    svc.store.branch(project.id, branchId);
    if (e.type === "read_write") assertNoOtherPrimary(svc, project.id, branchId, e.id);
  }
  takeLock(svc, project.id, now);
  return { endpoint: e, operations: svc.lifecycle.updated(e, next, branchId, now) };
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
 * DELETE: undefined (the route's 204) when the project has no such compute, "Returned if the endpoint doesn't exist or
 * has already been deleted" (OpenAPI, deleteProjectEndpoint), so a compute deleted before and an id never seen answer
 * alike; 422 on a protected branch; else the compute is removed at once and, with `deleteOperations`, a running
 * suspend_compute is returned that locks the project until it ends (the official spec's example).
 */
export function deleteEndpoint(svc: Service, project: Project, endpointId: string, now: number): Changed | undefined {
  const { store } = svc;
  const e = store.endpoints.get(endpointId);
  if (e?.projectId !== project.id) return undefined;
  const branch = store.branch(project.id, e.branchId);
  if (branch.protected) {
    throw unprocessable(
      `endpoint ${e.id} cannot be deleted: branch ${branch.name} (${branch.id}) is protected; ` +
        `computes of a protected branch cannot be deleted until the branch is unprotected`,
    );
  }
  takeLock(svc, project.id, now);
  const operations = svc.behaviours.deleteOperations ? svc.lifecycle.deleted(e, now) : [];
  store.removeEndpoint(e.id);
  return { endpoint: e, operations };
}

export type Step = "restart" | "start" | "suspend";

/**
 * restart / start / suspend: restart only of an active compute (behaviour `restartRequiresActive`); start and restart
 * not of a disabled one. Start of an active compute and suspend of an idle one are accepted, returning their operation
 * and leaving the state as it is (**guess**: no source says whether the service refuses them). The lock comes first.
 */
export function stepEndpoint(svc: Service, project: Project, e: EndpointRecord, which: Step, now: number): Changed {
  takeLock(svc, project.id, now);
  if (which !== "suspend" && e.config.disabled) throw disabledRefusal(e.id, which);
  if (which === "restart" && svc.behaviours.restartRequiresActive && e.currentState !== "active") {
    throw unprocessable(
      `endpoint ${e.id} is ${e.currentState}: restart works only on an active compute; start it with ` +
        `POST /projects/${project.id}/endpoints/${e.id}/start or wake it with a query`,
    );
  }
  return { endpoint: e, operations: svc.lifecycle[which](e, now) };
}

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
