import { regionHosts } from "./ids";
import { BUILT_IN_DEFAULTS, DEFAULT_HISTORY_RETENTION } from "./project-input";
import type { Project } from "./types";

/**
 * A project's API shapes: `ProjectListItem` in the project list, `Project` (the list item and the details) where a route
 * answers `ProjectResponse` (get, create, update, delete). Usage figures are 0: the emulator holds no data.
 */

const iso = (ms: number): string => new Date(ms).toISOString();

/** `default_endpoint_settings` (OpenAPI `DefaultEndpointSettings`): the project's, else the create example's. */
function defaultsOf(p: Project): Record<string, unknown> {
  const d = p.defaultEndpointSettings ?? BUILT_IN_DEFAULTS;
  return {
    autoscaling_limit_min_cu: d.autoscaling_limit_min_cu,
    autoscaling_limit_max_cu: d.autoscaling_limit_max_cu,
    suspend_timeout_seconds: d.suspend_timeout_seconds,
    ...(d.pg_settings ? { pg_settings: { ...d.pg_settings } } : {}),
  };
}

/** A project as the project list shows it (`ProjectListItem`); `storePasswords` as domain/projects.ts decides it. */
export function renderProject(p: Project, storePasswords = true): Record<string, unknown> {
  const { platform, proxyHost } = regionHosts(p.regionId);
  return {
    id: p.id,
    platform_id: platform,
    region_id: p.regionId,
    name: p.name,
    provisioner: p.provisioner ?? "k8s-neonvm",
    default_endpoint_settings: defaultsOf(p),
    pg_version: p.pgVersion,
    proxy_host: proxyHost,
    branch_logical_size_limit: 512,
    branch_logical_size_limit_bytes: 536870912,
    store_passwords: storePasswords,
    active_time: 0,
    cpu_used_sec: 0,
    locked: false,
    creation_source: "console",
    created_at: iso(p.createdAt),
    updated_at: iso(p.updatedAt),
    owner_id: p.accountId,
    ...(p.orgId ? { org_id: p.orgId } : {}),
  };
}

/**
 * `settings` (OpenAPI `ProjectSettingsData`): what the project set over what Neon shows for a new project (Neon docs,
 * Manage projects, the create example: an empty allowlist, logical replication off, a maintenance window, no blocks, no
 * HIPAA; the window's day and hours: that example's, **guess**).
 */
function settingsOf(p: Project): Record<string, unknown> {
  const { allowed_ips: allowed, ...set } = p.settings ?? {};
  return {
    enable_logical_replication: false,
    maintenance_window: { weekdays: [5], start_time: "07:00", end_time: "08:00" },
    block_public_connections: false,
    block_vpc_connections: false,
    hipaa: false,
    ...set,
    allowed_ips: { ips: [], protected_branches_only: false, ...allowed },
  };
}

/** The billing period `now` falls in: its calendar month, UTC (**guess**; the service's period is the account's). */
function periodOf(now: number): { start: string; end: string } {
  const d = new Date(now);
  return {
    start: iso(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1)),
    end: iso(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 1)),
  };
}

/** A project as `ProjectResponse` shows it (OpenAPI `Project`): every required field, usage 0. */
export function renderProjectDetail(p: Project, storePasswords: boolean, now: number): Record<string, unknown> {
  const period = periodOf(now);
  return {
    ...renderProject(p, storePasswords),
    settings: settingsOf(p),
    history_retention_seconds: p.historyRetentionSeconds ?? DEFAULT_HISTORY_RETENTION,
    data_storage_bytes_hour: 0,
    data_transfer_bytes: 0,
    written_data_bytes: 0,
    compute_time_seconds: 0,
    active_time_seconds: 0,
    synthetic_storage_size: 0,
    consumption_period_start: period.start,
    consumption_period_end: period.end,
  };
}
