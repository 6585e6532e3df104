import { regionHosts } from "./ids";
import type { Account, Branch, DatabaseRecord, EndpointRecord, KeyRecord, RoleRecord } from "./types";

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
    host: hostOf(e),
    id: e.id,
    project_id: e.projectId,
    branch_id: e.branchId,
    autoscaling_limit_min_cu: c.autoscaling_limit_min_cu,
    autoscaling_limit_max_cu: c.autoscaling_limit_max_cu,
    region_id: e.regionId,
    type: e.type,
    current_state: e.currentState,
    settings: settingsOf(c),
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

/** A compute's `settings` (OpenAPI, EndpointSettingsData): pg_settings always, preload_libraries once set (copies). */
function settingsOf(c: EndpointRecord["config"]): Record<string, unknown> {
  const out: Record<string, unknown> = { pg_settings: { ...c.settings.pg_settings } };
  const preload = c.settings.preload_libraries;
  if (preload) out.preload_libraries = JSON.parse(JSON.stringify(preload)) as unknown;
  return out;
}

/** A compute's host: `<id>.<region>.<platform>.neon.tech`. */
export function hostOf(e: EndpointRecord): string {
  return `${e.id}.${regionHosts(e.regionId).proxyHost}`;
}

/** Its pooled host: "the pooled host inserts `-pooler` after the compute id" (api.md "Ids"). */
export function poolerHostOf(e: EndpointRecord): string {
  return `${e.id}-pooler.${regionHosts(e.regionId).proxyHost}`;
}

/**
 * A Postgres connection URI (Neon docs, Connect: `postgresql://alex:AbC123dEf@ep-cool-darkness-a1b2c3d4.us-east-2.aws.neon.tech/dbname?sslmode=require&channel_binding=require`),
 * each part percent-encoded.
 */
export function connectionUri(role: string, password: string, host: string, database: string): string {
  const enc = encodeURIComponent;
  return `postgresql://${enc(role)}:${enc(password)}@${host}/${enc(database)}?sslmode=require&channel_binding=require`;
}

/**
 * The `connection_uris` of a create (OpenAPI `ConnectionDetails`): the one connection it offers, or an empty list when it
 * offers none (**guess**: the field is optional in `CreatedBranch`).
 */
export function renderConnections(
  c: { role: RoleRecord; database: DatabaseRecord; endpoint: EndpointRecord } | undefined,
): Record<string, unknown>[] {
  if (!c || c.role.password === undefined) return [];
  const password = c.role.password;
  return [
    {
      connection_uri: connectionUri(c.role.name, password, hostOf(c.endpoint), c.database.name),
      connection_parameters: {
        database: c.database.name,
        password,
        role: c.role.name,
        host: hostOf(c.endpoint),
        pooler_host: poolerHostOf(c.endpoint),
      },
    },
  ];
}

/**
 * Its `current_state` (OpenAPI `BranchState`) at `now`, with `pending_state` while it moves and since when: `init`
 * while being created (Neon docs, Manage branches: a create answers `"current_state": "init", "pending_state":
 * "ready"`), `resetting` while a restore builds its new state, else `ready`.
 */
function branchState(b: Branch, now: number, asCreated: boolean): { current: string; pending?: string; since: number } {
  if (b.readyAt !== undefined && (asCreated || now < b.readyAt))
    return { current: "init", pending: "ready", since: b.createdAt };
  if (b.resettingUntil !== undefined && b.lastResetAt !== undefined && now < b.resettingUntil) {
    return { current: "resetting", pending: "ready", since: b.lastResetAt };
  }
  const since = Math.max(b.readyAt ?? b.createdAt, b.resettingUntil ?? 0);
  return { current: "ready", since: Math.min(since, now) };
}

/**
 * A branch per the OpenAPI `Branch` schema: every required field, and the optional ones the emulator knows. Usage
 * figures are 0 and `logical_size` 0 (the emulator holds no data); `creation_source` `console` as in the document's
 * examples. `asCreated`: as the create's response shows it, `init` (like its operations, shown as created).
 */
export function renderBranch(b: Branch, now: number, asCreated = false): Record<string, unknown> {
  const state = branchState(b, now, asCreated);
  const out: Record<string, unknown> = {
    id: b.id,
    project_id: b.projectId,
    ...(b.parentId ? { parent_id: b.parentId } : {}),
    ...(b.parentLsn ? { parent_lsn: b.parentLsn } : {}),
    ...(b.parentTimestamp !== undefined ? { parent_timestamp: iso(b.parentTimestamp) } : {}),
    name: b.name,
    current_state: state.current,
    ...(state.pending ? { pending_state: state.pending } : {}),
    state_changed_at: iso(state.since),
    logical_size: 0,
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
    init_source: b.initSource ?? "parent-data",
  };
  if (b.expiresAt !== undefined) out.expires_at = isoSeconds(b.expiresAt);
  if (b.ttlSeconds !== undefined) out.ttl_interval_seconds = b.ttlSeconds;
  if (b.lastResetAt !== undefined) out.last_reset_at = iso(b.lastResetAt);
  return out;
}

/** RFC 3339 to the second, as `expires_at` is stored ("only second precision is stored"). */
const isoSeconds = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");

/**
 * A branch's annotation (OpenAPI `AnnotationData`: `object` `{type: "console/branch", id}` and `value`, as the
 * document's examples show). A branch created without `annotation_value` has an empty `value` and no times
 * (**guess**: `getProjectBranch` requires `annotation`, and the document shows none without a value).
 */
export function renderAnnotation(b: Branch): Record<string, unknown> {
  const a = b.annotation;
  return {
    object: { type: "console/branch", id: b.id },
    value: { ...(a?.value ?? {}) },
    ...(a ? { created_at: iso(a.createdAt), updated_at: iso(a.updatedAt) } : {}),
  };
}

/**
 * A role (OpenAPI `Role`): `password` only where a response carries it (create, reset: the documented examples), never
 * in a list or a get (their examples carry none). `protected` false: no role the API creates is a system role.
 */
export function renderRole(r: RoleRecord, withPassword = false): Record<string, unknown> {
  return {
    branch_id: r.branchId,
    name: r.name,
    ...(withPassword && r.password !== undefined ? { password: r.password } : {}),
    protected: false,
    authentication_method: r.noLogin ? "no_login" : "password",
    created_at: iso(r.createdAt),
    updated_at: iso(r.updatedAt),
  };
}

/** A database (OpenAPI `Database`). */
export function renderDatabase(d: DatabaseRecord): Record<string, unknown> {
  return {
    id: d.id,
    branch_id: d.branchId,
    name: d.name,
    owner_name: d.ownerName,
    created_at: iso(d.createdAt),
    updated_at: iso(d.updatedAt),
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
