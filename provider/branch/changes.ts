/**
 * A branch created, and updated. A create refuses a name another branch has before sending anything (refusal.ts
 * `nameTaken`), but for this resource's own old branch in a replacement, renamed out of the way (and back if the create
 * fails); a lost response is settled by the name (shared/name-lock.ts, lifecycle.ts `createSettled`); a branch made
 * but not ready is recorded with its id (ResourceInitError), so nothing is orphaned. An update is one PATCH of what
 * changed, then, for a new `resetTriggers` value, a reset from the parent at its head (OpenAPI `restoreProjectBranch`
 * with `source_branch_id` the parent, as neonctl's `branches reset --parent` sends).
 */
import type { Branch } from "../../client";
import { randomBytes } from "crypto";
import { warn } from "../shared/diagnostics";
import { createdIdOf, errorKind, ResourceInitError } from "../shared/errors";
import { instantOf, sameInstant } from "../shared/instants";
import { createSettled, recordedAsItIs } from "../shared/lifecycle";
import { withNameLock } from "../shared/name-lock";
import { client } from "../shared/runtime";
import { stableJson } from "../shared/stable-json";
import {
  Origin,
  originIn,
  originOf,
  outputsWith,
  planBranchChange,
  recordedOutputs,
  toCreateBody,
  toPatchFields,
} from "./plan";
import {
  annotationsChangeError,
  childrenNamed,
  labelOf,
  nameTaken,
  notAppliedError,
  protectedReplacement,
} from "./refusal";

type Props = Record<string, unknown>;

/** A created (or adopted) branch, its annotations as the service keeps them, and its origin. */
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
      return { branch: await send(inputs, parentId, name), origin: originOf({ ...inputs, parentId }) };
    } catch (error) {
      if (parked) await unpark(projectId, parked, name);
      throw error;
    }
  });
  if (inputs.annotations === undefined) return { branch, origin };
  return { branch, origin, annotation: await checkedAnnotations(branch, inputs, origin) };
}

async function send(inputs: Props, parentId: string | undefined, name: string): Promise<Branch> {
  const projectId = String(inputs.projectId);
  const body = toCreateBody({ ...inputs, name }, parentId);
  const recover = () => findNamed(projectId, name);
  try {
    return (await createSettled(() => client().branches.create(projectId, body, { recover }))).branch;
  } catch (error) {
    throw await failedCreate(inputs, name, parentId, error);
  }
}

const findNamed = async (projectId: string, name: string): Promise<Branch | undefined> =>
  (await client().branches.list(projectId)).find((b) => b.name === name);

/** This resource's own old branch, protected: Neon would refuse to delete it once the new one exists. */
function refuseProtectedReplacement(inputs: Props, branches: Branch[]): void {
  const old = branches.find((b) => b.protected && isOwnOldBranch(inputs, b));
  if (!old) return;
  const label = labelOf(old.id, { resourceName: inputs.resourceName });
  throw new Error(protectedReplacement(label, old.id, "a replacement Pulumi decided"));
}

/** Another branch has the name: this resource's own old branch is renamed out of the way; any other is refused. */
async function makeRoomFor(inputs: Props, existing: Branch): Promise<Branch | undefined> {
  const label = labelOf(existing.id, { resourceName: inputs.resourceName });
  if (!isOwnOldBranch(inputs, existing)) throw new Error(nameTaken(inputs, existing));
  const suffix = `-replaced-${randomBytes(4).toString("hex")}`;
  const parking = `${existing.name.slice(0, 256 - suffix.length)}${suffix}`; // names have at most 256 characters
  await client().branches.update(String(inputs.projectId), existing.id, { name: parking });
  warn(
    `${label} is being replaced: it was renamed ${JSON.stringify(parking)} so that the new branch can take its name ` +
      `${JSON.stringify(existing.name)} (names are unique in a project); Pulumi deletes it once the new branch is ` +
      `in place.`,
  );
  return existing;
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

/** A branch made (the error's `resourceId`) is recorded with its id; a name taken meanwhile names its holder. */
async function failedCreate(inputs: Props, name: string, parentId: string | undefined, error: unknown) {
  const projectId = String(inputs.projectId);
  const createdId = createdIdOf(error);
  if (createdId) {
    const origin = originOf({ ...inputs, parentId });
    return recordedAsItIs(createdId, inputs, error, {
      read: async () =>
        outputsWith((await client().branches.get(projectId, createdId)).branch, undefined, inputs, origin),
      unread: { ...inputs, branchId: createdId, origin, name },
    });
  }
  if (errorKind(error) === "conflict" || /already exists/i.test((error as { apiMessage?: string }).apiMessage ?? "")) {
    const holder = await findNamed(projectId, name).catch(() => undefined);
    if (holder) return new Error(`${(error as Error).message}: ${nameTaken(inputs, holder)}`, { cause: error });
  }
  return error;
}

/** The new branch's annotations, read back; one that did not keep them is recorded as it is, and the step fails. */
async function checkedAnnotations(branch: Branch, inputs: Props, origin: Origin): Promise<Record<string, string>> {
  const read = await client().branches.get(String(inputs.projectId), branch.id);
  const kept = read.annotation?.value ?? {};
  if (stableJson(kept) === stableJson(inputs.annotations ?? {})) return kept;
  const error = notAppliedError(branch.id, inputs);
  throw new ResourceInitError(branch.id, outputsWith(read.branch, kept, inputs, origin), error, inputs, error.message);
}

/**
 * The branches this process knows the state holds, so that a replacement takes over its own old branch's name and no
 * other. Pulumi creates the new branch before deleting the old one, and Create gets no old state; but the engine
 * checks the old inputs first (`noteHeld`), and a Diff that plans the replacement has the old id (`noteSeen`;
 * pulumi/pulumi step_generator.go). A new `replacementTrigger` replaces without a Diff (`triggerReplace`): the name
 * alone then says it. `pulumi up --replace` checks without old inputs: a kept name is refused (refusal.ts `nameTaken`).
 */
const held = new Map<string, { name: unknown; id?: string }>();

const keyOf = (props: Props) => `${String(props.projectId)}\n${String(props.resourceName)}`;

/** Check with old inputs: the state holds this resource under this branch name. */
export function noteHeld(olds: Props): void {
  if (Object.keys(olds).length === 0 || olds.resourceName === undefined) return;
  held.set(keyOf(olds), { ...held.get(keyOf(olds)), name: olds.name });
}

/** Diff saw branch `id`: a branch that took the old name meanwhile does not pass for this resource's own. */
export function noteSeen(id: string, olds: Props): void {
  if (olds.resourceName !== undefined) held.set(keyOf(olds), { name: held.get(keyOf(olds))?.name ?? olds.name, id });
}

/** True when `existing` is the branch the state holds for this resource: a replacement's old branch. */
function isOwnOldBranch(inputs: Props, existing: { id: string; name: string }): boolean {
  const record = held.get(keyOf(inputs));
  if (!record || record.name !== existing.name) return false;
  return record.id === undefined || record.id === existing.id;
}

/** Applies `news` to the branch whose outputs are `olds`; returns the new outputs. */
export async function updateBranch(id: string, olds: Props, news: Props): Promise<Props> {
  const plan = planBranchChange(olds, news);
  if (plan.refused.length > 0) throw annotationsChangeError(id, olds, news); // Diff refuses it first: nothing sent
  if (plan.patch.length === 0 && !plan.reset) return recordedOutputs(olds, news); // only the provider's records
  const projectId = String(olds.projectId);
  let branch: Branch | undefined;
  if (plan.patch.length > 0) {
    branch = (await client().branches.update(projectId, id, { branch: toPatchFields(news, plan.patch) })).branch;
  }
  if (plan.reset) branch = await keepExpiry(projectId, id, news, await resetFromParent(projectId, id, olds, branch));
  branch ??= (await client().branches.get(projectId, id)).branch;
  return outputsWith(branch, olds.annotations as Record<string, string> | undefined, news, originIn(olds, branch));
}

/**
 * Resets the branch from its parent at its head, refused first where Neon refuses: no parent, protected (Neon docs,
 * Protected branches), children (OpenAPI `BranchRestoreRequest.preserve_under_name` would leave a branch unmanaged).
 */
async function resetFromParent(projectId: string, id: string, olds: Props, known?: Branch): Promise<Branch> {
  const refuse = (why: string) => new Error(`${labelOf(id, olds)} ${why}. Nothing was reset.`);
  const parentId = known ? known.parent_id : (olds.parentId as string | undefined);
  if (!parentId) {
    throw refuse(
      `has no parent to reset from (a schema-only or root branch): remove resetTriggers, or replace the branch to ` +
        `start it again`,
    );
  }
  if ((known?.protected ?? olds.protected) === true) {
    throw refuse(
      `is protected, and Neon does not reset a protected branch: set protected: false (in this change or before it)`,
    );
  }
  const named = childrenNamed(await client().branches.list(projectId), id);
  if (named !== undefined) {
    throw refuse(
      `has child branches ${named}: Neon resets a branch with children only by keeping its present state as a new ` +
        `branch (preserve_under_name), which would leave a branch nothing manages. Delete the child branches first ` +
        `(or remove resetTriggers' change)`,
    );
  }
  return (await client().branches.restore(projectId, id, { source_branch_id: parentId })).branch;
}

/** After a reset moved the expiry (now + TTL), the program's `expiresAt` again, while it is still ahead. */
async function keepExpiry(projectId: string, id: string, news: Props, branch: Branch): Promise<Branch> {
  const wanted = news.expiresAt;
  if (typeof wanted !== "string" || sameInstant(branch.expires_at, wanted)) return branch;
  if ((instantOf(wanted) ?? 0) <= Date.now()) return branch;
  return (await client().branches.update(projectId, id, { expires_at: wanted })).branch;
}

/**
 * The update failed: the branch as the service has it now, with the old `resetTriggers` unless it was reset (its
 * `last_reset_at` moved), so the next `up` does what is still missing; the error as it was if it cannot be read.
 */
export async function failedUpdate(id: string, olds: Props, news: Props, error: unknown): Promise<unknown> {
  if (error instanceof ResourceInitError) return error;
  const read = async () => {
    const { branch, annotation } = await client().branches.get(String(olds.projectId), id);
    const reset = branch.last_reset_at !== undefined && branch.last_reset_at !== olds.lastResetAt;
    const recorded = reset ? news : { ...news, resetTriggers: olds.resetTriggers };
    const annotations = annotation?.value ?? (olds.annotations as Record<string, string> | undefined);
    return outputsWith(branch, annotations, recorded, originIn(olds, branch));
  };
  // The branch is ready: the error says what was not done, in its own words.
  return recordedAsItIs(id, news, error, { read, message: error instanceof Error ? error.message : String(error) });
}
