/**
 * The deletes this plugin process is running now, by what they delete. Pulumi sends the deletes of resources it sees
 * no dependency between at once, to one plugin process: a Role and a Database whose `ownerName` is a plain string
 * (not the Role's output) are such a pair, and Neon refuses the role's delete while the database stands. The role's
 * delete then waits here for the database's (role/refusal.ts) instead of failing an `up` that a second run gets past.
 *
 * A delete is registered from the moment its RPC starts (before its reads), so one still reading is seen too.
 */

/** What a delete removes: its kind and address. */
export interface DeleteTarget {
  kind: "database" | "role";
  projectId: string;
  branchId: string;
  name: string;
}

const running = new Map<string, Set<Promise<unknown>>>();

const keyOf = (t: DeleteTarget): string => JSON.stringify([t.kind, t.projectId, t.branchId, t.name]);

/** Runs `remove`, registered as the delete of `target` until it settles. */
export async function trackDelete<T>(target: DeleteTarget, remove: () => Promise<T>): Promise<T> {
  const key = keyOf(target);
  const promise = remove();
  const set = running.get(key) ?? new Set<Promise<unknown>>();
  running.set(key, set.add(promise));
  try {
    return await promise;
  } finally {
    set.delete(promise);
    if (set.size === 0) running.delete(key);
  }
}

/** The deletes of these targets running in this process now (empty when none is). */
export function deletesRunning(targets: DeleteTarget[]): Promise<unknown>[] {
  return targets.flatMap((t) => [...(running.get(keyOf(t)) ?? [])]);
}
