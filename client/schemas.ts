/**
 * zod schemas of every body the provider sends or receives (openapi-subset.yaml + api.md). Objects strip unknown
 * keys, so fields the service adds later are tolerated; a missing required field fails loudly, naming the field and
 * the route (see `parseResponse`), instead of surfacing later as `undefined` in a Pulumi diff.
 *
 * Open-ended strings (states, actions, statuses, provisioners) are plain strings: the service adds values, and an
 * unknown operation status must mean "keep waiting", not "crash".
 *
 * Required are only the fields the client and the provider act on (ids, names, sizes, states, timestamps they
 * compare); deprecated fields (`pooler_enabled` and `pooler_mode`, whose removal was scheduled for 2026-06-20, api.md)
 * and fields the provider only copies to outputs are optional, so a field the service drops cannot break every call.
 * A rule learned from it: a write whose response fails here may still have been applied, so it is `ambiguous`
 * (transport.ts), never a plain failure.
 *
 * API keys: schemas-api-keys.ts. From the full OpenAPI document: branches and connection URIs (schemas-branches.ts),
 * their roles and databases (schemas-roles-databases.ts), a project's create, details and update (schemas-projects.ts).
 */
import { z } from "zod";
import { NeonError } from "./errors";

const timestamp = z.string();

export const EndpointType = z.enum(["read_only", "read_write"]);
export type EndpointType = z.infer<typeof EndpointType>;

/** Operation statuses after which an operation will not change any more (api.md). */
export const DONE_STATUSES: readonly string[] = ["finished", "skipped"];
/** Operation statuses that mean the operation did not do its job. */
export const FAILED_STATUSES: readonly string[] = ["failed", "error", "cancelled"];

// ---- projects -------------------------------------------------------------------------------------------------

/** A project as listed. getProjects only copies the optional fields to its result (absent there when absent here). */
export const Project = z.object({
  id: z.string(),
  name: z.string(),
  platform_id: z.string().optional(),
  region_id: z.string(),
  provisioner: z.string().optional(),
  pg_version: z.number().int().optional(),
  proxy_host: z.string().optional(),
  active_time: z.number().optional(),
  cpu_used_sec: z.number().optional(),
  branch_logical_size_limit: z.number().optional(),
  branch_logical_size_limit_bytes: z.number().optional(),
  store_passwords: z.boolean().optional(),
  creation_source: z.string().optional(),
  owner_id: z.string().optional(),
  created_at: timestamp.optional(),
  updated_at: timestamp.optional(),
  org_id: z.string().optional(),
  locked: z.boolean().optional(),
});
export type Project = z.infer<typeof Project>;

export const Pagination = z.object({ cursor: z.string().optional() });

export const ProjectsPage = z.object({
  projects: z.array(Project),
  pagination: Pagination.optional(),
  applications: z.record(z.string(), z.array(z.string())).optional(),
  integrations: z.record(z.string(), z.array(z.string())).optional(),
});
export type ProjectsPage = z.infer<typeof ProjectsPage>;

// ---- operations -----------------------------------------------------------------------------------------------

export const Operation = z.object({
  id: z.string(),
  project_id: z.string().optional(),
  branch_id: z.string().optional(),
  endpoint_id: z.string().optional(),
  action: z.string(),
  status: z.string(),
  error: z.string().optional(),
  failures_count: z.number().int().optional(),
  /** Set on a `failed` operation the service will retry: when (later than `updated_at`); see operation-status.ts. */
  retry_at: timestamp.optional(),
  created_at: timestamp.optional(),
  updated_at: timestamp.optional(),
  total_duration_ms: z.number().optional(),
});
export type Operation = z.infer<typeof Operation>;

export const OperationResponse = z.object({ operation: Operation });
export const OperationsPage = z.object({ operations: z.array(Operation), pagination: Pagination.optional() });
export type OperationsPage = z.infer<typeof OperationsPage>;

// ---- endpoints (computes) -------------------------------------------------------------------------------------

export const ComputeUnit = z.number().min(0.25);
export const SuspendTimeoutSeconds = z.number().int().min(-1).max(604800);
const PgSettings = z.record(z.string(), z.string());

/** OpenAPI, PreloadLibraries: both fields optional (a null read as none). */
const PreloadLibraries = z.object({
  use_defaults: z.boolean().nullish(),
  enabled_libraries: z.array(z.string()).nullish(),
});

export const EndpointSettings = z.object({
  pg_settings: PgSettings.optional(),
  preload_libraries: PreloadLibraries.nullish(),
});

/**
 * A compute. Required: what the client and the provider act on: the ids, `host` (the pooled host is derived from it),
 * `branch_id` (a move is checked against it), the sizes and `suspend_timeout_seconds` (compared with the program's),
 * `current_state` (a restart only of a running compute), `type` (strict: a primary is replaced delete-first and found
 * on its branch by it) and `region_id` (a program's `regionId` is compared with it, and a difference replaces the
 * compute: were it missing, every `up` would plan a replacement). Everything the provider only copies to outputs is
 * optional; where the program declared such a value (`disabled`, `pgSettings`), the outputs keep the program's.
 */
export const Endpoint = z.object({
  id: z.string(),
  host: z.string(),
  project_id: z.string(),
  branch_id: z.string(),
  region_id: z.string(),
  autoscaling_limit_min_cu: z.number(),
  autoscaling_limit_max_cu: z.number(),
  type: EndpointType,
  current_state: z.string(),
  pending_state: z.string().optional(),
  settings: EndpointSettings.optional(),
  /** Deprecated; its removal was scheduled for 2026-06-20 (api.md): a response may lack it. */
  pooler_enabled: z.boolean().optional(),
  /** Deprecated, `x-sunset` 2026-06-20 (OpenAPI; api.md): a response may lack it. */
  pooler_mode: z.string().optional(),
  disabled: z.boolean().optional(),
  passwordless_access: z.boolean().optional(),
  creation_source: z.string().optional(),
  created_at: timestamp.optional(),
  updated_at: timestamp.optional(),
  /** Deprecated in the official spec ("use host"). */
  proxy_host: z.string().optional(),
  suspend_timeout_seconds: z.number().int(),
  provisioner: z.string().optional(),
  name: z.string().optional(),
  last_active: timestamp.optional(),
  started_at: timestamp.optional(),
  suspended_at: timestamp.optional(),
  compute_release_version: z.string().optional(),
});
export type Endpoint = z.infer<typeof Endpoint>;

const endpointSettableFields = {
  settings: EndpointSettings.optional(),
  autoscaling_limit_min_cu: ComputeUnit.optional(),
  autoscaling_limit_max_cu: ComputeUnit.optional(),
  provisioner: z.string().optional(),
  pooler_enabled: z.boolean().optional(),
  pooler_mode: z.enum(["transaction"]).optional(),
  disabled: z.boolean().optional(),
  passwordless_access: z.boolean().optional(),
  suspend_timeout_seconds: SuspendTimeoutSeconds.optional(),
  name: z.string().min(1).max(64).optional(),
};

/** The compute to create: the inner object of `{"endpoint": {...}}`. */
export const EndpointCreate = z.object({
  branch_id: z.string(),
  type: EndpointType,
  region_id: z.string().optional(),
  ...endpointSettableFields,
});
export type EndpointCreate = z.infer<typeof EndpointCreate>;
export const EndpointCreateRequest = z.object({ endpoint: EndpointCreate });
export type EndpointCreateRequest = z.infer<typeof EndpointCreateRequest>;

/** The fields to change: the inner object of `{"endpoint": {...}}`; `branch_id` moves the compute. */
export const EndpointUpdate = z.object({ branch_id: z.string().optional(), ...endpointSettableFields });
export type EndpointUpdate = z.infer<typeof EndpointUpdate>;
export const EndpointUpdateRequest = z.object({ endpoint: EndpointUpdate });
export type EndpointUpdateRequest = z.infer<typeof EndpointUpdateRequest>;

export const EndpointResponse = z.object({ endpoint: Endpoint });
export const EndpointsResponse = z.object({ endpoints: z.array(Endpoint) });
export const EndpointOperations = z.object({ endpoint: Endpoint, operations: z.array(Operation) });
export type EndpointOperations = z.infer<typeof EndpointOperations>;

// ---- errors ---------------------------------------------------------------------------------------------------

export const ErrorBody = z.object({
  code: z.string().optional(),
  message: z.string(),
  request_id: z.string().optional(),
});
export type ErrorBody = z.infer<typeof ErrorBody>;

// ---- validation -----------------------------------------------------------------------------------------------

/**
 * Validates a response body. Prevents a changed or broken response from travelling on as `undefined`: a mismatch
 * becomes NeonError kind `response_shape` naming the field and the route.
 */
export function parseResponse<T>(
  schema: z.ZodType<T>,
  body: unknown,
  where: { method: string; path: string; requestId?: string },
): T {
  const result = schema.safeParse(body);
  if (result.success) return result.data;
  const issues = result.error.issues.slice(0, 3).map(describeIssue);
  return shapeError(`response does not match the expected shape: ${issues.join("; ")}`, where);
}

function shapeError(message: string, where: { method: string; path: string; requestId?: string }): never {
  throw new NeonError({ kind: "response_shape", message, ...where });
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const field = issue.path.length > 0 ? issue.path.map(String).join(".") : "(body)";
  if (issue.code === "invalid_type" && /received undefined/.test(issue.message)) {
    return `missing required field \`${field}\``;
  }
  return `field \`${field}\`: ${issue.message}`;
}
