/**
 * The Project resource: a Neon project with its default branch, compute, role and database. `rolePassword`,
 * `connectionUri` and `connectionUriPooled` are registered with `additionalSecretOutputs`, so the engine encrypts them
 * in state whatever the program does with them. The provider object and the constructed properties come from
 * shared/dynamic-class.ts.
 */
import * as pulumi from "@pulumi/pulumi";
import { loadingProvider, constructedWith, withSecretOutputs } from "../shared/dynamic-class";
import { type Assert, type DeclaredOutputs, type SameNames } from "../shared/declared-outputs";
import { PROJECT } from "./declaration";

/** The default compute's sizes and autosuspend (OpenAPI DefaultEndpointSettings). */
export interface ProjectDefaultEndpointSettings {
  autoscalingLimitMinCu?: pulumi.Input<number>;
  autoscalingLimitMaxCu?: pulumi.Input<number>;
  suspendTimeoutSeconds?: pulumi.Input<number>;
}

/** The names of the default branch, role and database, at creation only. */
export interface ProjectDefaultBranch {
  name?: pulumi.Input<string>;
  roleName?: pulumi.Input<string>;
  databaseName?: pulumi.Input<string>;
}

/** The declared subset of the project's settings. */
export interface ProjectSettings {
  allowedIps?: pulumi.Input<pulumi.Input<string>[]>;
  enableLogicalReplication?: pulumi.Input<boolean>;
}

/** Inputs of a Project. See docs/resources.md (Project) for what each change does. */
export interface ProjectArgs {
  /** The project's name, 1..256 characters. Default: the resource's name. Changing it is one PATCH. */
  name?: pulumi.Input<string>;
  /** The region (`aws-us-east-2`, …). Changing it replaces the project: every branch and database is deleted. */
  regionId?: pulumi.Input<string>;
  /** The Postgres major version, 14 to 18. Changing it replaces the project. */
  pgVersion?: pulumi.Input<number>;
  /** The organization that owns the project. Changing it replaces the project. */
  orgId?: pulumi.Input<string>;
  /** Seconds of history kept, 0..2592000. One PATCH. */
  historyRetentionSeconds?: pulumi.Input<number>;
  /** The default compute's sizes and autosuspend; a change also PATCHes the default compute (a new size restarts it). */
  defaultEndpointSettings?: pulumi.Input<ProjectDefaultEndpointSettings>;
  /** The IP allowlist and logical replication (one PATCH; logical replication cannot be turned off). */
  settings?: pulumi.Input<ProjectSettings>;
  /** The default branch's, role's and database's names, at creation only (a later change is refused). */
  branch?: pulumi.Input<ProjectDefaultBranch>;
  /**
   * Default true: the resource gets Pulumi's `protect` (unless the program sets `protect` or `retainOnDelete`), and
   * the provider refuses to delete the project. Set false, and run `pulumi up`, to let it go.
   */
  deletionProtection?: pulumi.Input<boolean>;
  /** Adopt an existing project by id instead of creating one. Pulumi never deletes a project `adoptId` names. */
  adoptId?: pulumi.Input<string>;
}

const projectProvider = loadingProvider(
  () => require("pulumi-neon-dynamic/provider/project/impl") as typeof import("./impl"),
  (impl) => impl.deleteProject,
);

/** A Neon project. Destroying it deletes every branch, compute, role and database in it (refused while protected). */
export class Project extends pulumi.dynamic.Resource {
  declare readonly projectId: pulumi.Output<string>;
  declare readonly name: pulumi.Output<string>;
  declare readonly regionId: pulumi.Output<string>;
  declare readonly pgVersion: pulumi.Output<number>;
  declare readonly orgId: pulumi.Output<string | undefined>;
  declare readonly historyRetentionSeconds: pulumi.Output<number>;
  declare readonly defaultEndpointSettings: pulumi.Output<{
    autoscalingLimitMinCu?: number;
    autoscalingLimitMaxCu?: number;
    suspendTimeoutSeconds?: number;
  }>;
  declare readonly settings: pulumi.Output<{ allowedIps?: string[]; enableLogicalReplication?: boolean }>;
  declare readonly branch: pulumi.Output<{ name?: string; roleName?: string; databaseName?: string }>;
  declare readonly deletionProtection: pulumi.Output<boolean>;
  declare readonly adoptId: pulumi.Output<string | undefined>;
  /** The default branch's id (`br-…`). */
  declare readonly defaultBranchId: pulumi.Output<string>;
  declare readonly defaultComputeId: pulumi.Output<string>;
  declare readonly defaultComputeHost: pulumi.Output<string | undefined>;
  /** The default role's id, for a Role's adoptId (`<projectId>/<branchId>/<name>`). */
  declare readonly defaultRoleId: pulumi.Output<string>;
  /** The default database's id, for a Database's adoptId. */
  declare readonly defaultDatabaseId: pulumi.Output<string>;
  declare readonly roleName: pulumi.Output<string>;
  /** The default role's password, a secret. */
  declare readonly rolePassword: pulumi.Output<string | undefined>;
  declare readonly databaseName: pulumi.Output<string>;
  /** postgresql://… to the default database (a secret). */
  declare readonly connectionUri: pulumi.Output<string | undefined>;
  declare readonly connectionUriPooled: pulumi.Output<string | undefined>;
  declare readonly createdAt: pulumi.Output<string | undefined>;
  declare readonly resourceName: pulumi.Output<string>;

  constructor(name: string, args: ProjectArgs, opts?: pulumi.CustomResourceOptions) {
    const props = constructedWith(PROJECT, args, { resourceName: name });
    const options = withDeletionProtection(args, withSecretOutputs(opts, PROJECT));
    super(projectProvider, name, props, options, "neon", "Project");
    // The id, not the output of the same value: in an update's preview the engine gives a dynamic resource's new
    // inputs as its outputs, so an output no input sets is unknown there (branch/resource.ts says the same).
    (this as { projectId: pulumi.Output<string> }).projectId = this.id;
  }
}

/**
 * `deletionProtection` (default true) brings Pulumi's `protect`, as Branch's `protected: true` does
 * (branch/resource.ts `withServiceProtection`): the engine checks it at each delete and replace step, in the preview,
 * before anything that depends on the project is deleted. An explicit `protect` or `retainOnDelete` wins; only a plain
 * `false` lets it go (an Output cannot be read here: it counts as true, and the provider's Delete reads the state's).
 */
export function withDeletionProtection(
  args: Pick<ProjectArgs, "deletionProtection">,
  opts: pulumi.CustomResourceOptions,
): pulumi.CustomResourceOptions {
  if (args.deletionProtection === false || opts.protect !== undefined || opts.retainOnDelete === true) return opts;
  return { ...opts, protect: true };
}

/** Compiles only while the declaration's outputs are exactly the Outputs the Project class declares. */
type _EveryProjectOutputListed = Assert<SameNames<DeclaredOutputs<Project>, keyof typeof PROJECT.outputs>>;
