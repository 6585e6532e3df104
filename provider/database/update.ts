/**
 * Updating a database in place: one PATCH of what changed (a new name, a new owner), addressed by the name in state.
 *
 * - A database renamed outside Pulumi since the last refresh answers 404 under the state's name: it is found by its id
 *   in the branch's list and the PATCH goes to its current name (the program's name wins, as after a refresh).
 * - A PATCH whose answer was lost (kind `ambiguous`) is settled by reading the database back by id: when it shows the
 *   new name and owner, the update is done; otherwise it is sent again (a few times). Never resent blindly.
 * - A PATCH applied whose operations failed or timed out keeps the database in state as it now is (ResourceInitError).
 */
import type { Database } from "../../sdk";
import { addressOf, BranchAddress } from "../shared/branch-objects";
import { errorKind, OUTCOME_UNKNOWN, ResourceInitError } from "../shared/errors";
import { client } from "../shared/runtime";
import { planDatabaseChange } from "./diff";
import { locate } from "./locate";
import { toOutputs, toPatchBody } from "./mapping";
import { databaseGone, explainOwnerMissing } from "./refusal";
import { assertProjectReachable } from "../shared/reachable";

type Props = Record<string, unknown>;

/** PATCHes whose answers were lost (each read back first) before the step fails. */
const PATCH_ATTEMPTS = 3;

/** Applies `news` to the database `id` whose outputs are `olds`; returns the new outputs. */
export async function updateDatabase(id: string, olds: Props, news: Props): Promise<Props> {
  const address = addressOf(olds);
  const body = toPatchBody(news, planDatabaseChange(olds, news).patch);
  let name = String(olds.name);
  for (let attempt = 1; ; attempt++) {
    try {
      const { database } = await client().databases.update(address.projectId, address.branchId, name, body);
      return toOutputs(database, address.projectId);
    } catch (error) {
      const kind = errorKind(error);
      if (kind === "not_found" && attempt === 1) {
        const current = await currentName(address, id, olds, error);
        if (current !== undefined && current !== name) {
          name = current;
          continue;
        }
      }
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

/**
 * The database's name on the service, after a 404 under the state's: undefined when the 404 is about something else
 * (an owner the branch lacks, say: the database is there under the state's name). Throws when the database is gone
 * (its project answering).
 */
async function currentName(
  address: BranchAddress,
  id: string,
  olds: Props,
  error: unknown,
): Promise<string | undefined> {
  const now = await locate(address, id);
  if (now !== "gone") return now.name;
  await assertProjectReachable(address.projectId, {
    kind: "database",
    label: `database ${String(olds.name)} (id ${id})`,
  });
  throw databaseGone(address, id, olds.name, error);
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

function matches(database: Database, body: { name?: string; owner_name?: string }): boolean {
  return (
    (body.name === undefined || database.name === body.name) &&
    (body.owner_name === undefined || database.owner_name === body.owner_name)
  );
}

/** After an update whose outcome is unknown: the database as it now is, so that the next `up` sends what is missing. */
async function keptAsItIs(id: string, address: BranchAddress, news: Props, error: unknown): Promise<unknown> {
  try {
    const now = await locate(address, id);
    return now === "gone" ? error : new ResourceInitError(id, toOutputs(now, address.projectId), error, news);
  } catch {
    return error;
  }
}
