import { regionHosts } from "./ids";
import type { Account, Branch, EndpointRecord, KeyRecord, Project } from "./types";

/** API shapes of the records (openapi-subset.yaml), built in one place so every route answers the same shape. */

const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * A compute as the API shows it: every required field of the `Endpoint` schema, optional ones when known.
 * `pooler` false: without the deprecated `pooler_enabled` / `pooler_mode` (api.md: removal scheduled for 2026-06-20,
 * "A response may lack them").
 */
export function renderEndpoint(e: EndpointRecord, pooler = false): Record<string, unknown> {
  const { proxyHost } = regionHosts(e.regionId);
  const c = e.config;
  const out: Record<string, unknown> = {
    host: `${e.id}.${proxyHost}`,
    id: e.id,
    project_id: e.projectId,
    branch_id: e.branchId,
    autoscaling_limit_min_cu: c.autoscaling_limit_min_cu,
    autoscaling_limit_max_cu: c.autoscaling_limit_max_cu,
    region_id: e.regionId,
    type: e.type,
    current_state: e.currentState,
    settings: { pg_settings: { ...c.settings.pg_settings } },
    ...(pooler ? { pooler_enabled: c.pooler_enabled, pooler_mode: c.pooler_mode } : {}),
    disabled: c.disabled,
    passwordless_access: c.passwordless_access,
    creation_source: e.creationSource,
    created_at: iso(e.createdAt),
    updated_at: iso(e.updatedAt),
    proxy_host: proxyHost,
    suspend_timeout_seconds: c.suspend_timeout_seconds,
    provisioner: c.provisioner,
  };
  if (c.name !== undefined) out.name = c.name;
  if (e.pendingState !== undefined) out.pending_state = e.pendingState;
  if (e.lastActiveAt !== undefined) out.last_active = iso(e.lastActiveAt);
  if (e.startedAt !== undefined) out.started_at = iso(e.startedAt);
  if (e.suspendedAt !== undefined) out.suspended_at = iso(e.suspendedAt);
  return out;
}

/** A project as the project list shows it (`ProjectListItem`). */
export function renderProject(p: Project): Record<string, unknown> {
  const { platform, proxyHost } = regionHosts(p.regionId);
  return {
    id: p.id,
    platform_id: platform,
    region_id: p.regionId,
    name: p.name,
    provisioner: "k8s-neonvm",
    default_endpoint_settings: {
      autoscaling_limit_min_cu: 0.25,
      autoscaling_limit_max_cu: 0.25,
      suspend_timeout_seconds: 0,
    },
    pg_version: p.pgVersion,
    proxy_host: proxyHost,
    branch_logical_size_limit: 512,
    branch_logical_size_limit_bytes: 536870912,
    store_passwords: true,
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

/** A branch like the real service's `Branch` (enough for clients that create and list branches). */
export function renderBranch(b: Branch): Record<string, unknown> {
  return {
    id: b.id,
    project_id: b.projectId,
    ...(b.parentId ? { parent_id: b.parentId } : {}),
    name: b.name,
    current_state: "ready",
    state_changed_at: iso(b.createdAt),
    creation_source: "console",
    primary: b.isDefault,
    default: b.isDefault,
    protected: b.protected === true,
    cpu_used_sec: 0,
    compute_time_seconds: 0,
    active_time_seconds: 0,
    written_data_bytes: 0,
    data_transfer_bytes: 0,
    created_at: iso(b.createdAt),
    updated_at: iso(b.updatedAt),
  };
}

/** The create response, the only one carrying the secret: `{id, key, name, created_at, created_by, project_id?}`. */
export function renderKeyCreated(k: KeyRecord, secret: string): Record<string, unknown> {
  const created = { id: k.id, key: secret, name: k.name, created_at: iso(k.createdAt) };
  return { ...created, created_by: k.accountId, ...scopeOf(k) };
}

/** A key as listed: never the secret; `last_used_at` null until first use; `project_id` when scoped. */
export function renderKeyListItem(k: KeyRecord, owner: Account): Record<string, unknown> {
  return {
    id: k.id,
    name: k.name,
    created_at: iso(k.createdAt),
    created_by: { id: owner.id, name: owner.name, image: "" },
    last_used_at: k.lastUsedAt === null ? null : iso(k.lastUsedAt),
    last_used_from_addr: k.lastUsedFromAddr,
    ...scopeOf(k),
  };
}

/** `project_id` of a project-scoped key (OpenAPI: OrgApiKeysListResponseItem, OrgApiKeyCreateResponse, …). */
export function scopeOf(k: KeyRecord): { project_id?: string } {
  return k.projectId === undefined ? {} : { project_id: k.projectId };
}

/** The revoke response: `{id, name, created_at, created_by, revoked, last_used_at, last_used_from_addr, project_id?}`. */
export function renderKeyRevoked(k: KeyRecord): Record<string, unknown> {
  return {
    id: k.id,
    name: k.name,
    created_at: iso(k.createdAt),
    created_by: k.accountId,
    revoked: k.revoked,
    last_used_at: k.lastUsedAt === null ? null : iso(k.lastUsedAt),
    last_used_from_addr: k.lastUsedFromAddr,
    ...scopeOf(k),
  };
}
