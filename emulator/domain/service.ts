import { projectFor } from "../access";
import type { ServiceBehaviours } from "../behaviours";
import { Lifecycle } from "../lifecycle";
import { OperationEngine } from "../operations";
import type { Store } from "../store";
import type { Branch, KeyRecord, Project } from "../types";

/**
 * The service the routes call (as json-server's routes call its store): what a rule reads and changes. The domain
 * modules (`domain/*.ts`) hold the service's rules as functions over it, each taking the request's instant `now` and
 * returning records or throwing the emulator's typed errors (errors.ts); they know nothing of HTTP, so a rule is
 * testable without a server.
 */
export interface Service {
  store: Store;
  ops: OperationEngine;
  lifecycle: Lifecycle;
  behaviours: ServiceBehaviours;
  /** Deleted databases whose delete operations may still run (behaviour `databaseOwnedUntil: "finished"`). */
  databasesBeingDeleted: DeletedDatabase[];
}

/** A deleted database, as a role's delete still counts it until the operations of its delete finish. */
export interface DeletedDatabase {
  branchId: string;
  name: string;
  ownerName: string;
  operationIds: string[];
}

/** The service over a store: its operations (each phase `operationDurationMs` of service time) and lifecycle. */
export function createService(store: Store, behaviours: ServiceBehaviours, operationDurationMs = 1000): Service {
  const ops = new OperationEngine(store, operationDurationMs);
  return { store, ops, lifecycle: new Lifecycle(store, ops), behaviours, databasesBeingDeleted: [] };
}

/**
 * The project the key names, settled to `now` first (Lifecycle.settleProject: expiries, autosuspends), so that an
 * expired branch and its computes are gone before anything reads them; 404 for a project the key may not use.
 */
export function settledProject(svc: Service, key: KeyRecord, projectId: string, now: number): Project {
  const project = projectFor(svc.store, key, projectId);
  svc.lifecycle.settleProject(project.id, now);
  return project;
}

/** The project and its branch (404 `branch not found`), settled. */
export function settledBranch(
  svc: Service,
  key: KeyRecord,
  ids: { projectId: string; branchId: string },
  now: number,
): { project: Project; branch: Branch } {
  const project = settledProject(svc, key, ids.projectId, now);
  return { project, branch: svc.store.branch(project.id, ids.branchId) };
}

/**
 * The project lock: 423 "project already has running conflicting operations" while the project has an unfinished
 * operation (api.md "Project busy"; OperationEngine.assertNotBusy). Every mutation takes it after its own checks, as
 * the compute routes do, so a refused request changes nothing.
 */
export function takeLock(svc: Service, projectId: string, now: number): void {
  svc.ops.assertNotBusy(projectId, now);
}
