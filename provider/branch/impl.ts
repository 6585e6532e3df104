/**
 * Branch's provider implementation, loaded by the serialized provider at call time (see resource.ts), so that
 * resources already in state run the installed version of this code.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { Branch } from "../../client";
import { noteBranchCreated } from "../shared/connections";
import { checkInputs } from "../shared/declaration";
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
import { client, configure as configureRuntime, noteProgramCheck } from "../shared/runtime";
import { stableJson } from "../shared/stable-json";
import { createBranch, noteHeld, noteSeen } from "./create";
import { BRANCH } from "./declaration";
import { adoptBranch, adoptionWarnings, failedUpdate, keptOnDelete, updateBranch } from "./existing";
import {
  annotationsChangeError,
  changeWarnings,
  checkReplaceProtected,
  checkResetProtected,
  planBranchChange,
  protectedOutsideProgram,
  unguardedWarning,
} from "./plan";
import { deleteRefusalOf, deleteRefused, labelOf, protectedReplacement } from "./refusal";
import { inputsFromOutputs, originOfRecord, outputsWith, toOutputs } from "./state";

type Props = Record<string, unknown>;

/**
 * The inputs this process checked: only a Diff of checked inputs plans a change, so only that one warns (a refresh's
 * Diff and the engine's probes of delete-before-replace dependents come without a Check: compute/impl.ts).
 */
const checked = new Set<string>();

export async function configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
  configureRuntime(req.config);
}

export async function check(olds: Props, news: Props): Promise<pulumi.dynamic.CheckResult> {
  noteProgramCheck(news);
  const inputs = withDefaultName(olds, news);
  const failures = [
    ...checkInputs(BRANCH, inputs),
    ...checkReplaceProtected(olds, inputs),
    ...checkResetProtected(olds, inputs),
  ];
  if (failures.length > 0) return { inputs, failures };
  noteHeld(olds);
  checked.add(stableJson(inputs));
  for (const warning of adoptionWarnings(olds, inputs)) warn(warning);
  return { inputs, failures };
}

/**
 * `name` defaults to the resource's name, for a branch Pulumi creates. An adopted branch keeps its own (as does one
 * whose state has no name: adopted, then `adoptId` removed).
 */
export function withDefaultName(olds: Props, news: Props): Props {
  if (news.name !== undefined || news.adoptId !== undefined || typeof news.resourceName !== "string") return news;
  if (Object.keys(olds).length > 0 && olds.name === undefined) return news;
  return { ...news, name: news.resourceName };
}

/**
 * Pure: decides replace / PATCH / reset from the old outputs and new inputs; warns of what a planned change loses;
 * refuses what no call can do (a protected branch replaced, annotations changed: refusal.ts, plan.ts).
 */
export async function diff(id: string, olds: Props, news: Props): Promise<DiffAnswer> {
  const plan = planBranchChange(olds, news);
  noteSeen(id, olds);
  if (plan.replaces.length > 0 && olds.protected === true) {
    throw new Error(protectedReplacement(labelOf(id, olds), id, `${plan.replaces.join(", ")} changed`));
  }
  if (plan.replaces.length === 0 && plan.refused.length > 0) throw annotationsChangeError(id, olds, news);
  if (checked.has(stableJson(news))) for (const warning of changeWarnings(id, olds, news, plan)) warn(warning);
  return { changes: plan.changes, replaces: plan.replaces, deleteBeforeReplace: false, diffs: plan.changed };
}

/** What a refusal's advice depends on: the branch's project, and the parent (a create) or the branch itself. */
const inInputsProject = (inputs: Props): Situation => ({
  op: "branch",
  projectId: String(inputs.projectId),
  branchId: typeof inputs.parentId === "string" ? inputs.parentId : undefined,
});
const inStateProject = (id: string, props: Props, ..._news: unknown[]): Situation => ({
  op: "branch",
  projectId: String(props.projectId),
  branchId: id,
});

export const create = withHints(inInputsProject, async (inputs: Props): Promise<pulumi.dynamic.CreateResult> => {
  const made = inputs.adoptId ? await adoptBranch(inputs) : await createBranch(inputs);
  if (!inputs.adoptId) noteBranchCreated(made.branch.id);
  return { id: made.branch.id, outs: outputsWith(made.branch, made.annotation, inputs, made.origin) };
});

/** Refresh: the branch as it is now, and the declared inputs updated from it; one deleted (or expired) leaves. */
export const read = withHints(inStateProject, (id: string, props: Props): Promise<pulumi.dynamic.ReadResult> =>
  readOrGone(
    async () => {
      const { branch, annotation } = await client().branches.get(String(props.projectId), id);
      const outs = toOutputs(branch, annotation?.value, { ...props, origin: props.origin ?? originOfRecord(branch) });
      // Protected outside the program since the last read: said at the refresh, as a destroy may come next.
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
 * Deletes the branch: read it first, and refuse (sending no DELETE) what Neon refuses, naming the branch, the reason
 * and what to do (refusal.ts): the default branch or the project's root branch ("You cannot delete a project's root or
 * default branch, or a branch that has a child branch": OpenAPI `deleteProjectBranch`), a protected branch (Neon docs,
 * Protected branches), a branch with children. One read serves all: the project's branch list (the branch and its
 * children). A branch already gone is fine: the list answered, so the project is reachable and the branch is gone (a
 * 404 of the branch alone might be the key's reach: shared/lifecycle.ts). A branch the state's `adoptId` names is left
 * on the service, with a warning (existing.ts).
 *
 * Neon deletes a branch's computes, roles and databases with it. Pulumi deletes what depends on the branch first, so
 * what is left is not managed by this stack (or does not declare its dependency): it is named in a warning.
 */
export const deleteBranch = withHints(inStateProject, async (id: string, props: Props): Promise<void> => {
  const kept = keptOnDelete(id, props);
  if (kept) {
    warn(kept);
    return;
  }
  const projectId = String(props.projectId);
  const branches = await client().branches.list(projectId);
  const branch = branches.find((b) => b.id === id);
  if (!branch) return; // gone already: its project answered, so the branch is not merely out of the key's reach
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

/** Computes still on the branch are deleted with it: say which (they are not this stack's, or declare no dependency). */
async function warnOfComputes(projectId: string, branch: Branch, props: Props): Promise<void> {
  let computes: { id: string }[];
  try {
    computes = await client().endpoints.listForBranch(projectId, branch.id);
  } catch {
    return;
  }
  if (computes.length === 0) return;
  warn(
    `${labelOf(branch.id, props)} is being deleted with the computes still on it (${computes.map((c) => c.id).join(", ")}): ` +
      `Neon deletes a branch's computes, roles and databases with it.`,
  );
}
