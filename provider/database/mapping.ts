/**
 * Translation between the API's database record (snake_case) and the Database's outputs (camelCase).
 *
 * The id: the service's database id (a number, as a string). The API addresses a database by name, but a name changes
 * in an update (a rename), and a dynamic provider cannot change a resource's id in an update; the database id stays.
 * The name the API needs is the one in state (and, if that one is gone, the one the branch lists for the id: locate.ts).
 */
import type { Database } from "../../sdk";
import { addressOf } from "../shared/branch-objects";
import { recordedIn, Target } from "../shared/identity";

type Props = Record<string, unknown>;

/** Every output of a Database: the record in camelCase, and the project it belongs to. */
export function toOutputs(database: Database, projectId: string): Props {
  return {
    databaseId: database.id,
    projectId,
    branchId: database.branch_id,
    name: database.name,
    ownerName: database.owner_name,
    createdAt: database.created_at,
    updatedAt: database.updated_at,
  };
}

/** The inputs a refresh records: every input is required, so every one is declared, and each can drift. */
export function inputsOf(outputs: Props): Props {
  const { projectId, branchId, name, ownerName } = outputs;
  return { projectId, branchId, name, ownerName };
}

/** The body of a PATCH carrying only the given properties. */
export function toPatchBody(news: Props, properties: string[]): { name?: string; owner_name?: string } {
  const body: { name?: string; owner_name?: string } = {};
  if (properties.includes("name")) body.name = String(news.name);
  if (properties.includes("ownerName")) body.owner_name = String(news.ownerName);
  return body;
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
