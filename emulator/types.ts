/**
 * The emulator's records. Times are service-clock epoch milliseconds; the API renders them as ISO 8601.
 * Config fields of a compute keep the API's names so that validation, PATCH merging and rendering agree.
 */

/** Billing plan of an account: Free limits sizes and fixes the autosuspend delay (see plans.ts). */
export type Plan = "free" | "paid";

export interface Account {
  id: string; // the user's uuid, shown as created_by of its keys
  name: string;
  plan?: Plan; // absent: a paid plan
}

/** A member's role in an organization: admins may create organization-wide keys (docs, Manage API keys). */
export type OrgRole = "admin" | "member";

/** An organization: its projects carry its id (`Project.orgId`); its members are accounts. */
export interface Organization {
  id: string; // org-<words>-<digits>, matching ^[a-z0-9-]{1,60}$ (OpenAPI)
  name: string;
  members: Record<string, OrgRole>; // account id → role
  createdAt: number;
}

export interface KeyRecord {
  id: number;
  accountId: string; // the owner of a personal key; the member who created an organization key (its created_by)
  name: string;
  orgId?: string; // an organization key (not tied to a user); absent: a personal key
  projectId?: string; // with orgId: a project-scoped key, usable only on this project
  hash: string; // sha256 hex of the secret; the secret itself is never stored
  createdAt: number;
  lastUsedAt: number | null;
  lastUsedFromAddr: string;
  revoked: boolean;
}

export interface Project {
  id: string;
  accountId: string;
  name: string;
  regionId: string;
  pgVersion: number;
  orgId?: string;
  createdAt: number;
  updatedAt: number;
  seq: number;
  /** What a create or an update set (absent in fixtures and older state files: the defaults, render-project.ts). */
  provisioner?: string;
  historyRetentionSeconds?: number;
  defaultEndpointSettings?: DefaultEndpointSettings;
  settings?: ProjectSettings;
  storePasswords?: boolean; // false: reveal_password answers 412 for its roles (OpenAPI `Project.store_passwords`)
}

/**
 * The defaults of the project's new computes (OpenAPI `DefaultEndpointSettings`): Neon docs, Manage projects ("The
 * settings you specify become the default settings for computes that you add to your project"). Existing computes keep
 * their own (kislerdm/terraform-provider-neon#234).
 */
export interface DefaultEndpointSettings {
  autoscaling_limit_min_cu: number;
  autoscaling_limit_max_cu: number;
  suspend_timeout_seconds: number;
  pg_settings?: Record<string, string>;
}

/**
 * A project's `settings` (OpenAPI `ProjectSettingsData`), kept as validated and echoed; of them only
 * `enable_logical_replication` changes what the emulator does (domain/projects.ts).
 */
export interface ProjectSettings {
  quota?: Record<string, number>;
  allowed_ips?: { ips?: string[]; protected_branches_only?: boolean };
  enable_logical_replication?: boolean;
  maintenance_window?: { weekdays: number[]; start_time: string; end_time: string };
  block_public_connections?: boolean;
  block_vpc_connections?: boolean;
  audit_log_level?: string;
  hipaa?: boolean;
  preload_libraries?: PreloadLibraries;
}

export interface Branch {
  id: string;
  projectId: string;
  name: string;
  parentId?: string;
  isDefault: boolean;
  protected?: boolean; // neither it nor its computes can be deleted; it cannot be reset or expire
  readyAt?: number; // created through the API: `init`, and compute creates answer 422, until then
  createdAt: number;
  updatedAt: number;
  seq: number;
  parentLsn?: string; // the branching point on the parent (a synthetic LSN unless the request named one)
  parentTimestamp?: number; // the point in time on the parent, when the create or restore named one
  initSource?: InitSource; // absent: parent-data
  expiresAt?: number; // deleted when the clock passes it (Lifecycle.settleProject)
  ttlSeconds?: number; // expires_at − the time it was set (`ttl_interval_seconds`)
  annotation?: Annotation; // `annotation_value` of the create
  lastResetAt?: number; // the last restore
  resettingUntil?: number; // `resetting` until the restore's create_timeline operation ends
}

/** `init_source` of a branch (OpenAPI `BranchCreateRequest`): with the parent's data, or only its schema. */
export type InitSource = "parent-data" | "schema-only";

/** A branch's annotation (OpenAPI `AnnotationData`): a map of strings, with its times. */
export interface Annotation {
  value: Record<string, string>;
  createdAt: number;
  updatedAt: number;
}

/**
 * A Postgres role of a branch (OpenAPI `Role`). `password` is absent for a role that cannot log in (`no_login`); it is
 * kept in memory and, with a state file, in its `.passwords` companion, never in the state file itself.
 */
export interface RoleRecord {
  projectId: string;
  branchId: string;
  name: string;
  noLogin?: boolean;
  password?: string;
  /** The password before the last reset, and that reset's operations (behaviour `revealAfterReset: "old"`). */
  reset?: { oldPassword: string; operationIds: string[] };
  createdAt: number;
  updatedAt: number;
  seq: number;
}

/** A database of a branch (OpenAPI `Database`): an integer id, its name and its owner role's name. */
export interface DatabaseRecord {
  id: number;
  projectId: string;
  branchId: string;
  name: string;
  ownerName: string;
  createdAt: number;
  updatedAt: number;
  seq: number;
}

export type EndpointType = "read_write" | "read_only";
export type ComputeState = "init" | "active" | "idle";

/** OpenAPI, PreloadLibraries (EndpointSettingsData.preload_libraries): both fields optional. */
export interface PreloadLibraries {
  use_defaults?: boolean;
  enabled_libraries?: string[];
}

export interface EndpointConfig {
  autoscaling_limit_min_cu: number;
  autoscaling_limit_max_cu: number;
  suspend_timeout_seconds: number;
  provisioner: string;
  pooler_enabled: boolean;
  pooler_mode: string;
  disabled: boolean;
  passwordless_access: boolean;
  settings: { pg_settings: Record<string, string>; preload_libraries?: PreloadLibraries };
  name?: string;
}

export interface EndpointRecord {
  id: string;
  projectId: string;
  branchId: string;
  regionId: string;
  type: EndpointType;
  config: EndpointConfig;
  creationSource: string;
  createdAt: number;
  updatedAt: number;
  currentState: ComputeState;
  pendingState?: ComputeState;
  pendingOpId?: string; // the operation whose end settles pendingState
  lastActiveAt?: number;
  startedAt?: number;
  suspendedAt?: number;
  seq: number;
}

export type OperationStatus = "scheduling" | "running" | "finished" | "failed" | "error" | "cancelled" | "skipped";

/** How an operation ends (api.md, "Operation statuses"): `finished`/`skipped` done; the others failures. */
export type OperationOutcome = "finished" | "skipped" | "failed" | "error" | "cancelled";

export interface OperationRecord {
  id: string;
  seq: number;
  projectId: string;
  branchId?: string;
  endpointId?: string;
  action: string;
  initialStatus: "scheduling" | "running";
  createdAt: number;
  runAt: number; // scheduling until then
  endAt: number; // running (or failing and being retried) until then; NEVER when stuck
  error?: string; // the error its failures report; alone (no outcome), the operation ends `failed`
  outcome?: OperationOutcome; // how it ends; absent: `finished` (or `failed` when `error` is set)
  retries?: number; // failed attempts the service retries before the outcome (each `failed` with a retry_at)
  attemptMs?: number; // service ms of one attempt and of the wait before its retry (set with retries)
}

/** An end time that never comes (a stuck operation), JSON-safe unlike Infinity. */
export const NEVER = Number.MAX_SAFE_INTEGER;
