/**
 * Creating a branch without duplicates, orphans, or taking anyone's branch.
 *
 * - Names are unique in a project. A name some branch already has is refused **before** anything is created, naming
 *   that branch (refusal.ts): Pulumi never takes over a branch by accident (`adoptId` does it on purpose:
 *   existing.ts). The one exception is this resource's own old branch during a replacement (below): it is renamed
 *   out of the way, and renamed back if the create fails.
 * - A create whose response was lost (kind `ambiguous`) is settled by reading the project's branches by that name,
 *   inside the project lock (the client's `recover`): it was free just before (checked under a per-process lock of
 *   the name: shared/name-lock.ts), so a branch with it now is the one this create made, and its operations are
 *   waited for as if the response had arrived. Only when none has it is the create sent again: never a duplicate.
 * - A branch that exists but whose operations failed or timed out is reported with its id (ResourceInitError), so the
 *   engine keeps it in state and nothing is orphaned.
 */
import type { Branch } from "../../client";
import { randomBytes } from "crypto";
import { warn } from "../shared/diagnostics";
import { createdIdOf, errorKind, ResourceInitError } from "../shared/errors";
import { createSettled, recordedAsItIs } from "../shared/lifecycle";
import { withNameLock } from "../shared/name-lock";
import { client } from "../shared/runtime";
import { stableJson } from "../shared/stable-json";
import { labelOf, nameTaken, notAppliedError, protectedReplacement } from "./refusal";
import { Origin, originOf, outputsWith, toCreateBody } from "./state";

type Props = Record<string, unknown>;

/** A created branch, its annotations as the service keeps them (when the program set some) and its origin. */
export interface Created {
  branch: Branch;
  annotation?: Record<string, string>;
  origin: Origin;
}

/** Creates the branch `inputs` declare (name filled in by check); see the module's doc. */
export async function createBranch(inputs: Props): Promise<Created> {
  const projectId = String(inputs.projectId);
  const name = String(inputs.name ?? inputs.resourceName);
  const { branch, origin } = await withNameLock(projectId, name, async () => {
    const branches = await client().branches.list(projectId);
    refuseProtectedReplacement(inputs, branches);
    const parentId = typeof inputs.parentId === "string" ? inputs.parentId : branches.find((b) => b.default)?.id;
    const existing = branches.find((b) => b.name === name);
    const parked = existing ? await makeRoomFor(inputs, existing) : undefined;
    try {
      return { branch: await send(inputs, parentId, name), origin: originOf(inputs, parentId) };
    } catch (error) {
      if (parked) await unpark(projectId, parked, name);
      throw error;
    }
  });
  if (inputs.annotations === undefined) return { branch, origin };
  return { branch, origin, annotation: await checkedAnnotations(branch, inputs, origin) };
}

/** Sends the create, settling lost responses by the name; see the module's doc. */
async function send(inputs: Props, parentId: string | undefined, name: string): Promise<Branch> {
  const projectId = String(inputs.projectId);
  const body = toCreateBody({ ...inputs, name }, parentId);
  const recover = () => findMade(projectId, name);
  try {
    return (await createSettled(() => client().branches.create(projectId, body, { recover }))).branch;
  } catch (error) {
    throw await failedCreate(inputs, name, parentId, error);
  }
}

/** The branch named `name` (free before this create, under the name lock): the one the lost create made. */
async function findMade(projectId: string, name: string): Promise<Branch | undefined> {
  return (await client().branches.list(projectId)).find((b) => b.name === name);
}

/**
 * A create that replaces this resource's own old branch (below), protected: refused before anything is
 * created, whatever the new branch's name, as Neon would refuse to delete the old one after the new one exists.
 */
function refuseProtectedReplacement(inputs: Props, branches: Branch[]): void {
  const old = branches.find((b) => b.protected && isOwnOldBranch(inputs, b));
  if (!old) return;
  const label = labelOf(old.id, { resourceName: inputs.resourceName });
  throw new Error(protectedReplacement(label, old.id, "a replacement Pulumi decided"));
}

/**
 * Another branch has the name. This resource's own old branch (a replacement; not a protected one, refused before)
 * is renamed out of the way; any other branch is refused, named, with how to adopt it.
 */
async function makeRoomFor(inputs: Props, existing: Branch): Promise<Branch | undefined> {
  const label = labelOf(existing.id, { resourceName: inputs.resourceName });
  if (!isOwnOldBranch(inputs, existing)) throw new Error(nameTaken(inputs, existing));
  const parking = parkingName(existing.name);
  await client().branches.update(String(inputs.projectId), existing.id, { name: parking });
  warn(
    `${label} is being replaced: it was renamed ${JSON.stringify(parking)} so that the new branch can take its name ` +
      `${JSON.stringify(existing.name)} (names are unique in a project); Pulumi deletes it once the new branch is ` +
      `in place.`,
  );
  return existing;
}

/** `<name>-replaced-<mark>`, within the 256 characters a name may have. */
function parkingName(name: string): string {
  const suffix = `-replaced-${randomBytes(4).toString("hex")}`;
  return `${name.slice(0, 256 - suffix.length)}${suffix}`;
}

/** The create failed: the old branch takes its name back, or the user is told how. */
async function unpark(projectId: string, old: Branch, name: string): Promise<void> {
  try {
    await client().branches.update(projectId, old.id, { name });
  } catch {
    warn(
      `branch ${old.id} was renamed so that its replacement could take the name ${JSON.stringify(name)}, and the ` +
        `replacement failed; renaming it back failed too: rename it to ${JSON.stringify(name)} in the Neon console`,
    );
  }
}

/**
 * A create failed. A branch that exists (the client names it in `resourceId` when waiting failed) is reported with its
 * id so the engine keeps it; a name taken meanwhile names its holder. Anything else stands.
 */
async function failedCreate(inputs: Props, name: string, parentId: string | undefined, error: unknown) {
  const projectId = String(inputs.projectId);
  const createdId = createdIdOf(error);
  if (createdId) {
    const origin = originOf(inputs, parentId);
    return recordedAsItIs(createdId, inputs, error, {
      read: async () =>
        outputsWith((await client().branches.get(projectId, createdId)).branch, undefined, inputs, origin),
      unread: { ...inputs, branchId: createdId, origin, name },
    });
  }
  if (errorKind(error) === "conflict" || /already exists/i.test((error as { apiMessage?: string }).apiMessage ?? "")) {
    const holder = await findMade(projectId, name).catch(() => undefined);
    if (holder) return new Error(`${(error as Error).message}: ${nameTaken(inputs, holder)}`, { cause: error });
  }
  return error;
}

/**
 * The annotations of a new branch as the service keeps them: the create sends them (`annotation_value`, OpenAPI
 * `createProjectBranch`), and they are read back (a write is checked by what it did, not only that it succeeded). A
 * branch that did not keep them is kept in state as it is, and the step fails saying so.
 */
async function checkedAnnotations(branch: Branch, inputs: Props, origin: Origin): Promise<Record<string, string>> {
  const projectId = String(inputs.projectId);
  const read = await client().branches.get(projectId, branch.id);
  const kept = read.annotation?.value ?? {};
  if (annotationsApplied(kept, inputs.annotations)) return kept;
  const error = notAppliedError(branch.id, inputs);
  throw new ResourceInitError(branch.id, outputsWith(read.branch, kept, inputs, origin), error, inputs, error.message);
}

/** True when the service keeps exactly the annotations the program asks for. */
function annotationsApplied(kept: Record<string, string> | undefined, wanted: unknown): boolean {
  return stableJson(kept ?? {}) === stableJson(wanted ?? {});
}

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
 * branch out of the way) only from a branch this resource holds: same project, resource name and branch name, and the
 * id Diff saw when it saw one. Anything else with the name is refused, naming it (refusal.ts `nameTaken`). A targeted
 * `pulumi up --replace` is the one replacement the provider cannot see: the engine then checks the inputs without the
 * old ones and calls no Diff, so its Create looks like any first create, and a kept name is refused (with what to do
 * instead). The same knowledge lets Create refuse to replace a protected branch, whatever the new name: Neon would
 * refuse to delete the old one.
 */

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
 * True when `existing` (a branch of the project `inputs` create in) is the branch the state holds for this resource:
 * a replacement's old branch, which may give up its name.
 */
function isOwnOldBranch(inputs: Props, existing: { id: string; name: string }): boolean {
  const record = held.get(keyOf(inputs.projectId, inputs.resourceName));
  if (!record || record.name !== existing.name) return false;
  return record.id === undefined || record.id === existing.id;
}
