import { projectOwner } from "../access";
import { newDatabase, newRole } from "../branching";
import { newBranchId, newProjectId } from "../ids";
import type { ProjectCreateInput } from "../project-input";
import {
  NEVER,
  type Branch,
  type DatabaseRecord,
  type EndpointRecord,
  type KeyRecord,
  type OperationRecord,
  type Plan,
  type Project,
  type RoleRecord,
} from "../types";
import { newEndpoint } from "./branch-create";
import { computeDefaults, settledDefaults } from "./projects";
import type { Service } from "./service";

/** What a create made (OpenAPI `CreatedProject`): the project, its default branch, compute, role and database. */
export interface CreatedProject {
  project: Project;
  branch: Branch;
  endpoint: EndpointRecord;
  role: RoleRecord;
  database: DatabaseRecord;
  operations: OperationRecord[];
}

/**
 * POST /projects (OpenAPI `createProject`, `ProjectCreateRequest`, `CreatedProject`). The owner first (access.ts
 * `projectOwner`: the key's account, or the organization `org_id` names), then the default compute settings as the plan
 * allows (a Free account's sizes above 2 CU answer 400; plans.ts). What a new project holds (Neon docs, Manage projects,
 * "Default resources"; the create example): the default branch (`branch.name`, default `main`), one read-write compute
 * with the project's default settings, the role (`branch.role_name`, default `{database_name}_owner`) with a password
 * ("At least one non-protected role is created with a password") owning the database (`branch.database_name`, default
 * `neondb`). Its operations, as the create example of Manage projects shows them: `create_timeline` (running) on the
 * branch, then `start_compute` (scheduling) of the compute, which lock the new project (423) until they end; the branch
 * is `init` and the compute `init` with `pending_state: active` until then. The number of projects a plan allows is not
 * modelled.
 */
export function createProject(
  svc: Service,
  key: KeyRecord,
  input: ProjectCreateInput,
  plan: Plan | undefined,
  now: number,
): CreatedProject {
  const { store } = svc;
  const owner = projectOwner(store, key, input.orgId);
  const defaults = settledDefaults(plan, input.defaults);
  const id = newProjectId();
  const project: Project = {
    id,
    accountId: owner.accountId,
    name: input.name ?? id, // "If not specified, the name will be identical to the generated project ID"
    regionId: input.regionId,
    pgVersion: input.pgVersion,
    ...(owner.orgId ? { orgId: owner.orgId } : {}),
    createdAt: now,
    updatedAt: now,
    seq: store.nextSeq(),
    ...(input.provisioner ? { provisioner: input.provisioner } : {}),
    historyRetentionSeconds: input.historyRetentionSeconds,
    defaultEndpointSettings: defaults,
    settings: input.settings,
    storePasswords: input.storePasswords,
  };
  store.addProject(project);
  const branch = defaultBranch(svc, project, input.branch, now);
  const role = newRole(store, branch, input.branch.roleName, now);
  const database = newDatabase(store, branch, input.branch.databaseName, role.name, now);
  const endpoint = newEndpoint(
    store,
    branch,
    project.regionId,
    { type: "read_write", config: computeDefaults(project) },
    now,
  );
  const operations = svc.ops.create(id, now, [
    { action: "create_timeline", initial: "running", branchId: branch.id },
    { action: "start_compute", initial: "scheduling", branchId: branch.id, endpointId: endpoint.id },
  ]);
  // not ready while create_timeline runs (and branchReadyDelayMs after it), as a branch created through the API
  const setUp = operations[0].endAt;
  branch.readyAt = setUp === NEVER ? NEVER : setUp + svc.behaviours.branchReadyDelayMs;
  endpoint.pendingOpId = operations[1].id;
  store.addEndpoint(endpoint);
  return { project, branch, endpoint, role, database, operations };
}

/** The project's default (and root) branch. */
function defaultBranch(svc: Service, project: Project, spec: ProjectCreateInput["branch"], now: number): Branch {
  const branch: Branch = {
    id: newBranchId(),
    projectId: project.id,
    name: spec.name,
    isDefault: true,
    ...(spec.annotation ? { annotation: { value: spec.annotation, createdAt: now, updatedAt: now } } : {}),
    createdAt: now,
    updatedAt: now,
    seq: svc.store.nextSeq(),
  };
  svc.store.addBranch(branch);
  return branch;
}
