/**
 * OpenAPI 3.0.3 schema objects → JSON Schema draft-07 that ajv compiles in strict mode.
 *
 * Why not hand the YAML to ajv as it is: OpenAPI 3.0 is not JSON Schema. `nullable: true` means "or null"
 * (ajv would otherwise reject every `null` the real service sends for `last_used_at`), `$ref` points into
 * `#/components/schemas`, and vendor keys (`x-sensitive`, `x-sunset`) or `example` would make strict ajv
 * throw. One reading is added: a property the vendor marks `deprecated` is not required, since it is on its way
 * out and a response may lack it (api.md, "Pooler fields": the removal of `pooler_enabled` / `pooler_mode` was
 * scheduled for 2026-06-20, and they are still listed as required). Everything else is kept as written, so the contract is enforced
 * as the vendor published it.
 */

/** The `$id` under which the converted `components.schemas` are registered with ajv. */
export const CONTRACT_SCHEMA_ID = "neon-openapi-subset";

const REF_PREFIX = "#/components/schemas/";

/** Keys that only annotate an OpenAPI schema: dropped so that strict ajv accepts the result. */
const DROPPED_KEYS = new Set(["example", "examples", "deprecated", "xml", "externalDocs", "discriminator"]);

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Rewrites a component `$ref` so that it resolves inside the schema registered as {@link CONTRACT_SCHEMA_ID}. */
function rewriteRef(ref: string): string {
  if (!ref.startsWith(REF_PREFIX)) {
    throw new Error(`unsupported $ref ${ref}: only ${REF_PREFIX}* is resolved`);
  }
  return `${CONTRACT_SCHEMA_ID}#/definitions/${ref.slice(REF_PREFIX.length)}`;
}

/** Applies OpenAPI's `nullable: true` as JSON Schema: a `null` type (and enum value), or an `anyOf` with null. */
function applyNullable(schema: JsonObject): JsonObject {
  const { type, enum: values } = schema;
  if (typeof type === "string") {
    const out: JsonObject = { ...schema, type: [type, "null"] };
    if (Array.isArray(values) && !values.includes(null)) out.enum = [...values, null];
    return out;
  }
  if (Array.isArray(type)) {
    return type.includes("null") ? schema : { ...schema, type: [...type, "null"] };
  }
  return { anyOf: [schema, { type: "null" }] };
}

/**
 * Converts one OpenAPI schema object (recursively). `$ref` with sibling keywords becomes `allOf` so that
 * the siblings keep counting, whatever the draft's rule on `$ref` siblings.
 */
export function convertSchema(node: Json): Json {
  if (Array.isArray(node)) return node.map(convertSchema);
  if (!isObject(node)) return node;
  let nullable = false;
  const out: JsonObject = {};
  for (const [key, value] of Object.entries(node)) {
    if (key.startsWith("x-") || DROPPED_KEYS.has(key)) continue;
    if (key === "nullable") {
      nullable = value === true;
      continue;
    }
    if (key === "$ref" && typeof value === "string") {
      out.$ref = rewriteRef(value);
      continue;
    }
    // `properties` and `definitions` map names to schemas: convert the values, keep every name.
    if ((key === "properties" || key === "patternProperties") && isObject(value)) {
      out[key] = Object.fromEntries(Object.entries(value).map(([name, sub]) => [name, convertSchema(sub)]));
      continue;
    }
    out[key] = convertSchema(value);
  }
  let schema = withoutDeprecatedRequired(node, out);
  if (typeof schema.$ref === "string" && Object.keys(schema).some((k) => k !== "$ref" && k !== "description")) {
    const { $ref, ...rest } = schema;
    schema = { ...rest, allOf: [{ $ref }, ...(Array.isArray(rest.allOf) ? rest.allOf : [])] };
  }
  return nullable ? applyNullable(schema) : schema;
}

/** `required` without the properties that `node` marks `deprecated: true` (see the module comment). */
function withoutDeprecatedRequired(node: JsonObject, out: JsonObject): JsonObject {
  const { required, properties } = node;
  if (!Array.isArray(required) || !isObject(properties)) return out;
  const deprecated = (name: Json): boolean => {
    const prop = typeof name === "string" ? properties[name] : undefined;
    return isObject(prop) && prop.deprecated === true;
  };
  const kept = required.filter((name) => !deprecated(name));
  return kept.length === required.length ? out : { ...out, required: kept };
}

/** Every `format` value used anywhere in the document, so unknown ones can be registered as no-ops. */
export function collectFormats(node: Json, into: Set<string> = new Set()): Set<string> {
  if (Array.isArray(node)) node.forEach((item) => collectFormats(item, into));
  else if (isObject(node)) {
    for (const [key, value] of Object.entries(node)) {
      if (key === "format" && typeof value === "string") into.add(value);
      else collectFormats(value, into);
    }
  }
  return into;
}

export type { Json, JsonObject };
export { isObject };
