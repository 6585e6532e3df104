import { badRequest } from "./errors";
import type { ProjectSettings } from "./types";
import { bool, oneOf, preloadLibraries, requireObject } from "./validation";

/**
 * A project's `settings` as a create or an update carries them (OpenAPI `ProjectSettingsData`, and the schemas it names:
 * `ProjectQuota`, `AllowedIps`, `MaintenanceWindow`, `ProjectAuditLogLevel`, `PreloadLibraries`), checked field by
 * field: every failure is a 400 naming the field; unknown fields are ignored, as the service does. What the plan allows
 * (IP Allow, HIPAA and audit logs are paid features) is not modelled.
 */

type Obj = Record<string, unknown>;
const show = (v: unknown): string => String(JSON.stringify(v));

/** `ProjectQuota`: each an integer ≥ 0 ("A zero or empty quota value means unlimited"). */
const QUOTAS = [
  "active_time_seconds",
  "compute_time_seconds",
  "written_data_bytes",
  "data_transfer_bytes",
  "logical_size_bytes",
];

/** `ProjectAuditLogLevel`. */
const AUDIT_LOG_LEVELS = ["base", "extended", "full"];

/** `MaintenanceWindow.start_time` / `end_time`: "in the format of HH:MM. Uses UTC". */
const HH_MM = /^([01]\d|2[0-3]):[0-5]\d$/;

function nonNegativeInteger(field: string, v: unknown): number {
  if (typeof v !== "number" || !Number.isSafeInteger(v) || v < 0)
    throw badRequest(`${field} must be an integer ≥ 0, got ${show(v)}`);
  return v;
}

function quota(field: string, v: unknown): Record<string, number> {
  const q = requireObject(v, field);
  const out: Record<string, number> = {};
  for (const k of QUOTAS) if (q[k] !== undefined) out[k] = nonNegativeInteger(`${field}.${k}`, q[k]);
  return out;
}

function allowedIps(field: string, v: unknown): NonNullable<ProjectSettings["allowed_ips"]> {
  const a = requireObject(v, field);
  const out: NonNullable<ProjectSettings["allowed_ips"]> = {};
  if (a.ips !== undefined) {
    if (!Array.isArray(a.ips) || a.ips.some((ip) => typeof ip !== "string"))
      throw badRequest(
        `${field}.ips must be an array of strings (addresses, ranges or CIDR blocks), got ${show(a.ips)}`,
      );
    out.ips = [...(a.ips as string[])];
  }
  if (a.protected_branches_only !== undefined)
    out.protected_branches_only = bool(`${field}.protected_branches_only`, a.protected_branches_only);
  return out;
}

/** `MaintenanceWindow`: `weekdays` (1 Monday .. 7 Sunday), `start_time` and `end_time`, all three required. */
function maintenanceWindow(field: string, v: unknown): NonNullable<ProjectSettings["maintenance_window"]> {
  const m = requireObject(v, field);
  const days = m.weekdays;
  if (!Array.isArray(days) || days.length === 0 || days.some((d) => !Number.isInteger(d) || d < 1 || d > 7))
    throw badRequest(
      `${field}.weekdays must be a non-empty array of integers 1 (Monday) .. 7 (Sunday), got ${show(days)}`,
    );
  for (const k of ["start_time", "end_time"]) {
    if (typeof m[k] !== "string" || !HH_MM.test(m[k]))
      throw badRequest(`${field}.${k} must be a time "HH:MM" (UTC), got ${show(m[k])}`);
  }
  return { weekdays: [...(days as number[])], start_time: m.start_time as string, end_time: m.end_time as string };
}

const FLAGS = ["enable_logical_replication", "block_public_connections", "block_vpc_connections", "hipaa"] as const;

/** The `settings` object of a create or an update, as given (an update replaces the keys it names). */
export function projectSettings(field: string, v: unknown): ProjectSettings {
  const s = requireObject(v, field) as Obj;
  const out: ProjectSettings = {};
  if (s.quota !== undefined) out.quota = quota(`${field}.quota`, s.quota);
  if (s.allowed_ips !== undefined) out.allowed_ips = allowedIps(`${field}.allowed_ips`, s.allowed_ips);
  for (const k of FLAGS) if (s[k] !== undefined) out[k] = bool(`${field}.${k}`, s[k]);
  if (s.maintenance_window !== undefined)
    out.maintenance_window = maintenanceWindow(`${field}.maintenance_window`, s.maintenance_window);
  if (s.audit_log_level !== undefined)
    out.audit_log_level = oneOf(`${field}.audit_log_level`, s.audit_log_level, AUDIT_LOG_LEVELS);
  if (s.preload_libraries !== undefined)
    out.preload_libraries = preloadLibraries(`${field}.preload_libraries`, s.preload_libraries);
  return out;
}
