/**
 * The engine's own property logic around a provider's Diff, from pulumi/pulumi v3.248.0:
 * - `processIgnoreChanges` (step_generator.go): each ignoreChanges path of the new inputs is reset to the old value;
 * - `applyReplaceOnChanges` (step_generator.go): replaceOnChanges turns *changed keys* into replace keys; a dynamic
 *   provider's Diff reports no changed keys (the Node.js plugin forwards only changes, replaces and
 *   deleteBeforeReplace), so the option only acts when the engine computed the keys itself (DIFF_UNKNOWN);
 * - the input comparison of `diffResource` for DIFF_UNKNOWN (PropertyMap.Diff: top-level keys, `__provider` included).
 * Property paths follow resource.ParsePropertyPath: `a.b`, `a[0]`, `a["b.c"]`, `*`.
 */
import { deepEquals, isObject, Props, Value } from "./values";

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

/** processIgnoreChanges: `inputs` with every ignored path reset to its old value (or removed when it had none). */
export function processIgnoreChanges(inputs: Props, oldInputs: Props, ignoreChanges: readonly string[]): Props {
  const result = structuredClone(inputs);
  for (const path of ignoreChanges) {
    const segments = parsePath(path);
    if (segments) resetPath(result, oldInputs, segments);
  }
  return result;
}

type Container = Record<string | number, Value>;

/** PropertyPath.Reset: copies the old value at `segments` into `target` (a wildcard expands over the old value). */
function resetPath(target: Value, old: Value, segments: Segment[]): void {
  if (!isContainer(target) || !isContainer(old)) return;
  const [head, ...rest] = segments;
  for (const key of head === "*" ? Object.keys(old) : [head]) {
    if (rest.length > 0) resetPath(target[key], old[key], rest);
    else if (old[key] === undefined) delete target[key];
    else target[key] = structuredClone(old[key]);
  }
}

function isContainer(value: Value): value is Container {
  return isObject(value) || Array.isArray(value);
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
  return { ...diff, changes, replaceKeys: [...replaceKeys] };
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
