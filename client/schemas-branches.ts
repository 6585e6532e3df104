/**
 * zod schemas of branches and connection URIs, from the official full OpenAPI document
 * (shared/reference/neon-openapi.yaml: components `Branch`, `BranchCreateRequest`, `BranchUpdateRequest`,
 * `BranchRestoreRequest`, `AnnotationData`, `ConnectionURIResponse`, and the `*Operations` envelopes). A branch's
 * roles and databases: schemas-roles-databases.ts; a project's create, details and update: schemas-projects.ts.
 *
 * As in schemas.ts, objects strip unknown keys (what the service adds later is tolerated) and open-ended strings
 * (states, sources, methods) are plain strings. Required is what the document marks required, except deprecated
 * fields (`Branch.cpu_used_sec`), optional by schemas.ts's rule: a field the service drops cannot break every call.
 *
 * Passwords: `Role.password`, `RolePasswordResponse.password` and every connection URI carry one. They are returned
 * to the caller and nowhere else: the transport logs no bodies, a shape error names fields and never values, and
 * `redact` (errors.ts) removes `"password": "…"` and `postgres://role:…@` from every message and log line.
 */
import { z } from "zod";
import { ComputeUnit, Endpoint, EndpointSettings, EndpointType, Operation, SuspendTimeoutSeconds } from "./schemas";
import { Database, Role } from "./schemas-roles-databases";

const timestamp = z.string();
const objectId = z.string().regex(/^[a-z0-9-]{1,60}$/);
/** The usage counters (`format: int64`). */
const counter = z.number().int();
const operations = z.array(Operation);

// ---- annotations (AnnotationValueData, AnnotationData) --------------------------------------------------------

/** Annotation properties: string values, at most 50 (the document's `maxProperties`). */
export const AnnotationValue = z
  .record(z.string(), z.string())
  .refine((value) => Object.keys(value).length <= 50, "at most 50 annotation properties");
export type AnnotationValue = z.infer<typeof AnnotationValue>;

export const Annotation = z.object({
  object: z.object({ type: z.string(), id: z.string() }),
  value: z.record(z.string(), z.string()),
  created_at: timestamp.optional(),
  updated_at: timestamp.optional(),
});
export type Annotation = z.infer<typeof Annotation>;

// ---- branches -------------------------------------------------------------------------------------------------

/** A branch (`Branch`): what the document marks required is required here, but for deprecated `cpu_used_sec`. */
export const Branch = z.object({
  id: z.string(),
  project_id: z.string(),
  parent_id: z.string().optional(),
  parent_lsn: z.string().optional(),
  parent_timestamp: timestamp.optional(),
  name: z.string(),
  current_state: z.string(),
  pending_state: z.string().optional(),
  state_changed_at: timestamp,
  logical_size: counter.optional(),
  creation_source: z.string(),
  /** Deprecated: use `default`. */
  primary: z.boolean().optional(),
  default: z.boolean(),
  protected: z.boolean(),
  /** Deprecated (and required) in the document: optional here. */
  cpu_used_sec: counter.optional(),
  compute_time_seconds: counter,
  active_time_seconds: counter,
  written_data_bytes: counter,
  data_transfer_bytes: counter,
  created_at: timestamp,
  updated_at: timestamp,
  ttl_interval_seconds: z.number().int().optional(),
  expires_at: timestamp.optional(),
  last_reset_at: timestamp.optional(),
  created_by: z.object({ name: z.string().optional(), image: z.string().optional() }).optional(),
  init_source: z.string().optional(),
  restore_status: z.string().optional(),
  restored_from: z.string().optional(),
  restored_as: z.string().optional(),
  restricted_actions: z.array(z.object({ name: z.string(), reason: z.string() })).optional(),
  recovery: z.object({ deleted_at: timestamp, recoverable_until: timestamp, deletion_method: z.string() }).optional(),
});
export type Branch = z.infer<typeof Branch>;

/** GET /projects/{p}/branches: `BranchesResponse` and `CursorPaginationResponse` (`next`: the next page's cursor). */
export const BranchesResponse = z.object({
  branches: z.array(Branch),
  /** `AnnotationsMapResponse`: the annotations of the page's branches, by branch id (a branch with none: absent). */
  annotations: z.record(z.string(), Annotation).optional(),
  pagination: z.object({ next: z.string().optional() }).optional(),
});

/**
 * GET /projects/{p}/branches/{b}: `BranchResponse` and `AnnotationResponse`. The document marks `annotation`
 * required; a branch nobody annotated has none to show, so it is optional here.
 */
export const BranchWithAnnotation = z.object({ branch: Branch, annotation: Annotation.optional() });
export type BranchWithAnnotation = z.infer<typeof BranchWithAnnotation>;

/** The inner `branch` object of a create (`BranchCreateRequest.branch`). */
export const BranchCreateFields = z.object({
  /** Default: the project's default branch. */
  parent_id: objectId.optional(),
  name: z.string().min(1).max(256).optional(),
  /** An LSN on the parent: the branch gets the parent's data as of it. */
  parent_lsn: z.string().optional(),
  /** A point in time on the parent (ISO 8601, `2024-02-26T12:00:00Z`). */
  parent_timestamp: timestamp.optional(),
  protected: z.boolean().optional(),
  archived: z.boolean().optional(),
  /** `schema-only`: a new root branch with the parent's schema only; `parent-data` (default): schema and data. */
  init_source: z.enum(["schema-only", "parent-data"]).optional(),
  /** RFC 3339 with at most seconds (`2025-06-09T18:02:16Z`): the branch is deleted then. */
  expires_at: timestamp.optional(),
});

/** A compute created with the branch (`BranchCreateRequestEndpointOptions`). */
export const BranchEndpointOptions = z.object({
  type: EndpointType,
  settings: EndpointSettings.optional(),
  autoscaling_limit_min_cu: ComputeUnit.optional(),
  autoscaling_limit_max_cu: ComputeUnit.optional(),
  provisioner: z.string().optional(),
  suspend_timeout_seconds: SuspendTimeoutSeconds.optional(),
});

/** POST /projects/{p}/branches: `BranchCreateRequest` with `AnnotationCreateValueRequest`'s `annotation_value`. */
export const BranchCreateRequest = z.object({
  branch: BranchCreateFields.optional(),
  endpoints: z.array(BranchEndpointOptions).optional(),
  annotation_value: AnnotationValue.optional(),
});
export type BranchCreateRequest = z.infer<typeof BranchCreateRequest>;

/** `connection_uris` of a create: the URI and its parts, password included (a secret). */
export const ConnectionDetails = z.object({
  connection_uri: z.string(),
  connection_parameters: z.object({
    database: z.string(),
    password: z.string(),
    role: z.string(),
    host: z.string(),
    pooler_host: z.string(),
  }),
});
export type ConnectionDetails = z.infer<typeof ConnectionDetails>;

// ---- branch responses and the other branch requests -----------------------------------------------------------

/**
 * 201 of a create (`CreatedBranch`): the branch, its computes, operations, roles, databases and, when the parent has
 * one role and one database, connection URIs. The lists default to empty: a write whose response fails the schema
 * is `ambiguous`, so only what the client acts on (the branch, the operations' records) may fail it.
 */
export const BranchCreated = z.object({
  branch: Branch,
  endpoints: z.array(Endpoint).optional().default([]),
  operations: operations.optional().default([]),
  roles: z.array(Role).optional().default([]),
  databases: z.array(Database).optional().default([]),
  connection_uris: z.array(ConnectionDetails).optional(),
});
export type BranchCreated = z.infer<typeof BranchCreated>;

/** The inner `branch` object of a PATCH: `expires_at: null` removes the expiration. */
export const BranchUpdate = z.object({
  name: z.string().min(1).max(256).optional(),
  protected: z.boolean().optional(),
  expires_at: timestamp.nullable().optional(),
});
export type BranchUpdate = z.infer<typeof BranchUpdate>;
export const BranchUpdateRequest = z.object({ branch: BranchUpdate });
export type BranchUpdateRequest = z.infer<typeof BranchUpdateRequest>;

/**
 * POST .../restore. Without `source_lsn` and `source_timestamp` the branch is restored to the source's head; when the
 * source is the branch itself one of them is required, and so is `preserve_under_name` (the name the previous state
 * is kept under) when the branch has children or restores from itself.
 */
export const BranchRestoreRequest = z.object({
  source_branch_id: objectId,
  source_lsn: z.string().optional(),
  source_timestamp: timestamp.optional(),
  preserve_under_name: z.string().optional(),
});
export type BranchRestoreRequest = z.infer<typeof BranchRestoreRequest>;

/** PATCH, DELETE and restore answer `BranchOperations`. */
export const BranchOperations = z.object({ branch: Branch, operations });
export type BranchOperations = z.infer<typeof BranchOperations>;

// ---- connection URI -------------------------------------------------------------------------------------------

/** GET /projects/{p}/connection_uri: `{uri}`, a `postgresql://role:password@host/db` URI (a secret). */
export const ConnectionURIResponse = z.object({ uri: z.string() });
