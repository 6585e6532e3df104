import { poolerRule } from "../behaviours";
import { parseBranchCreate, parseBranchRestore, parseBranchUpdate, type BranchCreateInput } from "../branch-input";
import { childrenOf, clearRolesAndDatabases, contentsOf, copyRolesAndDatabases, putContents } from "../branching";
import { badRequest, conflict, unprocessable } from "../errors";
import { newBranchId, newEndpointId } from "../ids";
import type { OperationSpec } from "../operations";
import {
  connectionUri,
  hostOf,
  poolerHostOf,
  renderAnnotation,
  renderBranch,
  renderDatabase,
  renderEndpoint,
  renderRole,
} from "../render";
import type { Reply, RequestContext, Route } from "../router";
import type { Store } from "../store";
import { pointInTime, syntheticLsn } from "../timestamps";
import { NEVER, type Branch, type EndpointRecord, type Project } from "../types";
import { assertNotBusy, created, settledBranch, settledProject } from "./gate";
import { branchList } from "./branch-list";

/**
 * Branches (OpenAPI `createProjectBranch`, `listProjectBranches`, `getProjectBranch`, `updateProjectBranch`,
 * `deleteProjectBranch`, `restoreProjectBranch`). Every mutation is refused with 423 while the project has an unfinished
 * operation, after its own checks, like the compute routes.
 */

/**
 * 409 for a name another branch of the project has: Neon's CLI meets "branch already exists" as an API 409 when a
 * branch name is taken (neondatabase/neon-pkgs#307; the message as neondatabase/create-branch-action#67 shows it).
 * Names are unique within a project, so a client can find a branch it created by its name.
 */
function assertNameFree(store: Store, projectId: string, name: string, except?: string): void {
  if (store.branchesOf(projectId).some((b) => b.name === name && b.id !== except)) {
    throw conflict(`branch already exists; branch_name:${JSON.stringify(name)}`);
  }
}

/** A compute of a new branch: init, pending active until its start_compute finishes. */
function newEndpoint(
  ctx: RequestContext,
  branch: Branch,
  regionId: string,
  ep: BranchCreateInput["endpoints"][number],
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

/**
 * POST /projects/{id}/branches → 201 `{branch, endpoints, operations, roles, databases, connection_uris}` (OpenAPI
 * `CreatedBranch`). A `parent-data` branch is a child of its parent with copies of its roles and databases;
 * `schema-only` "creates a new root branch … they do not establish a parent-child relationship" (OpenAPI
 * `BranchCreateRequest.init_source`), with the roles and databases copied too (**guess**: the docs connect to one with
 * a role and a database like any branch, Schema-only branches).
 */
function create(ctx: RequestContext): Reply {
  const { store, ops } = ctx.state;
  const project = settledProject(ctx);
  const input = parseBranchCreate(ctx.body, {
    pooler: poolerRule(ctx.state.behaviours),
    plan: ctx.account.plan,
    now: ctx.now,
  });
  const parent = parentOf(store, project, input);
  const parentTimestamp =
    input.parentTimestampRaw === undefined
      ? undefined
      : pointInTime("branch.parent_timestamp", input.parentTimestampRaw, ctx.now, parent);
  const id = newBranchId();
  const name = input.name ?? id; // the docs' example: an unnamed branch is named by its id
  assertNameFree(store, project.id, name);
  assertNotBusy(ctx, project.id);
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
    ...(input.expiresAt !== undefined
      ? { expiresAt: input.expiresAt, ttlSeconds: ttlOf(input.expiresAt, ctx.now) }
      : {}),
    ...(input.annotation ? { annotation: { value: input.annotation, createdAt: ctx.now, updatedAt: ctx.now } } : {}),
    createdAt: ctx.now,
    updatedAt: ctx.now,
    seq: store.nextSeq(),
  };
  store.addBranch(branch);
  // Neon docs, Protected branches: "When you create a child branch from a protected branch, new passwords are generated"
  copyRolesAndDatabases(store, parent, branch, ctx.now, {
    asOf: parentTimestamp,
    newPasswords: parent.protected === true,
  });
  const endpoints = input.endpoints.map((ep) => newEndpoint(ctx, branch, project.regionId, ep));
  const specs: OperationSpec[] = [{ action: "create_branch", initial: "running", branchId: id }];
  for (const e of endpoints)
    specs.push({ action: "start_compute", initial: "scheduling", branchId: id, endpointId: e.id });
  const made = ops.create(project.id, ctx.now, specs);
  const setUp = made[0].endAt; // not ready while create_branch runs, and branchReadyDelayMs after it
  branch.readyAt = setUp === NEVER ? NEVER : setUp + ctx.state.behaviours.branchReadyDelayMs;
  endpoints.forEach((e, i) => {
    e.pendingOpId = made[i + 1].id;
    store.addEndpoint(e);
  });
  const body = {
    branch: renderBranch(branch, ctx.now, true),
    endpoints: endpoints.map((e) => renderEndpoint(e, ctx.state.behaviours.poolerFields)),
    operations: created(ctx, made),
    roles: store.rolesOf(branch.id).map((r) => renderRole(r)),
    databases: store.databasesOf(branch.id).map(renderDatabase),
    connection_uris: connectionUris(store, branch, endpoints),
  };
  return { status: 201, body };
}

/** `ttl_interval_seconds`: "the interval between the time `expires_at` was set and the expiration timestamp itself". */
const ttlOf = (expiresAt: number, now: number): number => Math.round((expiresAt - now) / 1000);

/**
 * The create's `connection_uris` (OpenAPI `ConnectionDetails`): one for the new compute (its read-write one, else the
 * first) when the branch has one role that can log in and one database; "When creating a branch from a parent with more
 * than one role or database, the response body does not include a connection URI". An empty list when none is made
 * (**guess**: the field is optional).
 */
function connectionUris(store: Store, branch: Branch, endpoints: EndpointRecord[]): Record<string, unknown>[] {
  const roles = store.rolesOf(branch.id);
  const dbs = store.databasesOf(branch.id);
  const e = endpoints.find((x) => x.type === "read_write") ?? endpoints[0];
  if (!e || roles.length !== 1 || dbs.length !== 1 || roles[0].password === undefined) return [];
  const [role, db] = [roles[0], dbs[0]];
  return [
    {
      connection_uri: connectionUri(role.name, role.password as string, hostOf(e), db.name),
      connection_parameters: {
        database: db.name,
        password: role.password,
        role: role.name,
        host: hostOf(e),
        pooler_host: poolerHostOf(e),
      },
    },
  ];
}

/** GET one: `{branch, annotation}` (OpenAPI `getProjectBranch`: `BranchResponse` + `AnnotationResponse`). */
function get(ctx: RequestContext): Reply {
  const { branch } = settledBranch(ctx);
  return { status: 200, body: { branch: renderBranch(branch, ctx.now), annotation: renderAnnotation(branch) } };
}

/**
 * PATCH (OpenAPI `updateProjectBranch`, `BranchUpdateRequest`): `name`, `protected`, `expires_at` (null removes it).
 * Answers `{branch, operations: []}`, as the document's example. Expiration rules, Neon docs, Branch expiration,
 * "Restrictions": not on the default branch, not on a protected branch nor protecting an expiring one, not on a branch
 * with children. A request that contradicts itself answers 400, one that the branch's state refuses 422 (both statuses a
 * **guess**).
 */
function update(ctx: RequestContext): Reply {
  const { store } = ctx.state;
  const { project, branch } = settledBranch(ctx);
  const input = parseBranchUpdate(ctx.body, ctx.now);
  if (input.name !== undefined) assertNameFree(store, project.id, input.name, branch.id);
  const expiring = input.expiresAt === undefined ? branch.expiresAt !== undefined : input.expiresAt !== null;
  const protecting = input.protected ?? branch.protected === true;
  if (typeof input.expiresAt === "number") {
    if (input.protected === true)
      throw badRequest("branch.expires_at: a protected branch cannot expire; send one of them");
    refuseExpiry(store, branch, protecting);
  } else if (input.protected === true && expiring) {
    throw unprocessable(
      `branch ${branch.name} (${branch.id}) expires: an expiring branch cannot be protected; send expires_at null with it`,
    );
  }
  assertNotBusy(ctx, project.id);
  if (input.name !== undefined) branch.name = input.name;
  if (input.protected !== undefined) {
    if (input.protected) branch.protected = true;
    else delete branch.protected;
  }
  if (input.expiresAt === null) {
    delete branch.expiresAt;
    delete branch.ttlSeconds; // GUESS: a removed expiration leaves no TTL behind
  } else if (input.expiresAt !== undefined) {
    branch.expiresAt = input.expiresAt;
    branch.ttlSeconds = ttlOf(input.expiresAt, ctx.now);
  }
  branch.updatedAt = ctx.now;
  store.dirty = true;
  return { status: 200, body: { branch: renderBranch(branch, ctx.now), operations: [] } };
}

/** 422 when the branch may not expire (Neon docs, Branch expiration, "Restrictions"). */
function refuseExpiry(store: Store, branch: Branch, protecting: boolean): void {
  const which = `branch ${branch.name} (${branch.id})`;
  if (branch.isDefault) throw unprocessable(`${which} is the project's default branch: a default branch cannot expire`);
  if (protecting) throw unprocessable(`${which} is protected: a protected branch cannot expire; unprotect it first`);
  const children = childrenOf(store, branch);
  if (children.length) {
    throw unprocessable(
      `${which} has child branches (${children.map((c) => c.name).join(", ")}): a parent branch cannot expire`,
    );
  }
}

/**
 * DELETE (OpenAPI `deleteProjectBranch`): 204 when the project has no such branch ("Returned if the branch doesn't
 * exist or has already been deleted"); refused for the default or root branch and for a branch with children ("You
 * cannot delete a project's root or default branch, or a branch that has a child branch"), and for a protected branch
 * (Neon docs, Protected branches: "Protected branches cannot be deleted"). Status 422 for the refusals: **guess**. Else
 * `{branch, operations}`, the branch removed with its computes, roles and databases (Lifecycle.branchDeleted).
 */
function remove(ctx: RequestContext): Reply {
  const { store, lifecycle } = ctx.state;
  const project = settledProject(ctx);
  const branch = store.branches.get(ctx.params.branch_id);
  if (branch?.projectId !== project.id) return { status: 204, body: undefined };
  const which = `branch ${branch.name} (${branch.id})`;
  if (branch.isDefault) throw unprocessable(`${which} is the project's default branch: it cannot be deleted`);
  if (!branch.parentId && branch.initSource !== "schema-only") {
    throw unprocessable(`${which} is the project's root branch: it cannot be deleted`);
  }
  if (branch.protected)
    throw unprocessable(`${which} is protected: a protected branch cannot be deleted; unprotect it first`);
  const children = childrenOf(store, branch);
  if (children.length) {
    throw unprocessable(
      `${which} has child branches (${children.map((c) => c.name).join(", ")}): delete them first; a branch with children cannot be deleted`,
    );
  }
  assertNotBusy(ctx, project.id);
  const shown = renderBranch(branch, ctx.now);
  const ops = lifecycle.branchDeleted(branch, ctx.now);
  return { status: 200, body: { branch: shown, operations: created(ctx, ops) } };
}

/**
 * POST …/restore (OpenAPI `restoreProjectBranch`, `BranchRestoreRequest`) → 200 `{branch, operations}`. The branch
 * takes its source's roles and databases (at `source_timestamp` when given; an LSN cannot be placed in time here, so
 * with `source_lsn` the source's present ones: **guess**), keeps its id, name and computes (Neon docs, Branch restore:
 * "your connection details do not change"), and its running computes restart (Lifecycle.restored).
 * - `source_branch_id` equal to the branch needs `source_lsn` or `source_timestamp`, and `preserve_under_name`; a branch
 *   with children needs `preserve_under_name` (the document; 400 naming the field, status a **guess**).
 * - `preserve_under_name` keeps the old state as a new branch of that name, which "becomes the parent of your original
 *   branch", and the children move to it (docs, Branch restore; the document).
 * - A reset from the parent (its head) is refused on a protected branch (docs, Protected branches: "cannot be reset";
 *   422 a **guess**), and sets `expires_at` to now plus the branch's TTL (docs, Branch expiration).
 */
function restore(ctx: RequestContext): Reply {
  const { store, lifecycle } = ctx.state;
  const { project, branch } = settledBranch(ctx);
  const input = parseBranchRestore(ctx.body);
  const source = store.branch(project.id, input.sourceBranchId);
  const toSelf = source.id === branch.id;
  const atHead = input.sourceLsn === undefined && input.sourceTimestampRaw === undefined;
  if (toSelf && atHead) {
    throw badRequest("source_lsn or source_timestamp is required when source_branch_id is the branch itself");
  }
  if (toSelf && !input.preserveUnderName) {
    throw badRequest(
      "preserve_under_name is required when source_branch_id is the branch itself (it keeps the present state)",
    );
  }
  const children = childrenOf(store, branch);
  if (children.length && !input.preserveUnderName) {
    throw badRequest(
      `preserve_under_name is required: branch ${branch.name} has child branches (${children.map((c) => c.name).join(", ")}), ` +
        `which move to the preserved branch`,
    );
  }
  const fromParent = source.id === branch.parentId; // before a backup takes the parent's place
  const reset = fromParent && atHead;
  if (reset && branch.protected) {
    throw unprocessable(
      `branch ${branch.name} (${branch.id}) is protected: a protected branch cannot be reset from its parent`,
    );
  }
  const asOf =
    input.sourceTimestampRaw === undefined
      ? undefined
      : pointInTime("source_timestamp", input.sourceTimestampRaw, ctx.now, source);
  if (input.preserveUnderName !== undefined) assertNameFree(store, project.id, input.preserveUnderName);
  assertNotBusy(ctx, project.id);
  const contents = contentsOf(store, source, asOf); // read first: a restore to its own history reads what it replaces
  if (input.preserveUnderName !== undefined) preserve(ctx, branch, input.preserveUnderName, children);
  clearRolesAndDatabases(store, branch);
  putContents(store, contents, branch, ctx.now);
  if (input.preserveUnderName !== undefined || fromParent) {
    // the branching point on its (new) parent: the backup's own history, or the parent's (**guess** for another source)
    const onParent = input.preserveUnderName !== undefined ? toSelf : fromParent;
    branch.parentLsn = (onParent ? input.sourceLsn : undefined) ?? syntheticLsn(store.nextSeq());
    if (onParent && asOf !== undefined) branch.parentTimestamp = asOf;
    else delete branch.parentTimestamp;
  }
  if (reset && branch.ttlSeconds !== undefined) branch.expiresAt = ctx.now + branch.ttlSeconds * 1000;
  const { ops, timelineEnd } = lifecycle.restored(branch, ctx.now);
  branch.lastResetAt = ctx.now;
  branch.resettingUntil = timelineEnd;
  branch.updatedAt = ctx.now;
  store.dirty = true;
  return { status: 200, body: { branch: renderBranch(branch, ctx.now), operations: created(ctx, ops) } };
}

/**
 * The backup of a restore: a new branch named `name` holding the branch's present roles and databases, in the branch's
 * place in the tree; the branch and its children become its children.
 */
function preserve(ctx: RequestContext, branch: Branch, name: string, children: Branch[]): void {
  const { store } = ctx.state;
  const backup: Branch = {
    id: newBranchId(),
    projectId: branch.projectId,
    name,
    ...(branch.parentId ? { parentId: branch.parentId, parentLsn: branch.parentLsn } : {}),
    ...(branch.parentTimestamp !== undefined ? { parentTimestamp: branch.parentTimestamp } : {}),
    ...(branch.initSource ? { initSource: branch.initSource } : {}),
    isDefault: false,
    createdAt: ctx.now,
    updatedAt: ctx.now,
    seq: store.nextSeq(),
  };
  store.addBranch(backup);
  copyRolesAndDatabases(store, branch, backup, ctx.now);
  for (const c of children) {
    c.parentId = backup.id;
    c.updatedAt = ctx.now;
  }
  branch.parentId = backup.id;
  delete branch.initSource; // GUESS: now a child of its backup, a schema-only branch becomes an ordinary child
}

/** Branches: list, create, get, update, delete, restore. */
export const branchRoutes: Route[] = [
  { method: "GET", pattern: "/projects/:project_id/branches", handler: branchList },
  { method: "POST", pattern: "/projects/:project_id/branches", handler: create },
  { method: "GET", pattern: "/projects/:project_id/branches/:branch_id", handler: get },
  { method: "PATCH", pattern: "/projects/:project_id/branches/:branch_id", handler: update },
  { method: "DELETE", pattern: "/projects/:project_id/branches/:branch_id", handler: remove },
  { method: "POST", pattern: "/projects/:project_id/branches/:branch_id/restore", handler: restore },
];
