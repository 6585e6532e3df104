import type { PoolerRule } from "./behaviours";
import { badRequest } from "./errors";
import { defaultConfig } from "./fixture";
import { settleConfig } from "./plans";
import { expiresAt, lsn } from "./timestamps";
import type { EndpointConfig, EndpointType, InitSource, Plan } from "./types";
import { applySizes, branchId, configFields, requireObject } from "./validation";

/**
 * The bodies of the branch routes (OpenAPI `BranchCreateRequest` + `AnnotationCreateValueRequest`,
 * `BranchUpdateRequest`, `BranchRestoreRequest`), checked field by field: every failure is a 400 naming the field;
 * unknown fields are ignored, as the service does. Rules that need the world (a parent's creation, names taken) are
 * domain/'s (branch-create.ts, branches.ts, branch-restore.ts).
 */

type Obj = Record<string, unknown>;
const show = (v: unknown): string => String(JSON.stringify(v));

export interface BranchCreateInput {
  name?: string;
  parentId?: string;
  parentLsn?: string;
  parentTimestampRaw?: unknown; // checked against the parent by domain/branch-create.ts (timestamps.pointInTime)
  protected?: boolean;
  initSource: InitSource;
  expiresAt?: number;
  annotation?: Record<string, string>;
  endpoints: { type: EndpointType; config: EndpointConfig }[];
}

/** `branch.name` and `BranchUpdateRequest` `branch.name`: 1..256 characters (OpenAPI `minLength`/`maxLength`). */
export function branchName(field: string, v: unknown): string {
  if (typeof v !== "string" || v.length < 1 || v.length > 256)
    throw badRequest(`${field} must be a string of 1..256 characters`);
  return v;
}

function bool(field: string, v: unknown): boolean {
  if (typeof v !== "boolean") throw badRequest(`${field} must be a boolean (true or false), got ${show(v)}`);
  return v;
}

const INIT_SOURCES: InitSource[] = ["parent-data", "schema-only"];

/**
 * `annotation_value` (OpenAPI `AnnotationValueData`): an object of at most 50 properties, each a string.
 */
export function annotationValue(v: unknown, field = "annotation_value"): Record<string, string> {
  if (typeof v !== "object" || v === null || Array.isArray(v))
    throw badRequest(`${field} must be an object of strings`);
  const entries = Object.entries(v as Obj);
  if (entries.length > 50) throw badRequest(`${field} has ${entries.length} properties; at most 50 are allowed`);
  const out: Record<string, string> = {};
  for (const [k, val] of entries) {
    if (typeof val !== "string") throw badRequest(`${field}.${k} must be a string, got ${show(val)}`);
    out[k] = val;
  }
  return out;
}

/**
 * `{branch?: {name?, parent_id?, parent_lsn?, parent_timestamp?, protected?, init_source?, expires_at?},
 * endpoints?: [{type, sizes, suspend_timeout_seconds, ...}], annotation_value?}`; each compute's config from the
 * project's default settings (`defaults`) and its own fields, settled for the account's plan (plans.ts). `parent_id`
 * "omitted or empty": the default branch (OpenAPI `BranchCreateRequest`).
 */
export function parseBranchCreate(
  body: unknown,
  options: { pooler: PoolerRule; plan?: Plan; now: number; defaults?: EndpointConfig },
): BranchCreateInput {
  const b = body === undefined ? {} : requireObject(body);
  const br = b.branch === undefined ? {} : requireObject(b.branch, "branch");
  const out: BranchCreateInput = { endpoints: [], initSource: "parent-data" };
  if (br.name !== undefined) out.name = branchName("branch.name", br.name);
  if (br.parent_id !== undefined && br.parent_id !== "") out.parentId = branchId("branch.parent_id", br.parent_id);
  if (br.parent_lsn !== undefined) out.parentLsn = lsn("branch.parent_lsn", br.parent_lsn);
  if (br.parent_timestamp !== undefined) out.parentTimestampRaw = br.parent_timestamp;
  if (out.parentLsn !== undefined && out.parentTimestampRaw !== undefined) {
    // GUESS: as getProjectBranchSchema says of its `lsn` and `timestamp`, both name the point, so both at once are refused
    throw badRequest(
      "branch.parent_lsn and branch.parent_timestamp cannot both be given: name the point by one of them",
    );
  }
  if (br.protected !== undefined) out.protected = bool("branch.protected", br.protected);
  if (br.init_source !== undefined) {
    if (!INIT_SOURCES.includes(br.init_source as InitSource)) {
      throw badRequest(
        `branch.init_source: ${show(br.init_source)} is not allowed; allowed values: ${INIT_SOURCES.join(", ")}`,
      );
    }
    out.initSource = br.init_source as InitSource;
  }
  if (br.expires_at !== undefined) out.expiresAt = expiresAt("branch.expires_at", br.expires_at, options.now);
  if (out.expiresAt !== undefined && out.protected) {
    // Neon docs, Branch expiration, "Restrictions": "Cannot expire protected branches"
    throw badRequest(
      "branch.expires_at: a protected branch cannot expire; create it unprotected or without expires_at",
    );
  }
  if (b.annotation_value !== undefined) out.annotation = annotationValue(b.annotation_value);
  out.endpoints = parseEndpoints(b.endpoints, options);
  return out;
}

/** The computes of a create, each from the project's default settings (`defaults`; 0.25 CU without) and its own fields. */
function parseEndpoints(
  raw: unknown,
  options: { pooler: PoolerRule; plan?: Plan; defaults?: EndpointConfig },
): BranchCreateInput["endpoints"] {
  const base = options.defaults ?? defaultConfig();
  const current = { min: base.autoscaling_limit_min_cu, max: base.autoscaling_limit_max_cu };
  if (raw !== undefined && !Array.isArray(raw)) throw badRequest("endpoints must be an array");
  const out: BranchCreateInput["endpoints"] = [];
  for (const [i, item] of ((raw as unknown[]) ?? []).entries()) {
    const ep = requireObject(item, `endpoints[${i}]`);
    if (ep.type !== "read_write" && ep.type !== "read_only") {
      throw badRequest(`endpoints[${i}].type is required; allowed values: read_write, read_only`);
    }
    const fields = configFields(ep, `endpoints[${i}]`, options.pooler);
    const sized = applySizes({ ...base, ...fields }, fields, current, `endpoints[${i}]`);
    out.push({ type: ep.type, config: settleConfig(options.plan, sized, `endpoints[${i}]`) });
  }
  if (out.filter((e) => e.type === "read_write").length > 1) {
    throw badRequest("endpoints: at most one read_write endpoint per branch");
  }
  return out;
}

export interface BranchUpdateInput {
  name?: string;
  protected?: boolean;
  expiresAt?: number | null; // null: remove the expiration
}

/** `{branch: {name?, protected?, expires_at?}}` (OpenAPI `BranchUpdateRequest`: `branch` required; `expires_at` null removes it). */
export function parseBranchUpdate(body: unknown, now: number): BranchUpdateInput {
  const br = requireObject(requireObject(body).branch, "branch");
  const out: BranchUpdateInput = {};
  if (br.name !== undefined) out.name = branchName("branch.name", br.name);
  if (br.protected !== undefined) out.protected = bool("branch.protected", br.protected);
  if (br.expires_at === null) out.expiresAt = null;
  else if (br.expires_at !== undefined) out.expiresAt = expiresAt("branch.expires_at", br.expires_at, now);
  return out;
}

export interface BranchRestoreInput {
  sourceBranchId: string;
  sourceLsn?: string;
  sourceTimestampRaw?: unknown; // checked against the source by domain/branch-restore.ts
  preserveUnderName?: string;
}

/** `{source_branch_id, source_lsn?, source_timestamp?, preserve_under_name?}` (OpenAPI `BranchRestoreRequest`). */
export function parseBranchRestore(body: unknown): BranchRestoreInput {
  const b = requireObject(body);
  if (b.source_branch_id === undefined) throw badRequest("source_branch_id is required");
  const out: BranchRestoreInput = { sourceBranchId: branchId("source_branch_id", b.source_branch_id) };
  if (b.source_lsn !== undefined) out.sourceLsn = lsn("source_lsn", b.source_lsn);
  if (b.source_timestamp !== undefined) out.sourceTimestampRaw = b.source_timestamp;
  if (out.sourceLsn !== undefined && out.sourceTimestampRaw !== undefined) {
    // GUESS: as for a create, one point in time, named once
    throw badRequest("source_lsn and source_timestamp cannot both be given: name the point by one of them");
  }
  // "If not empty, the previous state of the branch will be saved to a branch with this name"
  if (b.preserve_under_name !== undefined && b.preserve_under_name !== "") {
    out.preserveUnderName = branchName("preserve_under_name", b.preserve_under_name);
  }
  return out;
}
