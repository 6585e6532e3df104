/**
 * getDatabases: the databases of a branch (GET …/branches/{b}/databases; not paged: OpenAPI `DatabasesResponse`), each
 * with a Database resource's outputs, read by Database's own `toOutputs` (provider/database/declaration.ts). A branch
 * the project lacks is named; a project that does not answer is said. Runs in the program; the native Invoke calls
 * `listDatabases`.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { NeonClient } from "../../client";
import { DATABASE, toOutputs } from "../database/declaration";
import { inProgram, type InputsOf, outputOf } from "../shared/program-client";
import { checked, lookedUp, reading } from "./lookup";
import { branchListArgsProblem } from "./get-roles";

// generated: DatabaseInfo (npm run generate, from the declaration)
/** A database as a lookup gives it: a Database resource's outputs. */
export interface DatabaseInfo {
  /** The service's id of the database (a number; also the resource's id, as a string): it stays across a rename. */
  databaseId: number;
  /** Project of the database. */
  projectId: string;
  /** Branch of the database. */
  branchId: string;
  /** The database's name. */
  name: string;
  /** The role that owns the database. */
  ownerName: string;
  /** Creation time (ISO 8601). */
  createdAt: string;
  /** Last update time (ISO 8601). */
  updatedAt: string;
}
// end of the generated DatabaseInfo

export interface GetDatabasesArgs {
  /** The branch's project. */
  projectId: string;
  /** The branch whose databases to list (`br-…`). */
  branchId: string;
}

/** The arguments of getDatabasesOutput: each may be an Output. */
export type GetDatabasesOutputArgs = InputsOf<GetDatabasesArgs>;

export interface GetDatabasesResult {
  /** The branch's databases. */
  databases: DatabaseInfo[];
}

/** The databases of a branch. */
export function getDatabases(args: GetDatabasesArgs): Promise<GetDatabasesResult> {
  return inProgram(listDatabases, args);
}

/** getDatabases for inputs that are Outputs. */
export function getDatabasesOutput(args: GetDatabasesOutputArgs): pulumi.Output<GetDatabasesResult> {
  return outputOf(args, getDatabases);
}

/** getDatabases with a given client (`key` names its key's setting, for messages). */
export function listDatabases(
  client: NeonClient,
  args: GetDatabasesArgs,
  key = "neon:apiKey",
): Promise<GetDatabasesResult> {
  const { projectId, branchId } = args;
  return checked("getDatabases", branchListArgsProblem({ ...args }), async () => {
    const looking = { fn: "getDatabases", projectId, branchId, key };
    const databases = await reading(client, looking, () => client.databases.list(projectId, branchId));
    return { databases: databases.map((d) => lookedUp(DATABASE, toOutputs(d, projectId)) as unknown as DatabaseInfo) };
  });
}
