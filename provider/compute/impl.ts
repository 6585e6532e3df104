/**
 * Compute's provider implementation, loaded by the serialized provider at call time (resource.ts), so that resources
 * already in state run the installed version of this code (0.2.0's state loads it through provider/compute-impl.ts).
 * The native plugin serves the same functions (native/resources.ts).
 */
import type * as pulumi from "@pulumi/pulumi";
import { adoptCompute, createCompute, MoveNotMade, readCompute, updateCompute } from "./changes";
import { COMPUTE } from "./declaration";
import { noteHeld, noteSeen } from "./owner-tag";
import {
  computeOf,
  declaredOf,
  inputsFromOutputs,
  keepOldSpelling,
  outputsAfter,
  planComputeChange,
  toOutputs,
} from "./plan";
import {
  adoptedReplaceWarning,
  adoptionWarnings,
  connectionWarning,
  createTarget,
  deleteRefused,
  deprecationWarnings,
  explainNotFound,
  keptOnDelete,
  updateTarget,
} from "./refusal";
import { checkOf } from "../shared/check";
import { addressOf } from "../shared/branch-objects";
import type { DiffAnswer } from "../shared/diff-answer";
import { warn } from "../shared/diagnostics";
import { errorKind, OUTCOME_UNKNOWN } from "../shared/errors";
import { Situation, withHints } from "../shared/hints";
import { deleteUnlessGone, projectAnswers, readOrGone, recordedAsItIs } from "../shared/lifecycle";
import { refuseDeleteOnProtectedBranch } from "../shared/protected-branch";
import { client, CheckedInputs } from "../shared/runtime";

type Props = Record<string, unknown>;

/** The inputs this process checked: only a Diff of checked inputs warns (shared/runtime.ts). */
const checked = new CheckedInputs();

export { configureProvider as configure } from "../shared/runtime";

/**
 * Once checked: the compute the state holds is this resource's (owner-tag.ts), and a value that means what the state's
 * meant keeps the state's spelling (300 after 0): the engine lists beside an update every input that differs.
 */
function accepted(olds: Props, news: Props): Props {
  noteHeld(olds);
  return keepOldSpelling(olds, news);
}

export const check = checkOf(COMPUTE, checked, {
  accepted,
  warnings: (olds, news) => [...adoptionWarnings(olds, news), ...deprecationWarnings(news)],
});

/**
 * Pure: replace, PATCH or restart (plan.ts), with the preview's warnings. A replacement that would adopt the same
 * compute again is refused here, at preview: the old compute is deleted first, so refusing at the create would leave
 * the resource pending replacement and the compute unmanaged.
 */
export async function diff(id: string, olds: Props, news: Props): Promise<DiffAnswer> {
  noteSeen(id, olds);
  const plan = planComputeChange(olds, news);
  if (checked.has(news)) {
    const adopted = adoptedReplaceWarning(id, olds, news, plan);
    if (adopted && news.adoptId === id) throw new Error(adopted);
    for (const warning of [connectionWarning(id, olds, news, plan), adopted]) if (warning) warn(warning);
  }
  const { changes, replaces, deleteBeforeReplace, changed: diffs } = plan;
  return { changes, replaces, deleteBeforeReplace, diffs };
}

/** What a refusal's advice depends on: the compute's project and branch (from the inputs, or the state). */
const inInputsProject = (inputs: Props): Situation => ({ op: "compute", ...addressOf(inputs) });
const inStateProject = (_id: string, props: Props, ..._news: unknown[]): Situation => inInputsProject(props);

export const create = withHints(inInputsProject, async (inputs: Props): Promise<pulumi.dynamic.CreateResult> => {
  try {
    const endpoint = inputs.adoptId ? await adoptCompute(inputs) : await createCompute(inputs);
    return { id: endpoint.id, outs: outputsAfter(endpoint, inputs, planComputeChange({}, inputs).patch) };
  } catch (error) {
    throw await explainNotFound(error, createTarget(inputs)); // a branch deleted outside Pulumi, say
  }
});

/** Refresh: the compute as it is now, and the declared inputs updated from it; one deleted outside Pulumi leaves. */
export const read = withHints(inStateProject, (id: string, props: Props): Promise<pulumi.dynamic.ReadResult> =>
  readOrGone(
    async () => {
      const outs = toOutputs(await readCompute(String(props.projectId), id), props);
      return { id, props: outs, inputs: inputsFromOutputs(outs) };
    },
    () => projectAnswers(computeOf(id, props)),
  ),
);

export const update = withHints(
  inStateProject,
  async (id: string, olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult> => {
    try {
      return { outs: await updateCompute(id, olds, news) };
    } catch (error) {
      // A compute (or the branch it moves to) deleted outside Pulumi: say so, and how to bring the state in line.
      if (errorKind(error) === "not_found") throw await explainNotFound(error, updateTarget(id, olds, news));
      // A restart not made records the old triggers, or the next `up` would see no change.
      const recorded = planComputeChange(olds, news).restartByTrigger
        ? { ...news, restartTriggers: olds.restartTriggers }
        : news;
      throw await withCurrentState(String(olds.projectId), id, recorded, error);
    }
  },
);

/**
 * Deletes and waits; a compute already gone is fine once its project answers, and a delete whose outcome is unknown
 * is read back, then sent again (shared/lifecycle.ts). A compute the state's `adoptId` names is left, with a warning.
 */
export const deleteCompute = withHints(inStateProject, async (id: string, props: Props): Promise<void> => {
  const kept = keptOnDelete(id, props);
  if (kept) return warn(kept);
  await refuseDeleteOnProtectedBranch(`compute ${id}`, props);
  const remove = async () => (await client().endpoints.delete(String(props.projectId), id)).endpoint !== undefined;
  try {
    await deleteUnlessGone(remove, () => projectAnswers(computeOf(id, props)));
  } catch (error) {
    if (errorKind(error) !== "validation") throw error;
    throw new Error(deleteRefused(id, props, error), { cause: error });
  }
});

/**
 * After a failed update, the compute as it now is, so that the state matches the service and the next `up` sends only
 * what is missing: after an unknown outcome, as read now; after a move not made, as the PATCH's answer left it.
 */
async function withCurrentState(projectId: string, id: string, news: Props, error: unknown): Promise<unknown> {
  const notMoved = error instanceof MoveNotMade ? error : undefined;
  if (!notMoved && !OUTCOME_UNKNOWN.has(errorKind(error) ?? "")) return error;
  const recorded = { ...news, declared: declaredOf(news) };
  const read = async () => toOutputs(notMoved?.endpoint ?? (await readCompute(projectId, id)), recorded);
  return recordedAsItIs(id, news, error, { read, message: notMoved?.message });
}
