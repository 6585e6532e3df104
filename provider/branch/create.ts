/**
 * Creating a branch without duplicates, orphans, or taking anyone's branch.
 *
 * - Names are unique in a project. A name some branch already has is refused **before** anything is created, naming
 *   that branch: Pulumi never takes over a branch by accident (`adoptId` does it on purpose). The one exception is
 *   this resource's own old branch during a replacement (existing.ts): it is renamed out of the way, and renamed
 *   back if the create fails.
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
import { labelOf } from "./plan";
import { Origin, originOf, outputsWith, toCreateBody } from "./state";
import { isOwnOldBranch, protectedReplacement } from "./existing";

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
 * A create that replaces this resource's own old branch (existing.ts), protected: refused before anything is
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

/** The refusal of a name another branch has (the service's 409, or the check before creating). */
function nameTaken(inputs: Props, existing: Branch): string {
  const id = existing.id;
  return (
    `a branch named ${JSON.stringify(existing.name)} already exists in project ${String(inputs.projectId)}: ${id}. ` +
    `Pulumi does not take over an existing branch by accident. Which case is yours? ` +
    `(1) The resource was renamed or moved under a new parent: give it an alias to its old name or place ` +
    `(aliases: [{ parent: <the old parent> }], or pulumi.rootStackResource if it had none); it then keeps its branch. ` +
    `(2) pulumi up --replace of this resource (Pulumi creates the new branch before deleting the old one, and tells ` +
    `the provider nothing of the old one): give the branch a new name in the same up, or use a new value of the ` +
    `resource option replacementTrigger instead (the old branch then gives up its name). ` +
    `(3) An interrupted pulumi up created it (Pulumi warned of a pending create), or it was made outside Pulumi and ` +
    `this resource should manage it: set adoptId: "${id}" (remove it after the next up). ` +
    `(4) It is another branch: choose another name (the name input; it defaults to the resource's name). ` +
    `Nothing was created.`
  );
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
    const holder = (
      await client()
        .branches.list(projectId)
        .catch(() => [])
    ).find((b) => b.name === name);
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
 * The error of a create whose branch did not keep the annotations it was created with (read back above). Names no
 * annotation value.
 */
function notAppliedError(id: string, props: Props): Error {
  return new Error(
    `${labelOf(id, props)}: the branch was created, but the service did not keep the annotations it was created ` +
      `with. Neon sets a branch's annotations only when it creates it. The state records the annotations the ` +
      `service has (the annotations output). To give the branch these annotations, recreate it with a new value of ` +
      `the resource option replacementTrigger (a new branch from its parent's data: this branch's own changes are ` +
      `deleted with it), or set annotations to what the service has. See docs/resources.md#branch (Annotations after creation)`,
  );
}
