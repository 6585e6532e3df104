/**
 * Small validators for `check`, each returning the reason a value is refused (or undefined). Reasons name
 * the allowed values, so that a user can fix the program from the preview alone.
 */
/** One refused property, as the engine shows it in preview. */
export interface CheckFailure {
  property: string;
  reason: string;
}

export type Validator = (value: unknown) => string | undefined;

/** Passes undefined (an optional property left out); otherwise applies every validator in order. */
export function optional(...validators: Validator[]): Validator {
  return (value) => (value === undefined || value === null ? undefined : firstProblem(value, validators));
}

/** Refuses a missing value; otherwise applies every validator in order. */
export function required(...validators: Validator[]): Validator {
  return (value) => (value === undefined || value === null ? "is required" : firstProblem(value, validators));
}

function firstProblem(value: unknown, validators: Validator[]): string | undefined {
  for (const validate of validators) {
    const problem = validate(value);
    if (problem) return problem;
  }
  return undefined;
}

export const isString: Validator = (v) => (typeof v === "string" ? undefined : `must be a string, got ${describe(v)}`);

export const isBoolean: Validator = (v) =>
  typeof v === "boolean" ? undefined : `must be true or false, got ${describe(v)}`;

export function oneOf(allowed: readonly (string | number)[]): Validator {
  return (v) => (allowed.includes(v as string) ? undefined : `must be one of ${allowed.join(", ")}; got ${shown(v)}`);
}

export function lengthBetween(min: number, max: number): Validator {
  return (v) => {
    const length = String(v).length;
    return length >= min && length <= max ? undefined : `must be ${min} to ${max} characters long (got ${length})`;
  };
}

export function matches(pattern: RegExp, explanation: string): Validator {
  return (v) => (pattern.test(String(v)) ? undefined : `must be ${explanation}; got ${shown(v)}`);
}

export const isStringMap: Validator = (v) => {
  if (typeof v !== "object" || v === null || Array.isArray(v)) return `must be a map of strings, got ${describe(v)}`;
  const bad = Object.entries(v).find(([, value]) => typeof value !== "string");
  return bad ? `must be a map of strings; "${bad[0]}" is ${describe(bad[1])}` : undefined;
};

/**
 * How a refused value of an identifier or an enumeration is named (`matches`, `oneOf`): quoted, as the engine's own
 * line shows it beside the reason anyway (`property type value {read_many} has a problem: …; got "read_many"`). An id
 * or an enumeration names something and is no secret (ids are in every URL and host name); free text may be anything.
 */
export function shown(value: unknown): string {
  if (typeof value !== "string") return describe(value);
  return JSON.stringify(value.length > 80 ? `${value.slice(0, 80)}…` : value);
}

/**
 * How a refused value is named in a message. Numbers, booleans and null are shown; a string is not (free text, a
 * name or a restart trigger, say, may have been a secret in the program, and the plugin cannot know: secrets reach it
 * unwrapped), only its length; lists and objects by their shape. Identifiers and enumerations: `shown`.
 */
export function describe(value: unknown): string {
  if (typeof value === "string") return `a string of ${value.length} character${value.length === 1 ? "" : "s"}`;
  if (Array.isArray(value)) return `a list of ${value.length}`;
  if (typeof value === "object" && value !== null) return "an object";
  return String(value);
}

/** A list of any values (a resource's triggers). */
export const isList: Validator = (v) => (Array.isArray(v) ? undefined : `must be a list of values, got ${describe(v)}`);

/** A list of strings (names of libraries, say): the first item that is not one is named by its position. */
export const isStringList: Validator = (v) => {
  if (!Array.isArray(v)) return `must be a list of strings, got ${describe(v)}`;
  const bad = v.findIndex((item) => typeof item !== "string");
  return bad < 0 ? undefined : `must be a list of strings; item ${bad} is ${describe(v[bad])}`;
};
