/**
 * Database's changes: creating one, updating it in place, and finding it by its id.
 *
 * Creating without duplicates and without taking anyone's database:
 * - The branch is read first: a database of that name already there (inherited from the parent, made outside Pulumi)
 *   is refused before anything is sent (refusal.ts); a 409 from a create that raced another client says the same.
 * - A name is unique in its branch, and it was free just before: a create whose response was lost (kind `ambiguous`)
 *   is settled by reading the branch's databases, inside the project lock (the client's `recover`, which then waits
 *   for the branch's operations). Found: it is this create's (its id recorded). Not found: the create is sent again
 *   (a few times: shared/lifecycle.ts createSettled).
 * - A database that exists but whose operations failed or timed out is reported with its id (ResourceInitError), so
 *   the engine keeps it in state and nothing is orphaned.
 *
 * Updating in place: one PATCH of what changed (a new name, a new owner), addressed by name.
 * - Identity before write (shared/identity.ts): the PATCH goes to the name the database has now, after checking that
 *   the object under the state's name is ours (its id and creation time). Renamed outside Pulumi, even when another
 *   database took its old name (a blue/green swap): the PATCH goes to its new name (the program's name wins, as after
 *   a refresh), with a warning; gone: refused, the other database untouched.
 * - A PATCH whose answer was lost (kind `ambiguous`) is settled by reading the database back by id: when it shows the
 *   new name and owner, the update is done; otherwise it is sent again (a few times). Never resent blindly.
 * - A PATCH applied whose operations failed or timed out keeps the database in state as it now is (recordedAsItIs).
 *
 * Finding by id: the API addresses a database by name, but a name can change outside Pulumi (a rename in the console):
 * the state's name then answers 404 while the database is still there under another name. The id stays, and the
 * branch's list shows it.
 */
import type { Database } from "../../client";
import { addressOf, BranchAddress } from "../shared/branch-objects";
import { apiBody, recordedOutputs } from "../shared/declaration";
import * as adoption from "../shared/adoption";
import { createdIdOf, errorKind, found, OUTCOME_UNKNOWN, ResourceInitError } from "../shared/errors";
import { nameToWrite, recordedIn, Target } from "../shared/identity";
import { createSettled, recordedAsItIs } from "../shared/lifecycle";
import { client } from "../shared/runtime";
import { DATABASE, planDatabaseChange, toOutputs } from "./declaration";
import { alreadyOnBranch, explainOwnerMissing } from "./refusal";

type Props = Record<string, unknown>;

export async function createDatabase(inputs: Props): Promise<{ id: string; outs: Props }> {
  if (typeof inputs.adoptId === "string") return adoptDatabase(inputs);
  const address = addressOf(inputs);
  const name = String(inputs.name);
  const existing = await named(address, name);
  if (existing !== undefined) throw alreadyOnBranch(address, name, String(existing.id));
  const body = apiBody(DATABASE, inputs, Object.keys(DATABASE.inputs)) as { name: string; owner_name: string };
  const recover = () => named(address, name);
  try {
    const send = () => client().databases.create(address.projectId, address.branchId, body, { recover });
    return created((await createSettled(send)).database, address);
  } catch (error) {
    const kind = errorKind(error);
    if (kind === "conflict") throw alreadyOnBranch(address, name, undefined, error);
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

/** How adoption's messages speak of a database (shared/adoption.ts). */
const ADOPTABLE: adoption.Adoptable = {
  type: "Database",
  kind: "database",
  adopting: () =>
    "where its name or owner differ from the program's, adopting changes them (one PATCH; its data stays)",
};

/** Takes the branch's database `inputs.adoptId` (its id) under management: a name or owner that differs is one PATCH. */
async function adoptDatabase(inputs: Props): Promise<{ id: string; outs: Props }> {
  const address = addressOf(inputs);
  const id = String(inputs.adoptId);
  const database = await locate(address, id);
  if (database === "gone")
    throw adoption.notThere(ADOPTABLE, address.projectId, `${id} (on branch ${address.branchId})`);
  const current = toOutputs(database, address.projectId, inputs);
  const patch = planDatabaseChange(current, inputs).patch;
  return { id, outs: patch.length === 0 ? current : await updateDatabase(id, current, inputs) };
}

/** What Check says about `adoptId` (shared/adoption.ts). */
export const adoptionWarnings = (olds: Props, news: Props): string[] =>
  adoption.adoptionWarnings(ADOPTABLE, olds, news);

/** Why Delete leaves the database `id` on the service, or undefined to delete it (shared/adoption.ts). */
export const keptOnDelete = (id: string, props: Props): string | undefined =>
  adoption.keptAdopted(ADOPTABLE, id, `Database ${String(props.name)} (id ${id})`, props);

/** The branch's database of this name; undefined when it has none (a branch that does not answer: the error). */
async function named(address: BranchAddress, name: string): Promise<Database | undefined> {
  const databases = await client().databases.list(address.projectId, address.branchId);
  return databases.find((database) => database.name === name);
}

type PatchBody = { name?: string; owner_name?: string };

/** PATCHes whose answers were lost (each read back first) before the step fails. */
const PATCH_ATTEMPTS = 3;

/** Applies `news` to the database `id` whose outputs are `olds`; returns the new outputs. */
export async function updateDatabase(id: string, olds: Props, news: Props): Promise<Props> {
  const address = addressOf(olds);
  const patch = planDatabaseChange(olds, news).patch;
  // Only the provider's record changed (a removed adoptId): nothing to send.
  if (patch.length === 0) return recordedOutputs(olds, news, ["adoptId"], []);
  const outputs = (database: Database) => toOutputs(database, address.projectId, news);
  const body: PatchBody = apiBody(DATABASE, news, patch);
  let name = (await nameToWrite(databaseTarget(id, olds), "change")) as string;
  for (let attempt = 1; ; attempt++) {
    try {
      const { database } = await client().databases.update(address.projectId, address.branchId, name, body);
      return outputs(database);
    } catch (error) {
      const kind = errorKind(error);
      if (kind === "ambiguous") {
        const now = await locate(address, id).catch(() => undefined);
        if (now !== undefined && now !== "gone" && matches(now, body)) return outputs(now);
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
    return now === "gone" ? undefined : toOutputs(now, address.projectId, news);
  };
  return recordedAsItIs(id, news, error, { read });
}

/**
 * The database with this id on its branch; `gone` when the branch answers without it, or does not answer (404: a
 * branch deleted takes its databases; whether the project answers is the caller's to check).
 */
export async function locate(address: BranchAddress, id: string): Promise<Database | "gone"> {
  const databases = await found(() => client().databases.list(address.projectId, address.branchId));
  return databases?.find((database) => String(database.id) === id) ?? "gone";
}

/** The database `id` as its state `props` records it, for the identity check before a write (shared/identity.ts). */
export function databaseTarget(id: string, props: Props): Target<"database"> {
  const name = String(props.name);
  return {
    kind: "database",
    label: `Database ${name} (id ${id})`,
    address: addressOf(props),
    name,
    recorded: recordedIn(props, id),
  };
}
