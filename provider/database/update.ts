/**
 * Updating a database in place: one PATCH of what changed (a new name, a new owner), addressed by name.
 *
 * - Identity before write (shared/identity.ts): the PATCH goes to the name the database has now, after checking that
 *   the object under the state's name is ours (its id and creation time). Renamed outside Pulumi, even when another
 *   database took its old name (a blue/green swap): the PATCH goes to its new name (the program's name wins, as after
 *   a refresh), with a warning; gone: refused, the other database untouched.
 * - A PATCH whose answer was lost (kind `ambiguous`) is settled by reading the database back by id: when it shows the
 *   new name and owner, the update is done; otherwise it is sent again (a few times). Never resent blindly.
 * - A PATCH applied whose operations failed or timed out keeps the database in state as it now is (ResourceInitError).
 */
import type { Database } from "../../client";
import { addressOf, BranchAddress } from "../shared/branch-objects";
import { apiBody } from "../shared/declaration";
import { errorKind, OUTCOME_UNKNOWN } from "../shared/errors";
import { recordedAsItIs } from "../shared/lifecycle";
import { nameToWrite } from "../shared/identity";
import { client } from "../shared/runtime";
import { DATABASE, planDatabaseChange, toOutputs } from "./declaration";
import { databaseTarget, locate } from "./locate";
import { explainOwnerMissing } from "./refusal";

type Props = Record<string, unknown>;
type PatchBody = { name?: string; owner_name?: string };

/** PATCHes whose answers were lost (each read back first) before the step fails. */
const PATCH_ATTEMPTS = 3;

/** Applies `news` to the database `id` whose outputs are `olds`; returns the new outputs. */
export async function updateDatabase(id: string, olds: Props, news: Props): Promise<Props> {
  const address = addressOf(olds);
  const body: PatchBody = apiBody(DATABASE, news, planDatabaseChange(olds, news).patch);
  let name = (await nameToWrite(databaseTarget(id, olds), "change")) as string;
  for (let attempt = 1; ; attempt++) {
    try {
      const { database } = await client().databases.update(address.projectId, address.branchId, name, body);
      return toOutputs(database, address.projectId);
    } catch (error) {
      const kind = errorKind(error);
      if (kind === "ambiguous") {
        const now = await locate(address, id).catch(() => undefined);
        if (now !== undefined && now !== "gone" && matches(now, body)) return toOutputs(now, address.projectId);
        if (now !== undefined && now !== "gone" && attempt < PATCH_ATTEMPTS) {
          name = now.name;
          continue;
        }
      }
      if (kind === "conflict" && body.name !== undefined) throw nameTaken(address, name, body.name, error);
      if (kind !== undefined && OUTCOME_UNKNOWN.has(kind)) throw await keptAsItIs(id, address, news, error);
      throw (await explainOwnerMissing(address, news, error)) ?? error;
    }
  }
}

/** A rename to a name the branch's other database has (the service's 409): named, with what to do. */
function nameTaken(address: BranchAddress, from: string, to: string, error: unknown): Error {
  return new Error(
    `Database ${from} of branch ${address.branchId} cannot be renamed ${JSON.stringify(to)}: the branch already has a ` +
      `database of that name (names are unique in a branch; ${(error as Error).message}). Nothing was changed. ` +
      `Choose another name, or rename or delete that database first.`,
    { cause: error },
  );
}

function matches(database: Database, body: PatchBody): boolean {
  return (
    (body.name === undefined || database.name === body.name) &&
    (body.owner_name === undefined || database.owner_name === body.owner_name)
  );
}

/** After an update whose outcome is unknown: the database as it now is, so that the next `up` sends what is missing. */
async function keptAsItIs(id: string, address: BranchAddress, news: Props, error: unknown): Promise<unknown> {
  const read = async () => {
    const now = await locate(address, id);
    return now === "gone" ? undefined : toOutputs(now, address.projectId);
  };
  return recordedAsItIs(id, news, error, { read });
}
