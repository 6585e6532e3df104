/**
 * Names unique in a project (a branch's) are locked per plugin process while a create or a rename that uses one runs:
 * two resources of one `up` asking for one name cannot both see it free, and a create whose response was lost cannot
 * take the other's object for its own (it finds by that name what it made: lifecycle.ts `createSettled`).
 */

const locks = new Map<string, Promise<void>>();

/** Runs `fn` while no other create or rename of this process uses the name `name` of the project. */
export async function withNameLock<T>(projectId: string, name: string, fn: () => Promise<T>): Promise<T> {
  const key = `${projectId}\n${name}`;
  const previous = locks.get(key) ?? Promise.resolve();
  let release!: () => void;
  const mine = new Promise<void>((resolve) => (release = resolve));
  const tail = previous.then(() => mine);
  locks.set(key, tail);
  await previous;
  try {
    return await fn();
  } finally {
    release();
    if (locks.get(key) === tail) locks.delete(key);
  }
}
