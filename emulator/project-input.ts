import { annotationValue, branchName } from "./branch-input";
import { DEFAULT_DATABASE } from "./branching";
import { badRequest } from "./errors";
import { databaseName, roleName } from "./pg-input";
import { projectSettings } from "./project-settings";
import type { DefaultEndpointSettings, ProjectSettings } from "./types";
import {
  bool,
  ID_PATTERN,
  oneOf,
  pgSettings,
  PROVISIONERS,
  requireObject,
  resolveSizes,
  size,
  suspendTimeout,
} from "./validation";

/**
 * The bodies of the project routes (OpenAPI `ProjectCreateRequest`, `ProjectUpdateRequest`), checked field by field:
 * every failure is a 400 naming the field and what is allowed; unknown fields are ignored, as the service does. Rules
 * that need the world (the key's organizations, the plan, the lock) are domain/projects.ts's.
 */

type Obj = Record<string, unknown>;
const show = (v: unknown): string => String(JSON.stringify(v));

/** Neon docs, Regions: the AWS and Azure regions a project can be created in. */
export const REGIONS = [
  "aws-us-east-1",
  "aws-us-east-2",
  "aws-us-west-2",
  "aws-eu-central-1",
  "aws-eu-west-2",
  "aws-ap-southeast-1",
  "aws-ap-southeast-2",
  "aws-sa-east-1",
  "azure-eastus2",
  "azure-westus3",
  "azure-gwc",
];

/** The region of a create that names none: **guess** (the document gives no default; the default world's region). */
export const DEFAULT_REGION = "aws-us-east-2";

/** OpenAPI `PgVersion`: 14..18, default 17 ("Neon currently supports PostgreSQL 14, 15, 16, 17, and 18"). */
export const DEFAULT_PG_VERSION = 17;

/** `history_retention_seconds`: 0..2592000; "The default is 1 day (86400 seconds)" (OpenAPI `ProjectCreateRequest`). */
export const DEFAULT_HISTORY_RETENTION = 86400;
const MAX_HISTORY_RETENTION = 2592000;

/** The defaults of a project's computes when a create gives none (Neon docs, Manage projects, the create example). */
export const BUILT_IN_DEFAULTS: DefaultEndpointSettings = {
  autoscaling_limit_min_cu: 0.25,
  autoscaling_limit_max_cu: 0.25,
  suspend_timeout_seconds: 0,
};

export interface ProjectCreateInput {
  name?: string;
  regionId: string;
  pgVersion: number;
  orgId?: string;
  provisioner?: string;
  historyRetentionSeconds: number;
  defaults: DefaultEndpointSettings; // validated, not yet settled for the plan (domain/projects.ts)
  settings: ProjectSettings;
  storePasswords: boolean;
  branch: { name: string; roleName: string; databaseName: string; annotation?: Record<string, string> };
}

export interface ProjectUpdateInput {
  name?: string;
  historyRetentionSeconds?: number;
  defaults?: DefaultEndpointSettings; // the project's, with the request's fields merged
  settings?: ProjectSettings; // the keys the request names
}

/** `{project: {...}}`, else 400 (both `ProjectCreateRequest` and `ProjectUpdateRequest` require `project`). */
function projectOf(body: unknown, schema: string): Obj {
  const b = requireObject(body);
  if (b.project === undefined) throw badRequest(`project is required (${schema}: {"project": {...}})`);
  return requireObject(b.project, "project");
}

function historyRetention(v: unknown): number {
  if (typeof v !== "number" || !Number.isInteger(v) || v < 0 || v > MAX_HISTORY_RETENTION)
    throw badRequest(
      `project.history_retention_seconds must be an integer 0..${MAX_HISTORY_RETENTION}, got ${show(v)}`,
    );
  return v;
}

/**
 * `default_endpoint_settings` (OpenAPI `DefaultEndpointSettings`) merged into `current`: sizes as a compute's (api.md
 * "Sizes", checked together as a PATCH of a compute checks them), `suspend_timeout_seconds`, `pg_settings` (replaced
 * whole). The deprecated `pgbouncer_settings` is ignored. `legacy`: the create's deprecated top-level sizes, used when
 * the object names none ("DEPRECATED, use default_endpoint_settings.autoscaling_limit_min_cu instead").
 */
function defaultEndpointSettings(
  v: unknown,
  current: DefaultEndpointSettings,
  legacy: Obj = {},
): DefaultEndpointSettings {
  const field = "project.default_endpoint_settings";
  const d = v === undefined ? {} : requireObject(v, field);
  const pick = (k: "autoscaling_limit_min_cu" | "autoscaling_limit_max_cu"): number | undefined => {
    if (d[k] !== undefined) return size(`${field}.${k}`, d[k]);
    return legacy[k] === undefined ? undefined : size(`project.${k}`, legacy[k]);
  };
  const req = { min: pick("autoscaling_limit_min_cu"), max: pick("autoscaling_limit_max_cu") };
  const sizes = resolveSizes(
    req,
    { min: current.autoscaling_limit_min_cu, max: current.autoscaling_limit_max_cu },
    field,
  );
  const out: DefaultEndpointSettings = {
    ...current,
    autoscaling_limit_min_cu: sizes.min,
    autoscaling_limit_max_cu: sizes.max,
  };
  if (d.suspend_timeout_seconds !== undefined)
    out.suspend_timeout_seconds = suspendTimeout(`${field}.suspend_timeout_seconds`, d.suspend_timeout_seconds);
  if (d.pg_settings !== undefined) out.pg_settings = pgSettings(`${field}.pg_settings`, d.pg_settings);
  return out;
}

/**
 * `project.branch` (the default branch): `name` ("If not specified, the default branch name, `main`"), `database_name`
 * ("`neondb`"), `role_name` ("the default role name, `{database_name}_owner`"), `annotations`.
 */
function defaultBranch(v: unknown): ProjectCreateInput["branch"] {
  const b = v === undefined ? {} : requireObject(v, "project.branch");
  const name = b.name === undefined ? "main" : branchName("project.branch.name", b.name);
  const db =
    b.database_name === undefined ? DEFAULT_DATABASE : databaseName("project.branch.database_name", b.database_name);
  const role = roleName("project.branch.role_name", b.role_name ?? `${db}_owner`);
  const annotation =
    b.annotations === undefined ? undefined : annotationValue(b.annotations, "project.branch.annotations");
  return { name, roleName: role, databaseName: db, ...(annotation ? { annotation } : {}) };
}

/** POST /projects (OpenAPI `ProjectCreateRequest`), every field optional but `project` itself. */
export function parseProjectCreate(body: unknown): ProjectCreateInput {
  const p = projectOf(body, "ProjectCreateRequest");
  const out: ProjectCreateInput = {
    regionId: p.region_id === undefined ? DEFAULT_REGION : oneOf("project.region_id", p.region_id, REGIONS),
    pgVersion: DEFAULT_PG_VERSION,
    historyRetentionSeconds:
      p.history_retention_seconds === undefined
        ? DEFAULT_HISTORY_RETENTION
        : historyRetention(p.history_retention_seconds),
    defaults: defaultEndpointSettings(p.default_endpoint_settings, BUILT_IN_DEFAULTS, p),
    settings: p.settings === undefined ? {} : projectSettings("project.settings", p.settings),
    storePasswords: p.store_passwords === undefined ? true : bool("project.store_passwords", p.store_passwords),
    branch: defaultBranch(p.branch),
  };
  if (p.name !== undefined) out.name = branchName("project.name", p.name);
  if (p.pg_version !== undefined) {
    if (typeof p.pg_version !== "number" || !Number.isInteger(p.pg_version) || p.pg_version < 14 || p.pg_version > 18)
      throw badRequest(`project.pg_version: ${show(p.pg_version)} is not supported; allowed: 14, 15, 16, 17, 18`);
    out.pgVersion = p.pg_version;
  }
  if (p.org_id !== undefined) {
    if (typeof p.org_id !== "string" || !ID_PATTERN.test(p.org_id))
      throw badRequest(`project.org_id must be an organization id matching ${ID_PATTERN.source}`);
    out.orgId = p.org_id;
  }
  if (p.provisioner !== undefined) out.provisioner = oneOf("project.provisioner", p.provisioner, PROVISIONERS);
  return out;
}

/**
 * What a create sets that `ProjectUpdateRequest` does not accept. Refused with a 400 naming the field (**guess**: the
 * service may ignore them; refusing is the answer a client that sends them meets first). The region: Neon docs, Regions
 * ("After you select a region for a Neon project, it cannot be changed for that project").
 */
const CREATE_ONLY = [
  "region_id",
  "pg_version",
  "org_id",
  "store_passwords",
  "branch",
  "provisioner",
  "autoscaling_limit_min_cu",
  "autoscaling_limit_max_cu",
];

/** PATCH /projects/{id} (OpenAPI `ProjectUpdateRequest`): `name`, `history_retention_seconds`, `default_endpoint_settings`, `settings`. */
export function parseProjectUpdate(body: unknown, current: DefaultEndpointSettings): ProjectUpdateInput {
  const p = projectOf(body, "ProjectUpdateRequest");
  const refused = CREATE_ONLY.filter((k) => p[k] !== undefined);
  if (refused.length) {
    throw badRequest(
      `${refused.map((k) => `project.${k}`).join(", ")}: cannot be changed by an update (ProjectUpdateRequest accepts ` +
        `name, history_retention_seconds, default_endpoint_settings, settings); it is set when the project is created`,
    );
  }
  const out: ProjectUpdateInput = {};
  if (p.name !== undefined) out.name = branchName("project.name", p.name);
  if (p.history_retention_seconds !== undefined)
    out.historyRetentionSeconds = historyRetention(p.history_retention_seconds);
  if (p.default_endpoint_settings !== undefined)
    out.defaults = defaultEndpointSettings(p.default_endpoint_settings, current);
  if (p.settings !== undefined) out.settings = projectSettings("project.settings", p.settings);
  return out;
}
