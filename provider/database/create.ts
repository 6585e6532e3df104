/**
 * Creating a database without duplicates and without taking anyone's database.
 *
 * - The branch is read first: a database of that name already there (inherited from the parent, made outside Pulumi)
 *   is refused before anything is sent (refusal.ts); a 409 from a create that raced another client says the same.
 * - A name is unique in its branch, and it was free just before: a create whose response was lost (kind `ambiguous`)
 *   is settled by reading the branch's databases, inside the project lock (the client's `recover`, which then waits
 *   for the branch's operations). Found: it is this create's (its id recorded). Not found: the create is sent again
 *   (a few times: shared/lifecycle.ts createSettled).
 * - A database that exists but whose operations failed or timed out is reported with its id (ResourceInitError), so
 *   the engine keeps it in state and nothing is orphaned.
 */
import type { Database } from "../../client";
import { addressOf, BranchAddress } from "../shared/branch-objects";

import { createdIdOf, errorKind, found, OUTCOME_UNKNOWN, ResourceInitError } from "../shared/errors";
import { createSettled } from "../shared/lifecycle";
import { client } from "../shared/runtime";
import { toOutputs } from "./declaration";
import { alreadyOnBranch, explainOwnerMissing } from "./refusal";

type Props = Record<string, unknown>;

export async function createDatabase(inputs: Props): Promise<{ id: string; outs: Props }> {
  const address = addressOf(inputs);
  const name = String(inputs.name);
  if ((await named(address, name)) !== undefined) throw alreadyOnBranch(address, name);
  const body = { name, owner_name: String(inputs.ownerName) };
  const recover = () => named(address, name);
  try {
    const send = () => client().databases.create(address.projectId, address.branchId, body, { recover });
    return created((await createSettled(send)).database, address);
  } catch (error) {
    const kind = errorKind(error);
    if (kind === "conflict") throw alreadyOnBranch(address, name, error);
    if (kind !== undefined && OUTCOME_UNKNOWN.has(kind) && createdIdOf(error) !== undefined) {
      // Made, not ready: kept in state by its id (unread, the next up's check of the branch finds it, and says so).
      const database = await found(() => client().databases.get(address.projectId, address.branchId, name)).catch(
        () => undefined,
      );
      if (database) throw new ResourceInitError(String(database.id), created(database, address).outs, error, inputs);
    }
    throw (await explainOwnerMissing(address, inputs, error)) ?? error;
  }
}

function created(database: Database, address: BranchAddress): { id: string; outs: Props } {
  return { id: String(database.id), outs: toOutputs(database, address.projectId) };
}

/** The branch's database of this name; undefined when it has none (a branch that does not answer: the error). */
async function named(address: BranchAddress, name: string): Promise<Database | undefined> {
  const databases = await client().databases.list(address.projectId, address.branchId);
  return databases.find((database) => database.name === name);
}
