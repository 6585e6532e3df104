/**
 * The vendor's OpenAPI contract (`../shared/reference/openapi-subset.yaml`, plus the organization API key routes and
 * the project create, get, update and delete of the official full document, {@link FROM_FULL_DOCUMENT}) as a response
 * validator.
 *
 * Guards against an emulator (or a client's zod schemas) that drifts from the real service: a field renamed,
 * a required field missing, a status code changed (create compute is 201, not 200), an error body that is not
 * `{code, message}`. Schemas are compiled once per process and cached per (route, method, status).
 */
import * as fs from "fs";
import * as path from "path";
import Ajv, { type ValidateFunction } from "ajv";
import addFormats from "ajv-formats";
import { parse } from "yaml";
import {
  CONTRACT_SCHEMA_ID,
  collectFormats,
  convertSchema,
  isObject,
  type Json,
  type JsonObject,
} from "./schema-convert";

/** The directory holding package.json, found from this file upward (works from `test/` and `dist/test/`). */
export function findRepoRoot(start: string = __dirname): string {
  let dir = start;
  for (;;) {
    if (fs.existsSync(path.join(dir, "package.json"))) return dir;
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`no package.json above ${start}`);
    dir = parent;
  }
}

/** The contract file: `<root>/../shared/reference/openapi-subset.yaml`. */
export function contractPath(): string {
  return path.join(findRepoRoot(), "..", "shared", "reference", "openapi-subset.yaml");
}

/**
 * Routes the subset lacks, taken with the schemas they use from the official full document that ships with
 * `@neondatabase/api-client` (public-v2-for-users.gen.yaml): the organization API keys (issue 14), and the project's
 * create, get, update and delete (issue 26). Of a path the subset has (`/projects`), only the methods it lacks are taken
 * (`createProject`): what the subset describes stays the subset's.
 */
export const FROM_FULL_DOCUMENT = [
  "/organizations/{org_id}/api_keys",
  "/organizations/{org_id}/api_keys/{key_id}",
  "/projects",
  "/projects/{project_id}",
];

/** The official full document: `<root>/node_modules/@neondatabase/api-client/public-v2-for-users.gen.yaml`. */
export function fullDocumentPath(): string {
  return path.join(findRepoRoot(), "node_modules", "@neondatabase", "api-client", "public-v2-for-users.gen.yaml");
}

interface Route {
  template: string;
  pattern: RegExp;
  item: JsonObject;
}

interface Contract {
  ajv: Ajv;
  routes: Route[];
  /** Literal paths of the full document the contract lacks (`/projects/shared`): no template of it matches them. */
  literalsOutside: Set<string>;
  document: JsonObject;
  cache: Map<string, ValidateFunction | "empty">;
}

let loaded: Contract | undefined;

function templateToRegExp(template: string): RegExp {
  const escaped = template
    .split(/(\{[^}]+\})/)
    .map((part) => (part.startsWith("{") ? "([^/]+)" : part.replace(/[.*+?^$()|[\]\\]/g, "\\$&")))
    .join("");
  return new RegExp(`^${escaped}$`);
}

/** The components `node` references, as `schemas/X` or `responses/X` (`#/components/schemas/X` → `schemas/X`). */
function componentRefs(node: Json, into: Set<string> = new Set()): Set<string> {
  if (Array.isArray(node)) node.forEach((item) => componentRefs(item, into));
  else if (isObject(node)) {
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && typeof value === "string" && /^#\/components\/(schemas|responses)\//.test(value)) {
        into.add(value.slice("#/components/".length));
      } else componentRefs(value, into);
    }
  }
  return into;
}

/** The full document's path item with the subset's operations (and parameters) in place of the full document's. */
function mergedPathItem(subsetItem: Json | undefined, fullItem: Json | undefined): JsonObject {
  if (!isObject(fullItem)) throw new Error("a route of FROM_FULL_DOCUMENT is not in the full document");
  return isObject(subsetItem) ? { ...fullItem, ...subsetItem } : fullItem;
}

/**
 * The subset with {@link FROM_FULL_DOCUMENT}'s path items added (merged, where the subset has the path), and every
 * schema and response they reach (transitively) that the subset lacks; a component both documents hold stays the
 * subset's.
 */
function withFullDocumentRoutes(subset: JsonObject): { document: JsonObject; literalsOutside: Set<string> } {
  const full = parse(fs.readFileSync(fullDocumentPath(), "utf8")) as JsonObject;
  const fullComponents = full.components as JsonObject;
  const subsetComponents = subset.components as JsonObject;
  const components: Record<string, JsonObject> = {
    schemas: { ...(subsetComponents.schemas as JsonObject) },
    responses: { ...(subsetComponents.responses as JsonObject) },
  };
  const paths = { ...(subset.paths as JsonObject) };
  const fullPaths = full.paths as JsonObject;
  const pending: Json[] = FROM_FULL_DOCUMENT.map((t) => (paths[t] = mergedPathItem(paths[t], fullPaths[t])));
  for (let node = pending.pop(); node !== undefined; node = pending.pop()) {
    for (const ref of componentRefs(node)) {
      const [kind, name] = ref.split("/");
      if (components[kind][name] !== undefined) continue;
      const found = (fullComponents[kind] as JsonObject)[name];
      if (found === undefined) throw new Error(`the full document has no ${ref}`);
      pending.push((components[kind][name] = found));
    }
  }
  const document = { ...subset, paths, components: { ...subsetComponents, ...components } };
  const literalsOutside = Object.keys(fullPaths).filter((t) => !t.includes("{") && paths[t] === undefined);
  return { document, literalsOutside: new Set(literalsOutside) };
}

function load(): Contract {
  if (loaded) return loaded;
  const { document, literalsOutside } = withFullDocumentRoutes(
    parse(fs.readFileSync(contractPath(), "utf8")) as JsonObject,
  );
  const ajv = new Ajv({ allErrors: true, strict: true, strictTypes: false, strictTuples: false });
  addFormats(ajv);
  for (const format of collectFormats(document)) {
    if (!ajv.formats[format]) ajv.addFormat(format, true); // unknown to ajv-formats: accepted as-is
  }
  const components = document.components as JsonObject;
  ajv.addSchema({ $id: CONTRACT_SCHEMA_ID, definitions: convertSchema(components.schemas) as JsonObject });
  const paths = document.paths as JsonObject;
  // Literal routes first, so `/projects/shared` would never be taken for `/projects/{project_id}`.
  const routes = Object.keys(paths)
    .sort((a, b) => (a.match(/\{/g)?.length ?? 0) - (b.match(/\{/g)?.length ?? 0))
    .map((template) => ({ template, pattern: templateToRegExp(template), item: paths[template] as JsonObject }));
  loaded = { ajv, routes, literalsOutside, document, cache: new Map() };
  return loaded;
}

/** Strips scheme, host, the `/api/v2` base path and the query: what is left is compared with the templates. */
export function normalizePath(pathOrUrl: string): string {
  let p = pathOrUrl.replace(/^[a-z]+:\/\/[^/]+/i, "");
  p = p.split("?")[0].split("#")[0];
  if (p.startsWith("/api/v2/") || p === "/api/v2") p = p.slice("/api/v2".length);
  if (p.length > 1 && p.endsWith("/")) p = p.slice(0, -1);
  return p || "/";
}

/** The contract's template for a concrete path (`/projects/p/endpoints/ep-x` → `/projects/{project_id}/endpoints/{endpoint_id}`). */
export function matchRoute(pathOrUrl: string): string | undefined {
  const p = normalizePath(pathOrUrl);
  const contract = load();
  if (contract.literalsOutside.has(p)) return undefined; // `/projects/shared` is no `/projects/{project_id}`
  return contract.routes.find((route) => route.pattern.test(p))?.template;
}

/** Follows `#/components/responses/X` references of a responses map entry. */
function resolveResponse(doc: JsonObject, response: Json | undefined): JsonObject | undefined {
  if (!isObject(response)) return undefined;
  if (typeof response.$ref === "string") {
    const name = response.$ref.replace("#/components/responses/", "");
    return ((doc.components as JsonObject).responses as JsonObject)[name] as JsonObject;
  }
  return response;
}

function compileFor(contract: Contract, key: string, response: JsonObject): ValidateFunction | "empty" {
  const cached = contract.cache.get(key);
  if (cached) return cached;
  const content = isObject(response.content) ? response.content : undefined;
  const media = content && isObject(content["application/json"]) ? content["application/json"] : undefined;
  const compiled = media?.schema === undefined ? "empty" : contract.ajv.compile(convertSchema(media.schema) as object);
  contract.cache.set(key, compiled);
  return compiled;
}

function generalErrorValidator(contract: Contract): ValidateFunction {
  const generalError = (contract.document.components as JsonObject).responses as JsonObject;
  return compileFor(contract, "GeneralError", generalError.GeneralError as JsonObject) as ValidateFunction;
}

function runValidator(validate: ValidateFunction | "empty", body: unknown, where: string): string[] {
  if (validate === "empty") {
    const empty = body === undefined || body === null || body === "";
    return empty ? [] : [`${where}: the contract documents no body, got ${JSON.stringify(body).slice(0, 200)}`];
  }
  if (validate(body)) return [];
  return (validate.errors ?? []).map((e) => {
    const at = e.instancePath || "(body)";
    const extra = e.keyword === "additionalProperties" ? ` (${JSON.stringify(e.params)})` : "";
    return `${where}: ${at} ${e.message ?? e.keyword}${extra}`;
  });
}

/**
 * Validates one response against the contract and returns the problems (empty = conforms).
 *
 * - a documented status validates against its own schema (204 = no body);
 * - an undocumented 4xx/5xx validates against the route's `default` (GeneralError) — also for a method or a
 *   path the contract does not list, since an error from an unknown route must still be an error body;
 * - an undocumented 2xx/3xx, or a success on a route/method the contract does not list, is a problem.
 */
export function validateResponse(method: string, pathOrUrl: string, status: number, body: unknown): string[] {
  const contract = load();
  const m = method.toLowerCase();
  const template = matchRoute(pathOrUrl);
  const where = `${method.toUpperCase()} ${template ?? normalizePath(pathOrUrl)} → ${status}`;
  const operation = template
    ? (contract.routes.find((r) => r.template === template)?.item[m] as JsonObject | undefined)
    : undefined;
  if (!operation) {
    if (status >= 400) return runValidator(generalErrorValidator(contract), body, where);
    return [`${where}: ${template ? "method" : "route"} not in the contract`];
  }
  const responses = operation.responses as JsonObject;
  const documented = resolveResponse(contract.document, responses[String(status)]);
  if (documented) return runValidator(compileFor(contract, `${m} ${template} ${status}`, documented), body, where);
  const fallback = resolveResponse(contract.document, responses.default);
  if (status >= 400 && fallback)
    return runValidator(compileFor(contract, `${m} ${template} default`, fallback), body, where);
  return [
    `${where}: status ${status} is not documented for this route (documented: ${Object.keys(responses).join(", ")})`,
  ];
}

/** Like {@link validateResponse}, but throws one readable error listing every problem. */
export function assertMatchesContract(method: string, pathOrUrl: string, status: number, body: unknown): void {
  const problems = validateResponse(method, pathOrUrl, status, body);
  if (problems.length > 0) {
    const shown = JSON.stringify(body, null, 2)?.slice(0, 2000);
    throw new Error(
      `response does not match the OpenAPI contract (openapi-subset.yaml and FROM_FULL_DOCUMENT):\n  ${problems.join("\n  ")}\nbody: ${shown}`,
    );
  }
}

/** Every route template and method of the contract, e.g. to check that a suite covered all of them. */
export function contractOperations(): { method: string; template: string }[] {
  const methods = ["get", "post", "put", "patch", "delete"];
  return load().routes.flatMap((r) =>
    methods.filter((m) => isObject(r.item[m])).map((m) => ({ method: m.toUpperCase(), template: r.template })),
  );
}
