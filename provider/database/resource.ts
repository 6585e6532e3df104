/**
 * The Database resource: a Postgres database of a branch, owned by one of its roles. The provider object and the
 * constructed properties come from shared/dynamic-class.ts.
 */
import * as pulumi from "@pulumi/pulumi";
import { DATABASE } from "./declaration";
import { loadingProvider, constructedWith } from "../shared/dynamic-class";
import { type Assert, type DeclaredOutputs, type SameNames } from "../shared/declared-outputs";

/** Inputs of a Database. */
export interface DatabaseArgs {
  /** Project of the database. Changing it replaces the database (a new, empty one). */
  projectId: pulumi.Input<string>;
  /**
   * Branch of the database. Changing it replaces the database (a new, empty one). A branch made from a parent already
   * has the parent's databases: declaring one of those fails before anything is sent.
   */
  branchId: pulumi.Input<string>;
  /**
   * The database's name: 1 to 63 bytes, not `postgres`, `template0` or `template1` (Neon's protected names). A new
   * name renames the database in place (one PATCH); its data and id stay.
   */
  name: pulumi.Input<string>;
  /**
   * The role that owns the database, a role of the same branch (a `Role`'s `name`, so that it is created first, or an
   * inherited role such as `neondb_owner`). A new owner is one PATCH.
   */
  ownerName: pulumi.Input<string>;
  /**
   * Adopt the branch's existing database instead of creating one (a Project's default database:
   * `project.defaultDatabaseId`): the database's id. A name or owner that differs is one PATCH. Pulumi never deletes a
   * database that the state's `adoptId` names (it goes with its project).
   */
  adoptId?: pulumi.Input<string>;
}

const databaseProvider = loadingProvider(
  () => require("pulumi-neon-dynamic/provider/database/impl") as typeof import("./impl"),
  (impl) => impl.deleteDatabase,
);

/** A Postgres database of a branch. Destroying it deletes the database and its data. */
export class Database extends pulumi.dynamic.Resource {
  /** The service's id of the database (a number; also the resource's id, as a string): it stays across a rename. */
  declare readonly databaseId: pulumi.Output<number>;
  declare readonly projectId: pulumi.Output<string>;
  declare readonly branchId: pulumi.Output<string>;
  declare readonly name: pulumi.Output<string>;
  declare readonly ownerName: pulumi.Output<string>;
  declare readonly createdAt: pulumi.Output<string>;
  declare readonly updatedAt: pulumi.Output<string>;
  /** The id of the database adopted at creation, while the program sets adoptId. */
  declare readonly adoptId: pulumi.Output<string | undefined>;

  constructor(name: string, args: DatabaseArgs, opts?: pulumi.CustomResourceOptions) {
    super(databaseProvider, name, constructedWith(DATABASE, args), opts, "neon", "Database");
  }
}

/** Compiles only while the declaration's outputs are exactly the Outputs the Database class declares. */
type _EveryDatabaseOutputListed = Assert<SameNames<DeclaredOutputs<Database>, keyof typeof DATABASE.outputs>>;
