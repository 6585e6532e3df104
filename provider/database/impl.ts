/**
 * Database's provider implementation, loaded by the serialized provider at call time (resource.ts), so that databases
 * already in state run the installed version of this code. Every change goes through the client's project lock (the
 * SDK serializes a project's changes and waits for their operations), shared with every other resource of the process.
 */
import type * as pulumi from "@pulumi/pulumi";
import { adoptionWarnings, createDatabase, databaseTarget, keptOnDelete, updateDatabase } from "./changes";
import { checkOf } from "../shared/check";
import { warn } from "../shared/diagnostics";
import { noteKeptDatabase } from "../shared/adoption";
import { DATABASE, planDatabaseChange, toOutputs } from "./declaration";
import { addressOf } from "../shared/branch-objects";
import { recordedInputs } from "../shared/declaration";
import { trackDelete } from "../shared/deletes-in-flight";
import type { DiffAnswer } from "../shared/diff-answer";
import { Situation, withHints } from "../shared/hints";
import { alreadyProven, deleteUnlessGone, readOrGone } from "../shared/lifecycle";
import { refuseDeleteOnProtectedBranch } from "../shared/protected-branch";
import { nameToWrite, readOurs } from "../shared/identity";
import { client } from "../shared/runtime";

type Props = Record<string, unknown>;

export { configureProvider as configure } from "../shared/runtime";

export const check = checkOf(DATABASE, undefined, { warnings: adoptionWarnings });

/** Pure: replace (another project or branch) or one PATCH (a new name or owner). */
export async function diff(_id: string, olds: Props, news: Props): Promise<DiffAnswer> {
  const plan = planDatabaseChange(olds, news);
  return { changes: plan.changes, replaces: plan.replaces, deleteBeforeReplace: false, diffs: plan.changed };
}

/** What a refusal's advice depends on: the database's project and branch. */
const inInputs = (inputs: Props): Situation => ({ op: "database", ...addressOf(inputs) });
const inState = (_id: string, props: Props, ..._news: unknown[]): Situation => ({
  op: "database",
  ...addressOf(props),
});

export const create = withHints(inInputs, async (inputs: Props): Promise<pulumi.dynamic.CreateResult> =>
  createDatabase(inputs),
);

/**
 * Refresh: the database as it is now, found by its id in its branch (shared/identity.ts; a rename outside Pulumi is
 * recorded in the inputs: the next `up` renames it back); one deleted outside Pulumi, or whose branch was deleted,
 * leaves the state (once its project answers).
 */
export const read = withHints(inState, (id: string, props: Props): Promise<pulumi.dynamic.ReadResult> =>
  readOrGone(async () => {
    const database = await readOurs(databaseTarget(id, props)); // undefined: gone, its project answering
    if (database === undefined) return undefined;
    const outs = toOutputs(database, String(props.projectId), props);
    return { id, props: outs, inputs: recordedInputs(DATABASE, outs) };
  }),
);

export const update = withHints(
  inState,
  async (id: string, olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult> => ({
    outs: await updateDatabase(id, olds, news),
  }),
);

/**
 * Deletes and waits, unless the state's adoptId names the database (left, with a warning: shared/adoption.ts); a
 * database already gone is fine (once its project answers). Identity before write
 * (shared/identity.ts): one renamed outside Pulumi is deleted under its new name, and a database that took the state's
 * name (a blue/green swap) is never deleted in its place.
 * Registered while it runs (shared/deletes-in-flight.ts): a delete of the role owning it waits for it.
 */
export const deleteDatabase = withHints(inState, async (id: string, props: Props): Promise<void> => {
  const kept = keptOnDelete(id, props);
  const { projectId, branchId } = addressOf(props);
  if (kept) {
    noteKeptDatabase(projectId, branchId, String(props.name));
    return warn(kept);
  }
  await trackDelete({ kind: "database", projectId, branchId, name: String(props.name) }, async () => {
    await refuseDeleteOnProtectedBranch(`database ${String(props.name)}`, props);
    const name = await nameToWrite(databaseTarget(id, props), "delete");
    if (name === undefined) return;
    const remove = async () => (await client().databases.delete(projectId, branchId, name)).database !== undefined;
    await deleteUnlessGone(remove, alreadyProven); // nameToWrite just read its branch's list, which held it
  });
});
