/**
 * A declaration's part of `schema.json` (Pulumi's package schema: https://www.pulumi.com/docs/iac/guides/building-extending/packages/schema/):
 * the resource's input and output properties, their required lists, and the named enumerations and object types its
 * rows use.
 * `npm run generate` writes schema.json from these (scripts/generate.ts); nothing else writes it.
 */
import { Declaration, InputRow, OutputRow, tokenOf } from "./declaration";

type Json = Record<string, unknown>;

/** One property's schema: its type (or its named type's), description, secrecy and deprecation. */
export function propertyOf(row: InputRow | OutputRow): Json {
  const named = row.enum ?? row.object;
  const type = named ? { $ref: `#/types/${named.token}` } : row.schema;
  return {
    ...type,
    description: row.description,
    ...("secret" in row && row.secret ? { secret: true } : {}),
    ...(row.deprecation ? { deprecationMessage: row.deprecation } : {}),
  };
}

/** The resource entry of `schema.json`. */
export function resourceSchema(declaration: Declaration): Json {
  const inputs = Object.entries(declaration.inputs).filter(([, row]) => !row.internal);
  const outputs = Object.entries(declaration.outputs);
  return {
    description: declaration.description,
    inputProperties: Object.fromEntries(inputs.map(([name, row]) => [name, propertyOf(row)])),
    requiredInputs: inputs.filter(([, row]) => row.required).map(([name]) => name),
    properties: Object.fromEntries(outputs.map(([name, row]) => [name, propertyOf(row)])),
    required: outputs.filter(([, row]) => !row.optional).map(([name]) => name),
  };
}

/** The named enumerations and object types of a declaration's rows, by token. */
export function namedTypes(declaration: Declaration): Record<string, Json> {
  const types: Record<string, Json> = {};
  const rows: (InputRow | OutputRow)[] = [...Object.values(declaration.inputs), ...Object.values(declaration.outputs)];
  for (const { enum: e, object: o } of rows) {
    if (e) types[e.token] = { type: "string", description: e.description, enum: e.values.map(named) };
    if (o) {
      const fields = Object.entries(o.fields).map(([name, f]) => [name, { ...f.schema, description: f.description }]);
      types[o.token] = { type: "object", description: o.description, properties: Object.fromEntries(fields) };
    }
  }
  return types;
}

/** The resources and types of every declaration, keyed as schema.json keys them. */
export function schemaParts(declarations: Declaration[]): { resources: Json; types: Json } {
  return {
    resources: Object.fromEntries(declarations.map((d) => [tokenOf(d), resourceSchema(d)])),
    types: Object.assign({}, ...declarations.map(namedTypes)),
  };
}

/**
 * An enumeration's value with its name in the SDKs: `read_write` is `ReadWrite` (Go `ComputeTypeReadWrite`, Python
 * `ComputeType.READ_WRITE`), not the generators' fallback spelled from the value (`ComputeType_Read_write`).
 */
function named(value: { value: string; description: string }) {
  const name = value.value
    .split(/[^A-Za-z0-9]+/)
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join("");
  return { name, ...value };
}
