import type { BranchCreateInput } from "../branch-input";
import { copyRolesAndDatabases } from "../branching";
import { unprocessable } from "../errors";
import { newBranchId, newEndpointId } from "../ids";
import type { OperationSpec } from "../operations";
import type { Store } from "../store";
import { pointInTime, syntheticLsn } from "../timestamps";
import {
  NEVER,
  type Branch,
  type DatabaseRecord,
  type EndpointRecord,
  type OperationRecord,
  type Project,
  type RoleRecord,
} from "../types";
import { assertNameFree, ttlOf } from "./branches";
import { takeLock, type Service } from "./service";

/** What a create made: the branch, its computes and operations, its roles and databases, the connection it offers. */
export interface CreatedBranch {
  branch: Branch;
  endpoints: EndpointRecord[];
  operations: OperationRecord[];
  roles: RoleRecord[];
  databases: DatabaseRecord[];
  connection?: { role: RoleRecord; database: DatabaseRecord; endpoint: EndpointRecord };
}

/**
 * POST /projects/{id}/branches (OpenAPI `createProjectBranch`, `CreatedBranch`). A `parent-data` branch is a child of
 * its parent with copies of its roles and databases; `schema-only` "creates a new root branch … they do not establish a
 * parent-child relationship" (OpenAPI `BranchCreateRequest.init_source`), with the roles and databases copied too
 * (**guess**: the docs connect to one with a role and a database like any branch, Schema-only branches). Checks the
 * parent, the point in time and the name, then takes the lock.
 */
export function createBranch(svc: Service, project: Project, input: BranchCreateInput, now: number): CreatedBranch {
  const { store, ops } = svc;
  const parent = parentOf(store, project, input);
  const parentTimestamp =
    input.parentTimestampRaw === undefined
      ? undefined
      : pointInTime("branch.parent_timestamp", input.parentTimestampRaw, now, parent);
  const id = newBranchId();
  const name = input.name ?? id; // the docs' example: an unnamed branch is named by its id
  assertNameFree(store, project.id, name);
  takeLock(svc, project.id, now);
  const child = input.initSource === "parent-data";
  const branch: Branch = {
    id,
    projectId: project.id,
    name,
    ...(child ? { parentId: parent.id, parentLsn: input.parentLsn ?? syntheticLsn(store.nextSeq()) } : {}),
    ...(child && parentTimestamp !== undefined ? { parentTimestamp } : {}),
    isDefault: false,
    ...(input.protected ? { protected: true } : {}),
    ...(child ? {} : { initSource: "schema-only" as const }),
    ...(input.expiresAt !== undefined ? { expiresAt: input.expiresAt, ttlSeconds: ttlOf(input.expiresAt, now) } : {}),
    ...(input.annotation ? { annotation: { value: input.annotation, createdAt: now, updatedAt: now } } : {}),
    createdAt: now,
    updatedAt: now,
    seq: store.nextSeq(),
  };
  store.addBranch(branch);
  // Neon docs, Protected branches: "When you create a child branch from a protected branch, new passwords are generated"
  copyRolesAndDatabases(store, parent, branch, now, { asOf: parentTimestamp, newPasswords: parent.protected === true });
  const endpoints = input.endpoints.map((ep) => newEndpoint(store, branch, project.regionId, ep, now));
  const specs: OperationSpec[] = [{ action: "create_branch", initial: "running", branchId: id }];
  for (const e of endpoints)
    specs.push({ action: "start_compute", initial: "scheduling", branchId: id, endpointId: e.id });
  const made = ops.create(project.id, now, specs);
  const setUp = made[0].endAt; // not ready while create_branch runs, and branchReadyDelayMs after it
  branch.readyAt = setUp === NEVER ? NEVER : setUp + svc.behaviours.branchReadyDelayMs;
  endpoints.forEach((e, i) => {
    e.pendingOpId = made[i + 1].id;
    store.addEndpoint(e);
  });
  const roles = store.rolesOf(branch.id);
  const databases = store.databasesOf(branch.id);
  const connection = connectionOf(roles, databases, endpoints);
  return { branch, endpoints, operations: made, roles, databases, ...(connection ? { connection } : {}) };
}

/**
 * The parent of a create: `parent_id`, or the project's default branch when it is "omitted or empty" (OpenAPI
 * `BranchCreateRequest`). An expiring parent is refused: Neon docs, Branch expiration, "Restrictions" ("Cannot … create
 * children from expiring branches"; the status 422 is a **guess**).
 */
function parentOf(store: Store, project: Project, input: BranchCreateInput): Branch {
  const parent = input.parentId
    ? store.branch(project.id, input.parentId)
    : (store.branchesOf(project.id).find((b) => b.isDefault) as Branch);
  if (parent.expiresAt !== undefined && input.initSource === "parent-data") {
    throw unprocessable(
      `branch ${parent.name} (${parent.id}) expires at ${new Date(parent.expiresAt).toISOString()}: a branch cannot be ` +
        `created from an expiring branch; remove its expires_at first`,
    );
  }
  return parent;
}

/** A compute of a new branch (or of a new project's default branch): init, pending active until its start_compute finishes. */
export function newEndpoint(
  store: Store,
  branch: Branch,
  regionId: string,
  ep: BranchCreateInput["endpoints"][number],
  now: number,
): EndpointRecord {
  return {
    id: newEndpointId(),
    projectId: branch.projectId,
    branchId: branch.id,
    regionId,
    type: ep.type,
    config: ep.config,
    creationSource: "console",
    createdAt: now,
    updatedAt: now,
    currentState: "init",
    pendingState: "active",
    seq: store.nextSeq(),
  };
}

/**
 * The connection a create offers (OpenAPI `ConnectionDetails`): one, for the new compute (its read-write one, else the
 * first), when the branch has one role that can log in and one database; "When creating a branch from a parent with
 * more than one role or database, the response body does not include a connection URI". None otherwise.
 */
function connectionOf(
  roles: RoleRecord[],
  databases: DatabaseRecord[],
  endpoints: EndpointRecord[],
): CreatedBranch["connection"] {
  const endpoint = endpoints.find((x) => x.type === "read_write") ?? endpoints[0];
  if (!endpoint || roles.length !== 1 || databases.length !== 1 || roles[0].password === undefined) return undefined;
  return { role: roles[0], database: databases[0], endpoint };
}
