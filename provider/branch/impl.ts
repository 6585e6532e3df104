/**
 * Branch's provider implementation, loaded by the serialized provider at call time (see resource.ts), so that
 * resources already in state run the installed version of this code.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { Branch } from "../../client";
import { checkOf } from "../shared/check";
import * as adoption from "../shared/adoption";
import { noteBranchCreated } from "../shared/connections";
import { warn } from "../shared/diagnostics";
import type { DiffAnswer } from "../shared/diff-answer";
import { errorKind } from "../shared/errors";
import { Situation, withHints } from "../shared/hints";
import {
  alreadyProven,
  deleteUnlessGone,
  explainGone,
  GoneHooks,
  ProjectObject,
  projectAnswers,
  readOrGone,
} from "../shared/lifecycle";
import { client, CheckedInputs } from "../shared/runtime";
import { createBranch, Created, failedUpdate, noteHeld, noteSeen, updateBranch } from "./changes";
import { BRANCH } from "./declaration";
import {
  changeWarnings,
  checkReplaceProtected,
  checkResetProtected,
  declaredOf,
  inputsFromOutputs,
  Origin,
  originIn,
  originOfRecord,
  outputsWith,
  planBranchChange,
  protectedOutsideProgram,
  toOutputs,
  unguardedWarning,
} from "./plan";
import { annotationsChangeError, deleteRefusalOf, deleteRefused, labelOf, protectedReplacement } from "./refusal";

type Props = Record<string, unknown>;

/** The inputs this process checked: only a Diff of checked inputs warns (shared/runtime.ts). */
const checked = new CheckedInputs();

export { configureProvider as configure } from "../shared/runtime";

export const check = checkOf(BRANCH, checked, {
  inputs: adoption.withDefaultName,
  rules: (olds, inputs) => [...checkReplaceProtected(olds, inputs), ...checkResetProtected(olds, inputs)],
  accepted: (olds, inputs) => {
    noteHeld(olds);
    return inputs;
  },
  warnings: (olds, inputs) => adoption.adoptionWarnings(ADOPTABLE, olds, inputs),
});

/** Pure: the plan and its warnings (plan.ts), and the refusal of what no call can do. */
export async function diff(id: string, olds: Props, news: Props): Promise<DiffAnswer> {
  const plan = planBranchChange(olds, news);
  noteSeen(id, olds);
  if (plan.replaces.length > 0 && olds.protected === true) {
    throw new Error(protectedReplacement(labelOf(id, olds), id, `${plan.replaces.join(", ")} changed`));
  }
  if (plan.replaces.length === 0 && plan.refused.length > 0) throw annotationsChangeError(id, olds, news);
  if (checked.has(news)) for (const warning of changeWarnings(id, olds, news, plan)) warn(warning);
  return { changes: plan.changes, replaces: plan.replaces, deleteBeforeReplace: false, diffs: plan.changed };
}

/** What a refusal's advice depends on (shared/hints.ts): the project, and the parent (a create) or the branch. */
const inProject = (projectId: unknown, branchId: unknown): Situation => ({
  op: "branch",
  projectId: String(projectId),
  branchId: typeof branchId === "string" ? branchId : undefined,
});
const inInputsProject = (inputs: Props) => inProject(inputs.projectId, inputs.parentId);
const inStateProject = (id: string, props: Props, ..._news: unknown[]) => inProject(props.projectId, id);

export const create = withHints(inInputsProject, async (inputs: Props): Promise<pulumi.dynamic.CreateResult> => {
  const made = inputs.adoptId ? await adoptBranch(inputs) : await createBranch(inputs);
  if (inputs.adoptId) adoptedHere.add(made.branch.id);
  else noteBranchCreated(made.branch.id);
  return { id: made.branch.id, outs: outputsWith(made.branch, made.annotation, inputs, made.origin) };
});

/** Refresh: the branch as it is now, and the declared inputs updated from it; one deleted (or expired) leaves. */
export const read = withHints(inStateProject, (id: string, props: Props): Promise<pulumi.dynamic.ReadResult> =>
  readOrGone(
    async () => {
      const { branch, annotation } = await client().branches.get(String(props.projectId), id);
      const outs = toOutputs(branch, annotation?.value, { ...props, origin: originIn(props, branch) });
      // Protected outside the program since the last read: said now, as a destroy may come next.
      if (props.protected !== true && protectedOutsideProgram(outs, {})) warn(unguardedWarning(labelOf(id, props)));
      return { id, props: outs, inputs: inputsFromOutputs(outs) };
    },
    () => projectAnswers(branchOf(id, props)),
  ),
);

export const update = withHints(
  inStateProject,
  async (id: string, olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult> => {
    try {
      return { outs: await updateBranch(id, olds, news) };
    } catch (error) {
      if (errorKind(error) === "not_found") throw await explainGone(error, branchOf(id, olds), goneHooks(id, olds));
      throw await failedUpdate(id, olds, news, error);
    }
  },
);

/**
 * Deletes the branch, after one read of the project's branches: what Neon would refuse is refused, sending nothing
 * (refusal.ts `deleteRefusalOf`); one missing is gone (its project answered); one adopted is left (`keptOnDelete`).
 */
export const deleteBranch = withHints(inStateProject, async (id: string, props: Props): Promise<void> => {
  const kept = keptOnDelete(id, props);
  if (kept) return warn(kept);
  const projectId = String(props.projectId);
  const branches = await client().branches.list(projectId);
  const branch = branches.find((b) => b.id === id);
  if (!branch) return;
  const refusal = deleteRefusalOf(branch, branches, props);
  if (refusal) throw new Error(refusal);
  await warnOfComputes(projectId, branch, props);
  const remove = async () => (await client().branches.delete(projectId, id)).branch !== undefined;
  try {
    await deleteUnlessGone(remove, alreadyProven); // the list just answered: a 404 now is a branch just deleted
  } catch (error) {
    throw errorKind(error) === "validation" ? deleteRefused(branch, props, error) : error;
  }
});

/** How the lifecycle's messages name the branch `id` (shared/lifecycle.ts). */
const branchOf = (id: string, props: Props): ProjectObject => ({
  kind: "branch",
  label: labelOf(id, props),
  projectId: String(props.projectId),
  docs: BRANCH.docs,
});

/** A 404 during an update: the branch deleted (or expired) outside Pulumi, once its project's list lacks it. */
const goneHooks = (id: string, olds: Props): GoneHooks => ({
  present: async () => (await client().branches.list(String(olds.projectId))).some((b) => b.id === id),
  also: "or it expired",
});

/** Neon deletes a branch's computes with it: those still on it are not this stack's (Pulumi deletes those first). */
async function warnOfComputes(projectId: string, branch: Branch, props: Props): Promise<void> {
  const computes = await client()
    .endpoints.listForBranch(projectId, branch.id)
    .catch(() => []);
  if (computes.length === 0) return;
  warn(
    `${labelOf(branch.id, props)} is being deleted with the computes still on it (${computes.map((c) => c.id).join(", ")}): ` +
      `Neon deletes a branch's computes, roles and databases with it.`,
  );
}

/** How adoption's messages speak of a branch (shared/adoption.ts: Pulumi never deletes what `adoptId` names). */
const ADOPTABLE: adoption.Adoptable = {
  type: "Branch",
  kind: "branch",
  adopting: () =>
    `where its name, protection or expiry differ from the program's, adopting changes them (with name left out, it ` +
    `keeps its name; other annotations are refused: Neon sets them only at creation)`,
};

/**
 * Branches this process adopted: one process serves a whole deployment, so the Delete of another resource's state
 * that held the branch (moved under a new parent without an alias, then given adoptId) leaves it.
 */
const adoptedHere = new Set<string>();

/**
 * Takes the branch `adoptId` names under management: refuses what cannot change in place (another origin, other
 * annotations), and PATCHes what differs (name, protection, expiry), as if the state held the branch as it is.
 */
async function adoptBranch(inputs: Props): Promise<Created> {
  const projectId = String(inputs.projectId);
  const id = String(inputs.adoptId);
  const found = await adoption.readForAdoption(ADOPTABLE, projectId, id, () => client().branches.get(projectId, id));
  const origin = originOfRecord(found.branch);
  const kept = found.annotation?.value ?? {};
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

/** Why Delete leaves the branch `id` on the service (adopted here or by the state's `adoptId`), or undefined. */
function keptOnDelete(id: string, props: Props): string | undefined {
  if (props.adoptId !== id && adoptedHere.has(id)) {
    return (
      `${labelOf(id, props)} was not deleted: another resource of this update adopted it (adoptId ${id}), and manages ` +
      `it from now on; this resource's state is dropped. (A resource moved under a new parent is best given an alias ` +
      `to its old place: it then keeps its branch without adoptId.)`
    );
  }
  return adoption.keptAdopted(ADOPTABLE, id, labelOf(id, props), props);
}
