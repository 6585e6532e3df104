/**
 * A resource is one declaration: each property one row of data saying its type, the API field it maps to, its
 * validation (with the rule's source), what a change of it does, how two of its values compare, its output, whether
 * it is secret, and its one-line description. Check, the diff's plan, request bodies, outputs, `schema.json` and the
 * property tables of docs/resources.md are derived from its rows (rows.ts says what a row is; this module derives
 * Check, the plan, bodies and outputs; schema-of.ts and docs-of.ts the rest), so Check and Diff compare a property one
 * way by construction.
 *
 * What is particular to a resource (Compute's restart, Branch's protection and reset, Role's password) stays a small
 * hook beside its declaration, reading the plan this module derives.
 */
import type { Change, Declaration, InputRow, ObjectType } from "./rows";
import { stableJson } from "./stable-json";
import { isUnknown } from "./unknown";
import { CheckFailure, describe, oneOf, optional, required, Validator } from "./validators";

export * from "./rows";

type Props = Record<string, unknown>;

/**
 * The validator a row's rules make: presence first, then the enumeration's values or the object type's fields, then
 * its own rules.
 */
export function validatorOf(row: InputRow): Validator {
  const typed = row.enum ? [oneOf(row.enum.values.map((v) => v.value))] : row.object ? [objectOf(row.object)] : [];
  const rules = [...typed, ...(row.rules ?? [])];
  return row.required ? required(...rules) : optional(...rules);
}

/**
 * A value of a named object type: an object of its fields only (an unknown one, such as the API's spelling
 * `use_defaults`, is refused naming the known ones rather than sent as it is), each by its rules, the first problem
 * naming its field. A field the engine does not know yet passes.
 */
export function objectOf(type: ObjectType): Validator {
  const known = Object.keys(type.fields).join(", ");
  return (value) => {
    if (typeof value !== "object" || value === null || Array.isArray(value))
      return `must be an object of ${known} (each optional), got ${describe(value)}`;
    for (const [key, field] of Object.entries(value)) {
      if (!type.fields[key]) return `has no field ${JSON.stringify(key)}; known: ${known}`;
      const problem = isUnknown(field) ? undefined : optional(...type.fields[key].rules)(field);
      if (problem) return `${key} ${problem}`;
    }
    return undefined;
  };
}

/** A value of a named object type as the API spells it: its fields under their API names. */
const toApi = (type: ObjectType, value: Props): Props =>
  Object.fromEntries(Object.entries(value).map(([key, v]) => [type.fields[key]?.api ?? key, v]));

/** A named object type's value as the service reports it, in the program's names (nulls, unknown fields left out). */
function fromApi(type: ObjectType, value: unknown): Props | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const fields = Object.entries(type.fields).map(([name, field]) => [name, (value as Props)[field.api]]);
  return Object.fromEntries(fields.filter(([, v]) => v !== undefined && v !== null));
}

/**
 * Check: every failure of `news`, each naming its property: an unknown property (with the known ones), a row's
 * rules, then the rules over several inputs. A value the engine does not know yet passes.
 */
export function checkInputs(declaration: Declaration, news: Props): CheckFailure[] {
  const failures: CheckFailure[] = [];
  const requiredNames = Object.keys(declaration.inputs).filter((p) => declaration.inputs[p].required);
  for (const property of new Set([...Object.keys(news), ...requiredNames])) {
    if (property === "__provider") continue;
    const row = declaration.inputs[property];
    const value = news[property];
    if (!row) {
      const known = Object.keys(declaration.inputs).join(", ");
      const article = /^[AEIOU]/.test(declaration.name) ? "an" : "a";
      failures.push({ property, reason: `is not ${article} ${declaration.name} property; known: ${known}` });
    } else if (!isUnknown(value)) {
      const reason = validatorOf(row)(value);
      if (reason) failures.push({ property, reason });
    }
  }
  for (const rule of declaration.crossChecks ?? []) failures.push(...rule(news));
  return failures;
}

/** Whether `a` and `b` are one value of `property` (its row's comparison; the service's default for a missing one). */
export function sameValue(declaration: Declaration, property: string, a: unknown, b: unknown): boolean {
  const row = declaration.inputs[property];
  const fill = (v: unknown) => v ?? row?.default;
  if (row?.same) return row.same(fill(a), fill(b));
  return stableJson(fill(a) ?? emptyLike(fill(b))) === stableJson(fill(b) ?? emptyLike(fill(a)));
}

/** An empty map stands for a map the service does not report (`pgSettings` never set). */
const emptyLike = (value: unknown): unknown =>
  typeof value === "object" && value !== null && !Array.isArray(value) ? {} : undefined;

/**
 * Whether the program's `news` change `property` from what `olds` records: a property left out changes nothing
 * (unless its removal is a change and it was set), a value not known yet is a change (but a record's, once set),
 * otherwise the row's comparison.
 */
export function inputChanged(declaration: Declaration, property: string, olds: Props, news: Props): boolean {
  const row = declaration.inputs[property];
  if (!row) return false;
  const wanted = news[property] ?? row.default;
  if (wanted === undefined || wanted === null) return row.removalIsChange === true && olds[property] !== undefined;
  // A record sends nothing: a value not known yet (a Project's defaultBranchId in the preview of its update, where a
  // dynamic resource's outputs are unknown) can only change what the state records, which the up's own Diff does.
  if (isUnknown(wanted)) return !(row.change === "record" && olds[property] !== undefined);
  return !sameValue(declaration, property, olds[property], wanted);
}

/** What changing `olds` into `news` does, property by property, as the rows say. */
export interface Plan {
  changed: string[];
  /** The changed properties by what their change does. */
  by: Record<Change, string[]>;
  /** Changed properties whose change drops a running compute's connections, or may. */
  drops: string[];
  mayDrop: string[];
}

export function planChange(declaration: Declaration, olds: Props, news: Props, skip: string[] = []): Plan {
  const changed = Object.keys(declaration.inputs).filter(
    (p) => !skip.includes(p) && inputChanged(declaration, p, olds, news),
  );
  const where = (test: (row: InputRow) => boolean) => changed.filter((p) => test(declaration.inputs[p]));
  const by = { replace: [], update: [], action: [], record: [], refused: [] } as Record<Change, string[]>;
  for (const p of changed) by[declaration.inputs[p].change].push(p);
  return {
    changed,
    by,
    drops: where((row) => row.connections === "drop"),
    mayDrop: where((row) => row.connections === "may-drop"),
  };
}

/** The request body carrying `properties` of `news` under their API fields (nested for a dotted path). */
export function apiBody(declaration: Declaration, news: Props, properties: readonly string[]): Props {
  const body: Props = {};
  for (const property of properties) {
    const row = declaration.inputs[property];
    const value = news[property];
    if (row?.api === undefined || value === undefined) continue;
    const keys = row.api.split(".");
    let at = body;
    for (const key of keys.slice(0, -1)) at = (at[key] ??= {}) as Props;
    at[keys[keys.length - 1]] = row.object && value !== null ? toApi(row.object, value as Props) : value;
  }
  return body;
}

/**
 * The outputs read from the service's `record` (rows with an `api` field; a field the record lacks is left out; a
 * named object type's value in the program's names), then `extra`, what the resource's hooks add (the project the
 * record does not name, a password, …).
 */
export function outputsFrom(declaration: Pick<Declaration, "outputs">, record: object, extra: Props = {}): Props {
  const outputs: Props = {};
  for (const [name, row] of Object.entries(declaration.outputs)) {
    if (row.api === undefined) continue;
    const found = row.api.split(".").reduce<unknown>((at, key) => (at as Props | undefined)?.[key], record);
    const value = row.object ? fromApi(row.object, found) : found;
    if (value !== undefined) outputs[name] = value;
  }
  return { ...outputs, ...extra };
}

/**
 * The inputs a refresh records: each program input the outputs carry under its own name (`project` in, `project`
 * out), so that drift shows in the next preview as a difference from the program.
 */
export function recordedInputs(declaration: Declaration, outputs: Props): Props {
  const names = programInputs(declaration).filter((p) => declaration.outputs[p] !== undefined);
  // One the outputs lack (an adoptId no longer set) is left out: the engine's Struct has no undefined.
  return Object.fromEntries(names.filter((p) => outputs[p] !== undefined).map((p) => [p, outputs[p]]));
}

/** The inputs a program may set (not the ones the class sets), in declaration order. */
export const programInputs = (declaration: Declaration): string[] =>
  Object.keys(declaration.inputs).filter((p) => !declaration.inputs[p].internal);

/** Every output, in declaration order (the class's `declare readonly` list; dynamic-class.ts `constructedWith`). */
export const outputNames = (declaration: Declaration): string[] => Object.keys(declaration.outputs);

/** The outputs that are secrets (`additionalSecretOutputs`). */
export const secretOutputs = (declaration: Declaration): string[] =>
  outputNames(declaration).filter((p) => declaration.outputs[p].secret);

/**
 * The outputs of an update that sends nothing (only inputs the service knows nothing of changed): the object as last
 * read, with those inputs as the program now gives them, and `declared` as the resource records it.
 */
export function recordedOutputs(olds: Props, news: Props, carried: readonly string[], declared: string[]): Props {
  const outputs: Props = { ...olds, declared };
  for (const name of carried) {
    if (news[name] === undefined) delete outputs[name];
    else outputs[name] = news[name];
  }
  return outputs;
}
