/**
 * What is done to a branch that exists: an update, and an adoption.
 *
 * Updating a branch in place: one PATCH of what changed (never annotations: no call changes them, plan.ts), then, for
 * a new `resetTriggers` value, one restore from the parent at its head (Neon's "reset from parent": OpenAPI
 * `restoreProjectBranch` with `source_branch_id` the parent and no point in time; neonctl's `branches reset --parent`
 * sends the same).
 *
 * - A reset is refused before it is sent where Neon refuses it: a branch without a parent, a protected branch (docs,
 *   Protected branches), a branch with children (OpenAPI `BranchRestoreRequest.preserve_under_name`: required then,
 *   and it would leave a backup branch nobody manages).
 * - A reset moves an expiring branch's `expires_at` to now plus its TTL (Neon docs, Branch expiration): the program's
 *   `expiresAt`, while still ahead, is sent again so the branch expires when the program says.
 * - A failed update records the branch as the service has it (ResourceInitError), with the old `resetTriggers` unless
 *   the branch was reset (its `last_reset_at` moved), so the next `up` does what is still missing and no more.
 *
 * An existing branch is taken under management in two ways only, each on purpose: adoption by id (`adoptId`, here),
 * and a replacement's hand-over of this resource's own old branch (its name: create.ts). A name some branch has is
 * otherwise refused, never adopted by accident (create.ts). Adoption's rules, Compute's too, are shared/adoption.ts's
 * (Pulumi never deletes a branch that the state's `adoptId` names); its hooks:
 *
 * - Adoption reads the branch, refuses what cannot change in place (the program declares another parent, point in
 *   time or init source than the branch was made from, or other annotations: no call changes them, plan.ts), and
 *   PATCHes what differs from the program (name, protection, expiry). A program that leaves `name` out keeps the
 *   branch's name (the resource's name is the default only for a branch Pulumi creates).
 * - Delete leaves a branch another resource of this process adopted (`keptOnDelete`): one process serves a whole
 *   deployment.
 */
import type { Branch } from "../../client";
import * as adoption from "../shared/adoption";
import { ResourceInitError } from "../shared/errors";
import { instantOf, sameInstant } from "../shared/instants";
import { recordedAsItIs } from "../shared/lifecycle";
import { client } from "../shared/runtime";
import type { Created } from "./create";
import { annotationsChangeError, planBranchChange } from "./plan";
import { childrenNamed, labelOf } from "./refusal";
import { declaredOf, Origin, originOfRecord, outputsWith, recordedOutputs, toPatchFields } from "./state";

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
  const named = childrenNamed(await client().branches.list(projectId), id);
  if (named !== undefined) {
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

/** How adoption's messages speak of a branch. */
const ADOPTABLE: adoption.Adoptable = {
  type: "Branch",
  kind: "branch",
  adopting: () =>
    `where its name, protection or expiry differ from the program's, adopting changes them (with name left out, it ` +
    `keeps its name; other annotations are refused: Neon sets them only at creation)`,
};

/**
 * Branches this plugin process adopted. One process serves a whole deployment, so the Delete of another resource's
 * state that held the branch (a resource moved under a new parent without an alias, then given adoptId: the engine
 * creates the new URN, which adopts, then deletes the old one) comes here after the adoption, and must not delete it.
 */
const adoptedHere = new Set<string>();

/** Takes the branch `inputs.adoptId` under management (again, for a replacement: see the module's doc). */
export async function adoptBranch(inputs: Props): Promise<Created> {
  const adopted = await adopt(inputs);
  adoptedHere.add(adopted.branch.id);
  return adopted;
}

async function adopt(inputs: Props): Promise<Created> {
  const projectId = String(inputs.projectId);
  const id = String(inputs.adoptId);
  const found = await adoption.readForAdoption(ADOPTABLE, projectId, id, () => client().branches.get(projectId, id));
  const origin = originOfRecord(found.branch);
  const kept = found.annotation?.value ?? {};
  // As if the state held the branch as it is, with the program's own records (so nothing is reset or "removed").
  const current = {
    ...outputsWith(found.branch, kept, { ...inputs, declared: undefined }, origin),
    declared: declaredOf(inputs),
    resetTriggers: inputs.resetTriggers,
  };
  const plan = planBranchChange(current, inputs);
  if (plan.replaces.length > 0) {
    const why = plan.replaces.map((p) => `${p} is ${shown(p, current, origin)} on the service`).join("; ");
    const remedy = "what a branch was made from cannot change; remove these inputs or adopt another branch";
    throw adoption.cannotAdopt(ADOPTABLE, id, why, remedy);
  }
  if (plan.refused.length > 0) {
    throw new Error(
      `adoptId: branch ${id} cannot be adopted as declared: its annotations are not the program's, and Neon sets a ` +
        `branch's annotations only when it creates it. Leave annotations out of the program, or declare the ` +
        `branch's own (its annotations output, once adopted without them). Nothing was changed.`,
    );
  }
  if (plan.patch.length === 0) return { branch: found.branch, annotation: kept, origin };
  const outputs = await updateBranch(id, current, inputs);
  const branch = (await client().branches.get(projectId, id)).branch;
  return { branch, annotation: outputs.annotations as Record<string, string> | undefined, origin };
}

/** How adoption names the service's value of a property that would need a replacement. */
function shown(property: string, current: Props, origin: Origin): string {
  const value = property === "projectId" ? current.projectId : origin[property as keyof Origin];
  return value === undefined ? "not set" : JSON.stringify(value);
}

/** What Check says about `adoptId` (shared/adoption.ts). */
export const adoptionWarnings = (olds: Props, news: Props): string[] =>
  adoption.adoptionWarnings(ADOPTABLE, olds, news);

/** Why Delete leaves the branch `id` on the service, or undefined to delete it (see the module's doc). */
export function keptOnDelete(id: string, props: Props): string | undefined {
  if (props.adoptId !== id && adoptedHere.has(id)) {
    return (
      `${labelOf(id, props)} was not deleted: another resource of this update adopted it (adoptId ${id}), and manages ` +
      `it from now on; this resource's state is dropped. (A resource moved under a new parent is best given an alias ` +
      `to its old place: it then keeps its branch without adoptId.)`
    );
  }
  return adoption.keptAdopted(ADOPTABLE, id, labelOf(id, props), props);
}
