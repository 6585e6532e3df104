/**
 * What a declaration is made of (declaration.ts derives Check, the plan, request bodies and outputs from it): the rows
 * of a resource's inputs and outputs, their types as `schema.json` spells them, and the rows most resources share.
 */
import { isBranchId, isProjectId } from "./ids";
import { CheckFailure, isString, Validator } from "./validators";

type Props = Record<string, unknown>;

/**
 * What a change of an input does: `replace` a new object (then the old one deleted), `update` one PATCH, `action` a
 * call of its own (a reset, a restart), `record` kept in state with nothing sent, `refused` at preview.
 */
export type Change = "replace" | "update" | "action" | "record" | "refused";

/** What a change does to a running compute's open connections (kept, unless said). */
export type Connections = "keep" | "drop" | "may-drop";

/**
 * A property's type, as `schema.json` spells it (with `enum` rows turned into a named enum type, and `object` rows,
 * whose schema is a bare `{ type: "object" }`, into a named object type).
 */
export type SchemaType =
  | { type: "string" | "integer" | "number" | "boolean" }
  | { type: "array"; items: { $ref: "pulumi.json#/Any" } | { type: "string" } }
  | { type: "object"; additionalProperties: { type: "string" } }
  | { type: "object" };

/** An enumeration: one named type of schema.json, and the values Check accepts. */
export interface EnumType {
  token: string;
  description: string;
  values: { value: string; description: string }[];
}

/**
 * A named object type: one named type of schema.json whose fields the program spells in camelCase and the API in its
 * own names (`useDefaults` is `use_defaults`). Check accepts an object of its fields only, each by its rules.
 */
export interface ObjectType {
  token: string;
  description: string;
  /** The class file's interface of a program's value (each field a `pulumi.Input`). */
  argsType: string;
  /** The class file's interface of the recorded value; without it, the outputs spell the type in place. */
  outputType?: string;
  fields: Record<string, ObjectField>;
}

export interface ObjectField {
  /** The field's name in the request body and the service's record. */
  api: string;
  schema: SchemaType;
  rules: Validator[];
  description: string;
}

/** One input property. */
export interface InputRow {
  schema: SchemaType;
  /** A named enumeration instead of `schema`'s type; Check accepts exactly its values. */
  enum?: EnumType;
  /** A named object type instead of `schema`'s type: Check, the request body and the outputs go by its fields. */
  object?: ObjectType;
  required?: boolean;
  /** The request body's field, a dotted path for a nested one (`settings.pg_settings`). */
  api?: string;
  /** Checks beyond presence, in order, the first problem reported. */
  rules?: Validator[];
  /** Where the rules come from (the specification, the OpenAPI document, Neon's docs). */
  source?: string;
  change: Change;
  /** For an `action`: what the call does, in a few words (`resets the password`). */
  action?: string;
  connections?: Connections;
  /** Why a change does what it does to connections, for the warning and the docs. */
  because?: string;
  /** The service's value when the program leaves the property out: leaving it out is no change. */
  default?: unknown;
  /** Whether two values are one setting (default: equal as JSON with sorted keys). */
  same?: (a: unknown, b: unknown) => boolean;
  /** Removing it from the program is a change (recorded or acted on by a hook). */
  removalIsChange?: boolean;
  deprecation?: string;
  /** Set by the resource's class, not by a program: left out of the docs' tables. */
  internal?: boolean;
  description: string;
}

/** One output property. */
export interface OutputRow {
  schema: SchemaType;
  /** The field of the service's record it is read from, a dotted path for a nested one; else a hook sets it. */
  api?: string;
  enum?: EnumType;
  object?: ObjectType;
  /** Absent when the service may not report it. */
  optional?: boolean;
  /** The record holds null, not nothing, where the service has no value (the class types it `| null`). */
  nullable?: boolean;
  /**
   * An input's output that keeps the program's value when the service leaves the field out of an answer (a deprecated
   * field it may stop reporting), or every `up` would see a change; without it, an absent field is no value. Only
   * Compute's outputs read it (compute/plan.ts `toOutputs`); rows.test.ts refuses it elsewhere.
   */
  keptIfUnreported?: boolean;
  secret?: boolean;
  deprecation?: string;
  internal?: boolean;
  description: string;
}

export interface Declaration {
  /** The class name, also the type's name in `neon:index:<name>` and in messages. */
  name: string;
  description: string;
  /** The section of docs/resources.md that says the rest. */
  docs: string;
  inputs: Record<string, InputRow>;
  outputs: Record<string, OutputRow>;
  /** Rules over several inputs, each returning its failures (empty when none). */
  crossChecks?: ((news: Props) => CheckFailure[])[];
}

export const tokenOf = (declaration: Declaration): string => `neon:index:${declaration.name}`;

/** The property types the declarations spell most. */
export const STRING: SchemaType = { type: "string" };
export const NUMBER: SchemaType = { type: "number" };
export const INTEGER: SchemaType = { type: "integer" };
export const BOOLEAN: SchemaType = { type: "boolean" };
export const OBJECT: SchemaType = { type: "object" };
export const STRING_MAP: SchemaType = { type: "object", additionalProperties: { type: "string" } };
export const STRING_LIST: SchemaType = { type: "array", items: { type: "string" } };
export const ANY_LIST: SchemaType = { type: "array", items: { $ref: "pulumi.json#/Any" } };

/**
 * An enumeration from its values, each with its description (`{ read_write: "Primary: …" }`), in order: values are
 * names, never integers (an object keeps integer keys in numeric order, not as written).
 */
export const enumOf = (token: string, description: string, values: Record<string, string>): EnumType => ({
  token,
  description,
  values: Object.entries(values).map(([value, meaning]) => ({ value, description: meaning })),
});

/** An output read from the record's `api` field: a string, unless `more` says otherwise. */
export const reported = (api: string, description: string, more: Partial<OutputRow> = {}): OutputRow => ({
  schema: STRING,
  api,
  description,
  ...more,
});

/** The row of a resource's project: a project id (api.md, Ids); another project is another object, so it replaces. */
export const projectIdRow = (description: string): InputRow => ({
  schema: { type: "string" },
  required: true,
  rules: [isString, isProjectId],
  source: "api.md, Ids",
  change: "replace",
  description,
});

/** The row of a role's or database's branch: a branch id (api.md, Ids); such an object cannot move, so it replaces. */
export const branchIdRow = (description: string): InputRow => ({
  ...projectIdRow(description),
  rules: [isString, isBranchId],
});
