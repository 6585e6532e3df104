/**
 * Finding a database by its id. The API addresses a database by name, but a name can change outside Pulumi (a rename
 * in the console): the state's name then answers 404 while the database is still there under another name. The id
 * stays, and the branch's list shows it.
 */
import type { Database } from "../../client";
import { addressOf, BranchAddress } from "../shared/branch-objects";
import { found } from "../shared/errors";
import { recordedIn, Target } from "../shared/identity";
import { client } from "../shared/runtime";

type Props = Record<string, unknown>;

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
