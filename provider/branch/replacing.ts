/**
 * What this plugin process knows about the branches the state holds, so that a replacement can take its own branch's
 * name, and nothing else can.
 *
 * Branch names are unique in a project (a taken name answers 409: emulator/README.md, neondatabase/neon-pkgs#307), and
 * Pulumi replaces by creating the new branch before deleting the old one: a replacement that keeps the name (the
 * default name is the resource's) would meet its own old branch. Create gets no old state, but the same process saw it
 * first: the engine checks a registration with its old inputs before it replaces it for a diff or a new
 * `replacementTrigger`, and a Diff that plans a replacement has the old branch's id (pulumi/pulumi step_generator.go,
 * generateSteps and generateStepsFromDiff; every Diff notes the id). Create takes the name over (renaming the old
 * branch out of the way) only from a branch this resource holds: same project, resource name and branch name, and the id Diff saw when it saw
 * one. Anything else with the name is refused, naming it (create.ts). A targeted `pulumi up --replace` is the one
 * replacement the provider cannot see: the engine then checks the inputs without the old ones and calls no Diff, so
 * its Create looks like any first create, and a kept name is refused (with what to do instead). The same knowledge
 * lets Create refuse to replace a protected branch, whatever the new name: Neon would refuse to delete the old one.
 *
 * Names are also locked per process while a create or rename runs, so that two resources of one `up` asking for one
 * name cannot both see it free, and a create whose response was lost cannot take the other's branch for its own.
 */

type Props = Record<string, unknown>;

interface Held {
  /** The branch name the state holds for the resource (its old inputs'). */
  name: unknown;
  /** The id of the branch, when a Diff of this process saw it (a replacement a diff decides). */
  id?: string;
}

const held = new Map<string, Held>();

const keyOf = (projectId: unknown, resourceName: unknown) => `${String(projectId)}\n${String(resourceName)}`;

/** Check with old inputs: the state holds this resource, under this branch name. */
export function noteHeld(olds: Props): void {
  if (Object.keys(olds).length === 0 || olds.resourceName === undefined) return;
  const key = keyOf(olds.projectId, olds.resourceName);
  held.set(key, { ...held.get(key), name: olds.name });
}

/**
 * Diff saw branch `id` (old outputs `olds`): the old branch is then known by its id, so that a branch that took the
 * old name meanwhile (the old one renamed outside Pulumi, another made with its name) does not pass for this
 * resource's own. A new `replacementTrigger` replaces without a Diff (step_generator.go generateStepsFromDiff:
 * `triggerReplace` skips `sg.diff`), so there only Check's note stands: the old branch is known by its name.
 */
export function noteSeen(id: string, olds: Props): void {
  if (olds.resourceName === undefined) return;
  const key = keyOf(olds.projectId, olds.resourceName);
  held.set(key, { name: held.get(key)?.name ?? olds.name, id });
}

/**
 * Why a protected branch is not replaced, and what to do. `protected: false` in the same up would unprotect only the
 * new branch: the old one must be unprotected by an up of its own first.
 */
export function protectedReplacement(label: string, id: string, why: string): string {
  return (
    `${label} cannot be replaced (${why}): it is protected, and Neon does not delete a protected branch, so the ` +
    `replacement would make the new branch and then fail to delete ${id}. Nothing was changed. Unprotect it first ` +
    `in an up of its own (protected: false, without this change; in the same up, protected: false would apply to ` +
    `the new branch only), then make this change.`
  );
}

/**
 * True when `existing` (a branch of the project `inputs` create in) is the branch the state holds for this resource:
 * a replacement's old branch, which may give up its name.
 */
export function isOwnOldBranch(inputs: Props, existing: { id: string; name: string }): boolean {
  const record = held.get(keyOf(inputs.projectId, inputs.resourceName));
  if (!record || record.name !== existing.name) return false;
  return record.id === undefined || record.id === existing.id;
}

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
