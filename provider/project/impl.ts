/**
 * Project's provider implementation, loaded by the serialized provider at call time (resource.ts), so that projects
 * already in state run the installed version of this code. The native plugin serves the same functions.
 */
import type * as pulumi from "@pulumi/pulumi";
import { checkOf } from "../shared/check";
import { withDefaultName } from "../shared/adoption";
import { planChange, recordedInputs } from "../shared/declaration";
import { warn } from "../shared/diagnostics";
import type { DiffAnswer } from "../shared/diff-answer";
import { errorKind } from "../shared/errors";
import { Situation, withHints } from "../shared/hints";
import { deleteUnlessGone, explainGone, ProjectObject, readOrGone } from "../shared/lifecycle";
import { client, CheckedInputs } from "../shared/runtime";
import {
  adoptProject,
  createProject,
  defined,
  projectListedNot,
  readProject,
  recordsOf,
  updateProject,
} from "./changes";
import { PROJECT } from "./declaration";
import {
  adoptionWarnings,
  branchChangeError,
  changeWarnings,
  checkProjectChange,
  keptOnDelete,
  projectLabel,
  protectedDelete,
} from "./refusal";

type Props = Record<string, unknown>;

/** The inputs this process checked: only a Diff of checked inputs warns (shared/runtime.ts). */
const checked = new CheckedInputs();

export { configureProvider as configure } from "../shared/runtime";

export const check = checkOf(PROJECT, checked, {
  inputs: withDefaultName,
  rules: (olds, inputs) => checkProjectChange(olds, inputs, planChange(PROJECT, olds, inputs).by.replace),
  warnings: adoptionWarnings,
});

/**
 * Pure: replace (region, Postgres version, organization), one PATCH (and the default compute's for a new size), or a
 * record; a change of the names set at creation is refused (refusal.ts). Warns of a restart or a replacement's loss.
 */
export async function diff(id: string, olds: Props, news: Props): Promise<DiffAnswer> {
  const plan = planChange(PROJECT, olds, news);
  if (plan.by.replace.length === 0 && plan.by.refused.length > 0) throw branchChangeError(id, olds, news);
  if (checked.has(news)) {
    const resizes = plan.drops.includes("defaultEndpointSettings") && sizesChanged(olds, news);
    for (const warning of changeWarnings(id, olds, news, plan.by.replace, resizes)) warn(warning);
  }
  return {
    changes: plan.changed.length > 0,
    replaces: plan.by.replace,
    deleteBeforeReplace: false,
    diffs: plan.changed,
  };
}

/** A size of `defaultEndpointSettings` the program sets differs from the service's. */
function sizesChanged(olds: Props, news: Props): boolean {
  const was = (olds.defaultEndpointSettings ?? {}) as Props;
  const now = (news.defaultEndpointSettings ?? {}) as Props;
  return ["autoscalingLimitMinCu", "autoscalingLimitMaxCu"].some((k) => now[k] !== undefined && now[k] !== was[k]);
}

/** What a refusal's advice depends on: the project (none yet for a create). */
const inInputs = (inputs: Props): Situation =>
  typeof inputs.adoptId === "string"
    ? { op: "project", projectId: inputs.adoptId }
    : { op: "project-create", orgId: typeof inputs.orgId === "string" ? inputs.orgId : undefined };
const inState = (id: string, ..._rest: unknown[]): Situation => ({ op: "project", projectId: id });

export const create = withHints(inInputs, async (inputs: Props): Promise<pulumi.dynamic.CreateResult> =>
  typeof inputs.adoptId === "string" ? adoptProject(inputs) : createProject(inputs),
);

/** How the lifecycle's messages name the project `id`. */
const projectOf = (id: string, props: Props): ProjectObject => ({
  kind: "project",
  label: projectLabel(id, props),
  projectId: id,
  docs: PROJECT.docs,
});

/** A 404 of the project proves it gone once the account's list, searched by its id, answers without it. */
const proveGone = (id: string, props: Props) => async (cause?: unknown) => {
  if (await projectListedNot(id)) return;
  throw new Error(
    `${projectLabel(id, props)} was not found, and it is not known whether it is gone: the key may not reach it. ` +
      `Nothing was changed (docs/troubleshooting.md).`,
    { cause },
  );
};

/** Refresh: the project as it is now (a rename, new settings or sizes recorded); one deleted leaves the state. */
export const read = withHints(inState, (id: string, props: Props): Promise<pulumi.dynamic.ReadResult> =>
  readOrGone(
    async () => {
      const outs = await readProject(id, recordsOf(props), props);
      return { id, props: outs, inputs: defined(recordedInputs(PROJECT, outs)) };
    },
    proveGone(id, props),
  ),
);

export const update = withHints(
  inState,
  async (id: string, olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult> => {
    const plan = planChange(PROJECT, olds, news);
    if (plan.by.refused.length > 0) throw branchChangeError(id, olds, news); // the Diff refuses it first
    try {
      return { outs: await updateProject(id, olds, news) };
    } catch (error) {
      if (errorKind(error) === "not_found") throw await explainGone(error, projectOf(id, olds));
      throw error;
    }
  },
);

/**
 * Deletes the project with everything in it, unless `deletionProtection` holds (the state's: set it false and run
 * `pulumi up` first) or the state's `adoptId` names it (shared/adoption.ts). Says which branches and databases go
 * with it. A project already gone is fine, once the account's list shows it missing.
 */
export const deleteProject = withHints(inState, async (id: string, props: Props): Promise<void> => {
  const kept = keptOnDelete(id, projectLabel(id, props), props);
  if (kept) {
    warn(kept);
    return;
  }
  if (props.deletionProtection !== false) throw new Error(protectedDelete(id, props));
  await warnOfContents(id, props);
  const remove = async () => (await client().projects.delete(id)).project !== undefined;
  await deleteUnlessGone(remove, proveGone(id, props));
});

/** Names the branches and their databases that go with the project (nothing said when they cannot be read). */
async function warnOfContents(id: string, props: Props): Promise<void> {
  try {
    const branches = await client().branches.list(id);
    const named = await Promise.all(
      branches.map(async (b) => {
        const databases = await client().databases.list(id, b.id);
        return `${b.name} (${b.id}: ${databases.map((d) => d.name).join(", ") || "no databases"})`;
      }),
    );
    warn(`${projectLabel(id, props)} is being deleted with its branches and databases: ${named.join("; ")}.`);
  } catch {
    return;
  }
}
