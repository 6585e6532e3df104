/**
 * Updating a branch in place: one PATCH of what changed (never annotations: no call changes them, plan.ts),
 * then, for a new `resetTriggers` value, one restore from the parent at its head (Neon's "reset from
 * parent": OpenAPI `restoreProjectBranch` with `source_branch_id` the parent and no point in time; neonctl's
 * `branches reset --parent` sends the same).
 *
 * - A reset is refused before it is sent where Neon refuses it: a branch without a parent, a protected branch (docs,
 *   Protected branches), a branch with children (OpenAPI `BranchRestoreRequest.preserve_under_name`: required then,
 *   and it would leave a backup branch nobody manages).
 * - A reset moves an expiring branch's `expires_at` to now plus its TTL (Neon docs, Branch expiration): the program's
 *   `expiresAt`, while still ahead, is sent again so the branch expires when the program says.
 * - A failed update records the branch as the service has it (ResourceInitError), with the old `resetTriggers` unless
 *   the branch was reset (its `last_reset_at` moved), so the next `up` does what is still missing and no more.
 */
import type { Branch } from "../../client";
import { ResourceInitError } from "../shared/errors";
import { client } from "../shared/runtime";
import { annotationsChangeError, labelOf, planBranchChange } from "./plan";
import { instantOf, sameInstant } from "../shared/instants";
import { Origin, originOfRecord, outputsWith, recordedOutputs, toPatchFields } from "./state";

type Props = Record<string, unknown>;

/** Applies `news` to the branch whose outputs are `olds`; returns the new outputs. */
export async function updateBranch(id: string, olds: Props, news: Props): Promise<Props> {
  const plan = planBranchChange(olds, news);
  if (plan.refused.length > 0) throw annotationsChangeError(id, olds, news); // Diff refuses it first: nothing sent
  // Only the provider's records changed (a removed adoptId or resetTriggers, annotations): nothing to send.
  if (plan.patch.length === 0 && !plan.reset) return recordedOutputs(olds, news);
  const projectId = String(olds.projectId);
  let branch: Branch | undefined;
  if (plan.patch.length > 0) {
    branch = (await client().branches.update(projectId, id, { branch: toPatchFields(news, plan.patch) })).branch;
  }
  if (plan.reset) branch = await keepExpiry(projectId, id, news, await resetFromParent(projectId, id, olds, branch));
  branch ??= (await client().branches.get(projectId, id)).branch;
  return outputsWith(branch, olds.annotations as Record<string, string> | undefined, news, originIn(olds, branch));
}

/** What the branch was made from, as recorded (a state without it: the record's own account). */
export function originIn(olds: Props, branch: Branch): Origin {
  return (olds.origin as Origin | undefined) ?? originOfRecord(branch);
}

/** Resets the branch from its parent at its head; refuses first where Neon would (see the module's doc). */
async function resetFromParent(projectId: string, id: string, olds: Props, known?: Branch): Promise<Branch> {
  const label = labelOf(id, olds);
  const parentId = known ? known.parent_id : (olds.parentId as string | undefined);
  if (!parentId) {
    throw new Error(
      `${label} has no parent to reset from (a schema-only or root branch): remove resetTriggers, or replace the ` +
        `branch to start it again. Nothing was reset.`,
    );
  }
  if ((known?.protected ?? olds.protected) === true) {
    throw new Error(
      `${label} is protected, and Neon does not reset a protected branch: set protected: false (in this change ` +
        `or before it). Nothing was reset.`,
    );
  }
  const children = (await client().branches.list(projectId)).filter((b) => b.parent_id === id);
  if (children.length > 0) {
    const named = children.map((c) => `${JSON.stringify(c.name)} (${c.id})`).join(", ");
    throw new Error(
      `${label} has child branches ${named}: Neon resets a branch with children only by keeping its present state ` +
        `as a new branch (preserve_under_name), which would leave a branch nothing manages. Delete the child ` +
        `branches first (or remove resetTriggers' change). Nothing was reset.`,
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
 * `last_reset_at` moved), so the next `up` asks for exactly what is still missing. The error as it was when the branch
 * cannot be read.
 */
export async function failedUpdate(id: string, olds: Props, news: Props, error: unknown): Promise<unknown> {
  if (error instanceof ResourceInitError) return error;
  let read;
  try {
    read = await client().branches.get(String(olds.projectId), id);
  } catch {
    return error;
  }
  const reset = read.branch.last_reset_at !== undefined && read.branch.last_reset_at !== olds.lastResetAt;
  const recorded = reset ? news : { ...news, resetTriggers: olds.resetTriggers };
  const annotation = read.annotation?.value ?? (olds.annotations as Record<string, string> | undefined);
  const outputs = outputsWith(read.branch, annotation, recorded, originIn(olds, read.branch));
  // The branch is ready: the error says what was not done, in its own words.
  return new ResourceInitError(id, outputs, error, recorded, error instanceof Error ? error.message : String(error));
}
