/**
 * The engine's own property logic around a provider's Diff, from pulumi/pulumi v3.248.0:
 * - `processIgnoreChanges` (step_generator.go): each ignoreChanges path of the new inputs is reset to the old value;
 * - `applyReplaceOnChanges` (step_generator.go): replaceOnChanges turns *changed keys* into replace keys; a dynamic
 *   provider's Diff reports no changed keys (the Node.js plugin forwards only changes, replaces and
 *   deleteBeforeReplace), so the option only acts when the engine computed the keys itself (DIFF_UNKNOWN);
 * - the input comparison of `diffResource` for DIFF_UNKNOWN (PropertyMap.Diff: top-level keys, `__provider` included,
 *   with the detailed diff of changed leaf paths, which replaceOnChanges also acts on: `DiffResult.Replace`).
 * Property paths follow resource.ParsePropertyPath: `a.b`, `a[0]`, `a["b.c"]`, `*`.
 */
import { deepEquals, isObject, isSecret, Props, secret, Value } from "./values";

type Segment = string | number;

/** Parses a property path; `undefined` when it is malformed (the engine skips such a path). */
export function parsePath(path: string): Segment[] | undefined {
  const segments: Segment[] = [];
  let at = 0;
  while (at < path.length) {
    if (path[at] === "[") {
      const close = path.indexOf("]", at);
      const inner = close < 0 ? "" : path.slice(at + 1, close);
      if (inner === "*" || /^\d+$/.test(inner)) segments.push(inner === "*" ? "*" : Number(inner));
      else if (/^".*"$/.test(inner)) segments.push(JSON.parse(inner) as string);
      else return undefined;
      at = close + 1;
      continue;
    }
    if (path[at] === ".") {
      if (segments.length === 0) return undefined;
      at++;
    }
    const key = /^[^.[\]]+/.exec(path.slice(at))?.[0];
    if (!key) return undefined;
    segments.push(key);
    at += key.length;
  }
  return segments.length > 0 ? segments : undefined;
}

/**
 * processIgnoreChanges: `inputs` with every ignored path reset to its old value, by PropertyPath.Reset; `invalid`
 * lists the paths that could not be reset (the engine reports them: "cannot ignore changes in added or removed
 * elements of the path").
 */
export function processIgnoreChanges(inputs: Props, oldInputs: Props, ignoreChanges: readonly string[]): Props {
  return ignoreChangesWithReport(inputs, oldInputs, ignoreChanges).inputs;
}

export function ignoreChangesWithReport(inputs: Props, oldInputs: Props, ignoreChanges: readonly string[]) {
  const result = structuredClone(inputs);
  const invalid: string[] = [];
  for (const path of ignoreChanges) {
    const segments = parsePath(path);
    if (segments && !reset(segments, oldInputs, result, false, false)) invalid.push(path);
  }
  return { inputs: result, invalid };
}

/**
 * PropertyPath.reset (sdk/go/common/resource/properties_path.go): secrets are looked through at every level (a reset
 * value from a secret context into a plain one is made secret), a leaf `*` copies every key of the old object and
 * removes the new keys the old did not have, and no array index is created or removed.
 */
function reset(path: Segment[], oldValue: Value, newValue: Value, oldSecret: boolean, newSecret: boolean): boolean {
  if (path.length === 0) return false;
  const old = reveal1(oldValue);
  const neu = reveal1(newValue);
  const [oldIsSecret, newIsSecret] = [oldSecret || old !== oldValue, newSecret || neu !== newValue];
  const carry = (v: Value) => (oldIsSecret && !newIsSecret ? secret(v) : v);
  const [key, ...rest] = path;
  if (typeof key === "number") return resetIndex(key, rest, old, neu, carry, [oldIsSecret, newIsSecret]);
  if (key === "*") return resetAll(rest, old, neu, carry, [oldIsSecret, newIsSecret]);
  if (rest.length === 0) {
    if (isObject(old) && key in old) {
      if (!isObject(neu)) return false;
      neu[key] = carry(old[key]);
    } else if (isObject(neu)) delete neu[key];
    return true;
  }
  if (!isObject(old) || !isObject(neu)) return !isObject(old) && !isObject(neu);
  const [hasOld, hasNew] = [key in old, key in neu];
  if (hasOld && !hasNew) return false;
  if (!hasOld && !hasNew) return true;
  return reset(rest, old[key], neu[key], oldIsSecret, newIsSecret);
}

type Carry = (v: Value) => Value;

function resetIndex(key: number, rest: Segment[], old: Value, neu: Value, carry: Carry, secrets: boolean[]): boolean {
  // Neither an array: nothing to reset there; only one of them: a path error.
  if (!Array.isArray(old) || !Array.isArray(neu)) return !Array.isArray(old) && !Array.isArray(neu);
  if (rest.length === 0) {
    if (key >= old.length && key >= neu.length) return true;
    if (key >= old.length || key >= neu.length) return false;
    neu[key] = carry(old[key]);
    return true;
  }
  if (key >= old.length || key >= neu.length) return false;
  return reset(rest, old[key], neu[key], secrets[0], secrets[1]);
}

function resetAll(rest: Segment[], old: Value, neu: Value, carry: Carry, secrets: boolean[]): boolean {
  if (rest.length === 0) {
    if (isObject(neu)) {
      if (isObject(old)) {
        for (const k of Object.keys(old)) neu[k] = carry(old[k]);
        for (const k of Object.keys(neu)) if (!(k in old)) delete neu[k];
      }
      return true;
    }
    if (!Array.isArray(neu)) return false;
    if (!Array.isArray(old)) return true;
    for (let i = 0; i < old.length && i < neu.length; i++) neu[i] = carry(old[i]);
    return old.length === neu.length;
  }
  if (isObject(old) && isObject(neu)) {
    return Object.keys(old).every((k) => k in neu && reset(rest, old[k], neu[k], secrets[0], secrets[1]));
  }
  if (Array.isArray(old) && Array.isArray(neu)) {
    for (let i = 0; i < old.length && i < neu.length; i++)
      if (!reset(rest, old[i], neu[i], secrets[0], secrets[1])) return false;
    return old.length === neu.length;
  }
  return false;
}

/** unwrapSecrets: the value inside any secret wrappers. */
function reveal1(value: Value): Value {
  return isSecret(value) ? reveal1(value.value) : value;
}

/** PropertyPath.Contains: `path` is a prefix of `other`, `*` matching any one segment. */
export function pathContains(path: Segment[], other: Segment[]): boolean {
  if (path.length > other.length) return false;
  return path.every((segment, i) => segment === "*" || String(segment) === String(other[i]));
}

export interface DiffLike {
  changes: "unknown" | "none" | "some";
  replaceKeys: string[];
  changedKeys: string[];
  deleteBeforeReplace?: boolean;
  /**
   * The engine's detailed diff: the changed leaf paths (NewDetailedDiffFromObjectDiff), only for its own DIFF_UNKNOWN
   * comparison (a dynamic provider's Diff sends none). `replace` marks those that replaceOnChanges turned into replaces.
   */
  detailedDiff?: { path: Segment[]; replace: boolean }[];
}

/** DiffResult.Replace: a replace key, or an entry of the detailed diff that is a replacement. */
export function isReplace(diff: DiffLike): boolean {
  return diff.replaceKeys.length > 0 || (diff.detailedDiff ?? []).some((entry) => entry.replace);
}

/** The special key that stands for "the last operation left init errors" (initErrorSpecialKey). */
export const INIT_ERROR_KEY = "#initerror";

/** applyReplaceOnChanges: changed keys under a replaceOnChanges path become replace keys; so do init errors. */
export function applyReplaceOnChanges<D extends DiffLike>(
  diff: D,
  replaceOnChanges: readonly string[],
  hasInitErrors: boolean,
): D {
  if (diff.changes !== "some" && !hasInitErrors) return diff;
  const paths = replaceOnChanges.map(parsePath).filter((p): p is Segment[] => p !== undefined);
  const detailedDiff = diff.detailedDiff?.map((entry) => ({
    path: entry.path,
    replace: entry.replace || paths.some((path) => pathContains(path, entry.path)),
  }));
  const replaceKeys = new Set(diff.replaceKeys);
  for (const key of diff.changedKeys) {
    const keyPath = parsePath(key);
    if (keyPath && paths.some((path) => pathContains(path, keyPath))) replaceKeys.add(key);
  }
  let changes = diff.changes;
  if (hasInitErrors && paths.some((path) => pathContains(path, [INIT_ERROR_KEY]))) {
    replaceKeys.add(INIT_ERROR_KEY);
    changes = "some";
  }
  return { ...diff, changes, replaceKeys: [...replaceKeys], ...(detailedDiff ? { detailedDiff } : {}) };
}

/**
 * diffResource's handling of a provider's answer: DIFF_UNKNOWN (no `changes`) becomes the engine's own comparison of
 * the inputs (ignoreChanges applied, `__provider` included), with the changed keys it found.
 */
export function resolveUnknownDiff<D extends DiffLike>(
  answer: D,
  oldInputs: Props,
  newInputs: Props,
  ignoreChanges: readonly string[],
): D {
  if (answer.changes !== "unknown") return answer;
  const news = processIgnoreChanges(newInputs, oldInputs, ignoreChanges);
  const changedKeys = inputDiff(oldInputs, news, true);
  if (changedKeys.length === 0) return { ...answer, changes: "none", changedKeys };
  const detailedDiff = changedPaths([], oldInputs, news).map((path) => ({ path, replace: false }));
  return { ...answer, changes: "some", changedKeys, detailedDiff };
}

/**
 * The leaf paths where two values differ (objectDiffToDetailedDiff / valueDiffToDetailedDiff): objects and arrays on
 * both sides are walked key by key and index by index (secrets looked through); anything else is one changed leaf.
 */
function changedPaths(prefix: Segment[], olds: Value, news: Value): Segment[][] {
  const [old, neu] = [reveal1(olds), reveal1(news)];
  if (isObject(old) && isObject(neu)) {
    const keys = new Set([...Object.keys(old), ...Object.keys(neu)]);
    return [...keys].flatMap((key) => changedPaths([...prefix, key], old[key], neu[key]));
  }
  if (Array.isArray(old) && Array.isArray(neu)) {
    const length = Math.max(old.length, neu.length);
    return Array.from({ length }, (_, i) => changedPaths([...prefix, i], old[i], neu[i])).flat();
  }
  return deepEquals(olds, news) ? [] : [prefix];
}

/**
 * The top-level input keys whose values differ (PropertyMap.Diff's changed keys). `__provider` counts only for the
 * engine's own DIFF_UNKNOWN comparison; a display of "what changed" leaves it out.
 */
export function inputDiff(olds: Props, news: Props, includeProvider = false): string[] {
  const keys = new Set([...Object.keys(olds), ...Object.keys(news)]);
  if (!includeProvider) keys.delete("__provider");
  return [...keys].filter((key) => !deepEquals(olds[key], news[key])).sort();
}
