import { deleteRefusal } from "../access";
import { unprocessable } from "../errors";
import { defaultConfig } from "../fixture";
import { settleConfig } from "../plans";
import { BUILT_IN_DEFAULTS, type ProjectUpdateInput } from "../project-input";
import type { DefaultEndpointSettings, EndpointConfig, KeyRecord, OperationRecord, Plan, Project } from "../types";
import { takeLock, type Service } from "./service";

/**
 * The rules of a project's update and delete (OpenAPI `updateProject`, `deleteProject`), and what the other rules read of
 * a project: the defaults of its new computes, whether it stores passwords. The create is project-create.ts.
 */

/** The project's `default_endpoint_settings` (those of the create example when a fixture gave none). */
export const defaultsOf = (project: Project): DefaultEndpointSettings =>
  project.defaultEndpointSettings ?? BUILT_IN_DEFAULTS;

/**
 * The config a new compute of the project starts from, before its request's own fields: the project's default sizes,
 * autosuspend and Postgres settings, and its provisioner. Neon docs, Manage projects: "The settings you specify become the
 * default settings for computes that you add to your project when creating branches or read replicas".
 */
export function computeDefaults(project: Project): EndpointConfig {
  const d = defaultsOf(project);
  const base = defaultConfig();
  return {
    ...base,
    autoscaling_limit_min_cu: d.autoscaling_limit_min_cu,
    autoscaling_limit_max_cu: d.autoscaling_limit_max_cu,
    suspend_timeout_seconds: d.suspend_timeout_seconds,
    provisioner: project.provisioner ?? base.provisioner,
    settings: { pg_settings: { ...(d.pg_settings ?? {}) } },
  };
}

/**
 * Default settings as the account's plan allows and overrides them, as a compute's are (plans.ts): on the Free plan
 * sizes above 2 CU answer 400 naming the field, and the autosuspend delay is reset to 0 ("fixed"); above 16 CU it is -1.
 */
export function settledDefaults(plan: Plan | undefined, d: DefaultEndpointSettings): DefaultEndpointSettings {
  const config = { ...defaultConfig(), ...d, settings: { pg_settings: {} } };
  const settled = settleConfig(plan, config, "project.default_endpoint_settings");
  return { ...d, suspend_timeout_seconds: settled.suspend_timeout_seconds };
}

/**
 * `store_passwords` of the project (OpenAPI `Project.store_passwords`, set by the create), unless behaviour
 * `storePasswords` turns it off for every project.
 */
export const passwordsStored = (svc: Service, project: Project | undefined): boolean =>
  svc.behaviours.storePasswords && project?.storePasswords !== false;

/** A change and the operations it made. */
export interface ProjectChange {
  project: Project;
  operations: OperationRecord[];
}

/**
 * PATCH (OpenAPI `updateProject`, `ProjectUpdateRequest`): the name, `history_retention_seconds`,
 * `default_endpoint_settings` (settled for the plan), `settings` (each key the request names replaces the project's:
 * **guess**). The new defaults apply to computes made from now on; the existing computes keep their sizes and
 * autosuspend, as the service does (kislerdm/terraform-provider-neon#234: the project's default endpoint settings never
 * resized the existing primary). `enable_logical_replication`: "All active endpoints will be suspended. Once enabled,
 * logical replication cannot be disabled" (OpenAPI `ProjectSettingsData`): each running compute gets a
 * `suspend_compute` (running), and turning it off answers 422 (status: **guess**). Takes the lock, as a branch update
 * does, though it usually makes no operation (**guess**).
 */
export function updateProject(
  svc: Service,
  project: Project,
  input: ProjectUpdateInput,
  plan: Plan | undefined,
  now: number,
): ProjectChange {
  const enabled = project.settings?.enable_logical_replication === true;
  const asked = input.settings?.enable_logical_replication;
  if (enabled && asked === false) {
    throw unprocessable(
      `project ${project.id} has logical replication enabled: once enabled, logical replication cannot be disabled`,
    );
  }
  const defaults = input.defaults === undefined ? undefined : settledDefaults(plan, input.defaults);
  takeLock(svc, project.id, now);
  if (input.name !== undefined) project.name = input.name;
  if (input.historyRetentionSeconds !== undefined) project.historyRetentionSeconds = input.historyRetentionSeconds;
  if (defaults !== undefined) project.defaultEndpointSettings = defaults;
  if (input.settings !== undefined) project.settings = { ...project.settings, ...input.settings };
  project.updatedAt = now;
  svc.store.dirty = true;
  const operations = !enabled && asked === true ? suspendRunning(svc, project, now) : [];
  return { project, operations };
}

/** A `suspend_compute` (running) for each running compute of the project, which then goes idle. */
function suspendRunning(svc: Service, project: Project, now: number): OperationRecord[] {
  const running = svc.store
    .endpointsOf(project.id)
    .filter((e) => !e.config.disabled && (e.currentState === "active" || e.pendingState === "active"))
    .sort((a, b) => a.seq - b.seq);
  return running.flatMap((e) => svc.lifecycle.suspend(e, now));
}

/**
 * DELETE (OpenAPI `deleteProject`: "Deletes the specified project and all its endpoints, branches, databases, and
 * users"; Neon docs, Manage projects: "also deletes any computes, branches, databases, and roles"): refused to a key that
 * may not delete it (access.ts `deleteRefusal`), then the lock (423 while an operation of the project is unfinished:
 * **guess**), then the project goes with everything in it, its operations too, so every later request for it answers
 * 404. Its recovery within 7 days (`recoverProject`) is not modelled.
 */
export function deleteProject(svc: Service, key: KeyRecord, project: Project, now: number): Project {
  const refusal = deleteRefusal(svc.store, key, project);
  if (refusal) throw refusal;
  takeLock(svc, project.id, now);
  svc.store.removeProject(project.id);
  svc.ops.forget(project.id);
  svc.databasesBeingDeleted = svc.databasesBeingDeleted.filter((d) => svc.store.branches.has(d.branchId));
  return project;
}
