/**
 * The Database resource: a Postgres database of a branch, owned by one of its roles.
 *
 * The provider object below is what Pulumi serializes into `__provider`: it holds no API logic, no client and no
 * secret; each method loads the installed implementation by package name at call time.
 */
import * as pulumi from "@pulumi/pulumi";
import { DATABASE } from "./declaration";
import { everyOutput, type Assert, type DeclaredOutputs, type SameNames } from "../shared/declared-outputs";

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

const databaseProvider: pulumi.dynamic.ResourceProvider = {
  configure: (req) => impl().configure(req),
  check: (olds, news) => impl().check(olds, news),
  diff: (id, olds, news) => impl().diff(id, olds, news),
  create: (inputs) => impl().create(inputs),
  read: (id, props) => impl().read(id, props),
  update: (id, olds, news) => impl().update(id, olds, news),
  delete: (id, props) => impl().deleteDatabase(id, props),
};

function impl(): typeof import("./impl") {
  return require("pulumi-neon-dynamic/provider/database/impl");
}

/**
 * Every output the Database class declares, in the order declared (its declaration's outputs), each passed to the
 * engine (`undefined` unless the program set it): declared-outputs.ts. The build fails if the declaration and the
 * class's declarations differ.
 */
export const DATABASE_OUTPUTS = Object.keys(DATABASE.outputs) as (keyof typeof DATABASE.outputs)[];

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
    super(databaseProvider, name, { ...everyOutput(DATABASE_OUTPUTS), ...args }, opts, "neon", "Database");
  }
}

/** Compiles only while the declaration's outputs are exactly the Outputs the Database class declares. */
type _EveryDatabaseOutputListed = Assert<SameNames<DeclaredOutputs<Database>, keyof typeof DATABASE.outputs>>;
