import type { PoolerRule } from "./behaviours";
import { badRequest } from "./errors";
import type { EndpointConfig, PreloadLibraries } from "./types";

/**
 * Request validation as the real service states it (api.md), written independently of the client so that a
 * mistake in the client's rules cannot hide behind the same mistake here. Every failure is a 400 naming the
 * field and the allowed values; unknown fields are ignored, as the real service does.
 */

export const SIZES_TEXT = "0.25, 0.5, integers 1..16, even integers 18..56";
const SIZES = new Set<number>([0.25, 0.5]);
for (let i = 1; i <= 16; i++) SIZES.add(i);
for (let i = 18; i <= 56; i += 2) SIZES.add(i);

export const ID_PATTERN = /^[a-z0-9-]{1,60}$/;
/** api.md lists k8s-pod and k8s-neonvm; OpenAPI's `Provisioner` also serverless-platform. */
export const PROVISIONERS = ["k8s-pod", "k8s-neonvm", "serverless-platform"];

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === "object" && v !== null && !Array.isArray(v);
export const show = (v: unknown): string => (typeof v === "string" ? JSON.stringify(v) : String(JSON.stringify(v)));

/** The body's top-level object, else 400 (arrays, strings and null are not request bodies). */
export function requireObject(body: unknown, what = "request body"): Obj {
  if (!isObj(body)) throw badRequest(`${what} must be a JSON object`);
  return body;
}

export function oneOf(field: string, v: unknown, allowed: string[]): string {
  if (typeof v !== "string" || !allowed.includes(v)) {
    throw badRequest(`${field}: ${show(v)} is not allowed; allowed values: ${allowed.join(", ")}`);
  }
  return v;
}

export function bool(field: string, v: unknown): boolean {
  if (typeof v !== "boolean") throw badRequest(`${field} must be a boolean (true or false), got ${show(v)}`);
  return v;
}

export function size(field: string, v: unknown): number {
  if (typeof v !== "number" || !SIZES.has(v)) {
    throw badRequest(`${field}: ${show(v)} is not an allowed compute size; allowed: ${SIZES_TEXT}`);
  }
  return v;
}

/** -1 (never), 0 (default 300 s) or 60..604800 seconds. */
export function suspendTimeout(field: string, v: unknown): number {
  if (typeof v !== "number" || !Number.isInteger(v) || !(v === -1 || v === 0 || (v >= 60 && v <= 604800))) {
    throw badRequest(`${field}: ${show(v)} is not allowed; allowed: -1 (never), 0 (default, 300), or 60..604800`);
  }
  return v;
}

function name(field: string, v: unknown): string {
  if (typeof v !== "string" || v.length < 1 || v.length > 64) {
    throw badRequest(`${field} must be a string of 1..64 characters`);
  }
  return v;
}

export function pgSettings(field: string, v: unknown): Record<string, string> {
  if (!isObj(v)) throw badRequest(`${field} must be an object`);
  const out: Record<string, string> = {};
  for (const [k, val] of Object.entries(v)) {
    if (typeof val !== "string") throw badRequest(`${field}.${k} must be a string, got ${show(val)}`);
    out[k] = val;
  }
  return out;
}

/**
 * OpenAPI, PreloadLibraries: `use_defaults` a boolean, `enabled_libraries` an array of strings, both optional; other
 * fields ignored, as the real service ignores unknown fields. Which library names exist (available_preload_libraries):
 * not checked.
 */
export function preloadLibraries(field: string, v: unknown): PreloadLibraries {
  if (!isObj(v)) throw badRequest(`${field} must be an object of use_defaults (boolean), enabled_libraries (strings)`);
  const out: PreloadLibraries = {};
  if (v.use_defaults !== undefined) out.use_defaults = bool(`${field}.use_defaults`, v.use_defaults);
  if (v.enabled_libraries !== undefined) {
    const list = v.enabled_libraries;
    if (!Array.isArray(list) || list.some((name) => typeof name !== "string"))
      throw badRequest(`${field}.enabled_libraries must be an array of strings, got ${show(list)}`);
    out.enabled_libraries = [...(list as string[])];
  }
  return out;
}

/** A branch id of the documented pattern (its existence is the route's 404). */
export function branchId(field: string, v: unknown): string {
  if (typeof v !== "string" || !ID_PATTERN.test(v)) throw badRequest(`${field} must match ${ID_PATTERN.source}`);
  return v;
}

/**
 * The settable config fields present in `ep`, each checked; sizes are checked together by `resolveSizes`.
 * `pooler`: what `pooler_enabled` / `pooler_mode` get (behaviours.ts `poolerRule`): checked and applied, ignored
 * like any unknown field, or refused.
 */
export function configFields(ep: Obj, prefix: string, pooler: PoolerRule = "applied"): Partial<EndpointConfig> {
  const out: Partial<EndpointConfig> = {};
  const f = (k: string): string => `${prefix}.${k}`;
  if (pooler === "refused") refusePoolerFields(ep, prefix);
  if (ep.autoscaling_limit_min_cu !== undefined)
    out.autoscaling_limit_min_cu = size(f("autoscaling_limit_min_cu"), ep.autoscaling_limit_min_cu);
  if (ep.autoscaling_limit_max_cu !== undefined)
    out.autoscaling_limit_max_cu = size(f("autoscaling_limit_max_cu"), ep.autoscaling_limit_max_cu);
  if (ep.suspend_timeout_seconds !== undefined)
    out.suspend_timeout_seconds = suspendTimeout(f("suspend_timeout_seconds"), ep.suspend_timeout_seconds);
  if (ep.provisioner !== undefined) out.provisioner = oneOf(f("provisioner"), ep.provisioner, PROVISIONERS);
  if (pooler === "applied" && ep.pooler_enabled !== undefined)
    out.pooler_enabled = bool(f("pooler_enabled"), ep.pooler_enabled);
  if (pooler === "applied" && ep.pooler_mode !== undefined)
    out.pooler_mode = oneOf(f("pooler_mode"), ep.pooler_mode, ["transaction"]);
  if (ep.disabled !== undefined) out.disabled = bool(f("disabled"), ep.disabled);
  if (ep.passwordless_access !== undefined)
    out.passwordless_access = bool(f("passwordless_access"), ep.passwordless_access);
  if (ep.name !== undefined) out.name = name(f("name"), ep.name);
  // A request's `settings` replace the compute's whole: a **guess** (api.md does not say whether the service merges
  // them), the harsher one: a client that sends pg_settings alone loses preload_libraries here first, and vice versa.
  if (ep.settings !== undefined) {
    const s = requireObject(ep.settings, f("settings"));
    const pg = s.pg_settings === undefined ? {} : pgSettings(f("settings.pg_settings"), s.pg_settings);
    out.settings = { pg_settings: pg };
    if (s.preload_libraries !== undefined && s.preload_libraries !== null)
      out.settings.preload_libraries = preloadLibraries(f("settings.preload_libraries"), s.preload_libraries);
  }
  return out;
}

/**
 * 400 for a request carrying a deprecated pooler field, as a service that removed them may answer (OpenAPI: deprecated;
 * `pooler_mode` "will be removed after 2026-06-20"). Whether it refuses, and its status and wording: a **guess**.
 */
function refusePoolerFields(ep: Obj, prefix: string): void {
  const sent = ["pooler_enabled", "pooler_mode"].filter((k) => ep[k] !== undefined);
  if (sent.length === 0) return;
  throw badRequest(
    `${sent.map((k) => `${prefix}.${k}`).join(", ")}: not accepted; the pooler settings were removed from the API ` +
      `(connection pooling is always available: append -pooler to the endpoint id in the host)`,
  );
}

/**
 * Final min/max after merging a request into the current (or default) sizes: min ≤ max; autoscaling only
 * within 0.25..16 with max − min ≤ 8; sizes above 16 fixed (min = max) (api.md "Sizes"). Naming only the minimum of
 * a fixed size moves both; naming only a maximum above 16 fixes the size there: a **guess** (api.md "A lone size in
 * PATCH": "Not documented"), which no client may rely on (the provider sends both sizes).
 */
export function resolveSizes(
  req: { min?: number; max?: number },
  current: { min: number; max: number },
  prefix: string,
): { min: number; max: number } {
  let min = req.min ?? current.min;
  let max = req.max ?? current.max;
  if (req.max === undefined && req.min !== undefined && (current.min === current.max || min > 16)) max = min;
  if (req.min === undefined && req.max !== undefined && max > 16) min = max;
  const fMin = `${prefix}.autoscaling_limit_min_cu`;
  const fMax = `${prefix}.autoscaling_limit_max_cu`;
  if (min > max) throw badRequest(`${fMin} (${min}) must not be greater than ${fMax} (${max})`);
  if (min !== max && max > 16)
    throw badRequest(`${fMax}: sizes above 16 CU are fixed; set ${fMin} equal to it (${max})`);
  if (max - min > 8) throw badRequest(`${fMax} - ${fMin} must be at most 8 CU for autoscaling (got ${min}..${max})`);
  return { min, max };
}

/** `config` with its final sizes: the request's merged into `current` by `resolveSizes`. */
export function applySizes(
  config: EndpointConfig,
  req: Partial<EndpointConfig>,
  current: { min: number; max: number },
  prefix: string,
): EndpointConfig {
  const sizes = resolveSizes({ min: req.autoscaling_limit_min_cu, max: req.autoscaling_limit_max_cu }, current, prefix);
  return { ...config, autoscaling_limit_min_cu: sizes.min, autoscaling_limit_max_cu: sizes.max };
}

/** POST /api_keys body: `{key_name}` of 1..64 characters. */
export function parseKeyCreate(body: unknown): string {
  const b = requireObject(body);
  if (b.key_name === undefined) throw badRequest("key_name is required");
  return name("key_name", b.key_name);
}

/** POST /organizations/{org_id}/api_keys body (OrgApiKeyCreateRequest): `{key_name, project_id?}`. */
export function parseOrgKeyCreate(body: unknown): { name: string; projectId?: string } {
  const name = parseKeyCreate(body);
  const projectId = (body as Obj).project_id;
  if (projectId === undefined) return { name };
  if (typeof projectId !== "string" || !ID_PATTERN.test(projectId)) {
    throw badRequest(`project_id must be a project id matching ${ID_PATTERN.source}`);
  }
  return { name, projectId };
}

/** An integer query parameter within bounds, else 400; absent → default. */
export function parseLimit(raw: string | undefined, max: number, dflt: number): number {
  if (raw === undefined) return dflt;
  const n = /^\d{1,7}$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(n) || n < 1 || n > max) throw badRequest(`limit must be an integer 1..${max}`);
  return n;
}
