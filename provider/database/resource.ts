/**
 * The Database resource: a Postgres database of a branch, owned by one of its roles. The provider object and the
 * constructed properties come from shared/dynamic-class.ts.
 */
import * as pulumi from "@pulumi/pulumi";
import { DATABASE } from "./declaration";
import { loadingProvider, constructedWith } from "../shared/dynamic-class";

// generated: the Database inputs (npm run generate, from declaration.ts)
/** The inputs of a Database; docs/resources.md#database says what a change of each does. */
export interface DatabaseArgs {
  /** Project of the database. Changing it replaces the database (a new, empty one). */
  projectId: pulumi.Input<string>;
  /**
   * Branch of the database. Changing it replaces the database (a new, empty one). A branch made from a parent already
   * has the parent's databases: declaring one of those fails before anything is sent.
   */
  branchId: pulumi.Input<string>;
  /**
   * The database's name: 1 to 63 bytes, not `postgres`, `template0` or `template1` (Neon's protected names). A new name
   * renames the database in place (one PATCH); its data and id stay.
   */
  name: pulumi.Input<string>;
  /**
   * The role that owns the database, a role of the same branch (a Role's `name`, so that it is created first, or an
   * inherited role such as `neondb_owner`). A new owner is one PATCH.
   */
  ownerName: pulumi.Input<string>;
  /**
   * Adopt the branch's existing database instead of creating one (a Project's default database: its
   * `defaultDatabaseId`): the database's id. Acts at creation: nothing is created, and a name or owner that differs
   * from the program's is one PATCH. Pulumi never deletes a database that the state's `adoptId` names (it goes with its
   * project); remove adoptId (an `up` that sends nothing) to let a destroy delete it.
   */
  adoptId?: pulumi.Input<string>;
}
// end of the generated Database inputs

const databaseProvider = loadingProvider(
  () => require("pulumi-neon-dynamic/provider/database/impl") as typeof import("./impl"),
  (impl) => impl.deleteDatabase,
);

/** A Postgres database of a branch. Destroying it deletes the database and its data. */
export class Database extends pulumi.dynamic.Resource {
  // generated: the Database outputs (npm run generate, from declaration.ts)
  /** The service's id of the database (a number; also the resource's id, as a string): it stays across a rename. */
  declare readonly databaseId: pulumi.Output<number>;
  /** Project of the database. */
  declare readonly projectId: pulumi.Output<string>;
  /** Branch of the database. */
  declare readonly branchId: pulumi.Output<string>;
  /** The database's name. */
  declare readonly name: pulumi.Output<string>;
  /** The role that owns the database. */
  declare readonly ownerName: pulumi.Output<string>;
  /** Creation time (ISO 8601). */
  declare readonly createdAt: pulumi.Output<string>;
  /** Last update time (ISO 8601). */
  declare readonly updatedAt: pulumi.Output<string>;
  /**
   * The id of the database adopted at creation, while the program sets adoptId: Pulumi never deletes the database it
   * names.
   */
  declare readonly adoptId: pulumi.Output<string | undefined>;
  // end of the generated Database outputs

  constructor(name: string, args: DatabaseArgs, opts?: pulumi.CustomResourceOptions) {
    super(databaseProvider, name, constructedWith(DATABASE, args), opts, "neon", "Database");
  }
}
