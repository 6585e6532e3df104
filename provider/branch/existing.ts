/**
 * An existing branch is taken under management in two ways only, each on purpose: adoption by id (`adoptId`), and a
 * replacement's hand-over of this resource's own old branch (its name). A name some branch has is otherwise refused
 * (create.ts). Both rest on what this plugin process saw: one process serves a whole deployment.
 *
 * Adoption's hooks (the rules, Compute's too, are shared/adoption.ts's: Pulumi never deletes a branch that the state's
 * `adoptId` names):
 *
 * - Adoption reads the branch, refuses what cannot change in place (the program declares another parent, point in
 *   time or init source than the branch was made from, or other annotations: no call changes them, plan.ts), and
 *   PATCHes what differs from the program (name, protection, expiry). A program that leaves `name` out keeps the
 *   branch's name (the resource's name is the default only for a branch Pulumi creates).
 * - A name some branch has is never adopted by accident: only `adoptId` adopts (create.ts refuses the name).
 *
 * A replacement's own old branch: see "What this plugin process knows" below.
 */
import * as adoption from "../shared/adoption";
import { client } from "../shared/runtime";
import { Created } from "./create";
import { labelOf, planBranchChange } from "./plan";
import { declaredOf, Origin, originOfRecord, outputsWith } from "./state";
import { updateBranch } from "./update";

type Props = Record<string, unknown>;

/** How adoption's messages speak of a branch. */
const ADOPTABLE: adoption.Adoptable = {
  type: "Branch",
  kind: "branch",
  adopting: () =>
    `where its name, protection or expiry differ from the program's, adopting changes them (with name left out, it ` +
    `keeps its name; other annotations are refused: Neon sets them only at creation)`,
  staying: " Keep it for the project's default branch, which Neon never deletes.",
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
