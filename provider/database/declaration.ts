/**
 * Database, declared: a Postgres database of a branch, owned by one of its roles. Each property is one row (what it
 * is, the API field, its rules and their source, what a change does); Check, the diff, the PATCH body, the outputs,
 * schema.json and the table in docs/resources.md are derived from it (shared/declaration.ts).
 *
 * The API addresses a database by name, but a name changes in an update (a rename), and a dynamic provider cannot
 * change a resource's id in an update: the resource's id is the service's database id, which stays.
 */
import { postgresName } from "../shared/branch-objects";
import type { Database } from "../../client";
import { Declaration, outputsFrom, planChange, SchemaType, projectIdRow, branchIdRow } from "../shared/declaration";

import { isString, Validator } from "../shared/validators";

type Props = Record<string, unknown>;

const STRING: SchemaType = { type: "string" };

/** Database names Neon refuses (Neon docs, Manage databases, "Protected database names"; emulator/pg-input.ts). */
export const PROTECTED_DATABASE_NAMES = ["postgres", "template0", "template1"] as const;

const notProtected: Validator = (value) =>
  (PROTECTED_DATABASE_NAMES as readonly string[]).includes(String(value))
    ? `is one of Neon's protected database names, which cannot be given to a database (protected: ${PROTECTED_DATABASE_NAMES.join(", ")})`
    : undefined;

export const DATABASE = {
  name: "Database",
  docs: "docs/resources.md#database",
  description:
    "A Postgres database of a branch, owned by one of its roles. A new name renames it in place and a new owner is one PATCH (its data and id stay); a change of projectId or branchId replaces it with a new, empty database. A database the branch already has (inherited from its parent) is refused before anything is sent. Destroying it deletes the database and its data.",
  inputs: {
    projectId: projectIdRow("Project of the database. Changing it replaces the database (a new, empty one)."),
    branchId: branchIdRow(
      "Branch of the database. Changing it replaces the database (a new, empty one). A branch made from a parent already has the parent's databases: declaring one of those fails before anything is sent.",
    ),
    name: {
      schema: STRING,
      required: true,
      api: "name",
      rules: [postgresName("database"), notProtected],
      source: "PostgreSQL docs, Identifiers (NAMEDATALEN); Neon docs, Manage databases, Protected database names",
      change: "update",
      description:
        "The database's name: 1 to 63 bytes, not `postgres`, `template0` or `template1` (Neon's protected names). A new name renames the database in place (one PATCH); its data and id stay.",
    },
    ownerName: {
      schema: STRING,
      required: true,
      api: "owner_name",
      rules: [postgresName("owner role")],
      source: "PostgreSQL docs, Identifiers (NAMEDATALEN): the owner is a role's name",
      change: "update",
      description:
        "The role that owns the database, a role of the same branch (a Role's `name`, so that it is created first, or an inherited role such as `neondb_owner`). A new owner is one PATCH.",
    },
    adoptId: {
      schema: STRING,
      rules: [isString],
      source: "api.md, Ids (a database's id stays across a rename)",
      change: "record",
      removalIsChange: true,
      description:
        "Adopt the branch's existing database instead of creating one (a Project's default database: its `defaultDatabaseId`): the database's id. Acts at creation: nothing is created, and a name or owner that differs from the program's is one PATCH. Pulumi never deletes a database that the state's `adoptId` names (it goes with its project); remove adoptId (an `up` that sends nothing) to let a destroy delete it.",
    },
  },
  outputs: {
    databaseId: {
      schema: { type: "integer" },
      api: "id",
      description:
        "The service's id of the database (a number; also the resource's id, as a string): it stays across a rename.",
    },
    projectId: { schema: STRING, description: "Project of the database." },
    branchId: { schema: STRING, api: "branch_id", description: "Branch of the database." },
    name: { schema: STRING, api: "name", description: "The database's name." },
    ownerName: { schema: STRING, api: "owner_name", description: "The role that owns the database." },
    createdAt: { schema: STRING, api: "created_at", description: "Creation time (ISO 8601)." },
    updatedAt: { schema: STRING, api: "updated_at", description: "Last update time (ISO 8601)." },
    adoptId: {
      schema: STRING,
      optional: true,
      description:
        "The id of the database adopted at creation, while the program sets adoptId: Pulumi never deletes the database it names.",
    },
  },
} satisfies Declaration;

/** What a change does: replace (another project or branch), or one PATCH of what changed (a new name or owner). */
export interface DatabasePlan {
  changes: boolean;
  /** The inputs whose change the plan found. */
  changed: string[];
  replaces: string[];
  /** The properties sent in the PATCH. */
  patch: string[];
}

/** Decides what changing `olds` (old outputs) into `news` (new inputs) does to the database. */
export function planDatabaseChange(olds: Props, news: Props): DatabasePlan {
  const plan = planChange(DATABASE, olds, news);
  return { changes: plan.changed.length > 0, changed: plan.changed, replaces: plan.by.replace, patch: plan.by.update };
}

/**
 * Every output of a Database: the record, the project it belongs to (which the record does not name), and the
 * `adoptId` its inputs or state carry (the provider's own record).
 */
export const toOutputs = (database: Database, projectId: string, carried: Props = {}): Props => {
  const outputs = outputsFrom(DATABASE, database, { projectId });
  return carried.adoptId === undefined ? outputs : { ...outputs, adoptId: carried.adoptId };
};
