/**
 * The Project resource: a Neon project with its default branch, compute, role and database. `rolePassword`,
 * `connectionUri` and `connectionUriPooled` are registered with `additionalSecretOutputs`, so the engine encrypts them
 * in state whatever the program does with them. The provider object and the constructed properties come from
 * shared/dynamic-class.ts.
 */
import * as pulumi from "@pulumi/pulumi";
import { loadingProvider, constructedWith, withSecretOutputs } from "../shared/dynamic-class";
import { PROJECT } from "./declaration";

// generated: the Project inputs (npm run generate, from declaration.ts)
/**
 * The settings of the project's computes (OpenAPI DefaultEndpointSettings): the default compute's, and those of the
 * computes made later.
 */
export interface ProjectDefaultEndpointSettings {
  /** Minimum size in CU (0.25, 0.5, 1..16, even 18..56); set with autoscalingLimitMaxCu. */
  autoscalingLimitMinCu?: pulumi.Input<number>;
  /** Maximum size in CU (autoscaling up to 16 CU, at most 8 CU above the minimum). */
  autoscalingLimitMaxCu?: pulumi.Input<number>;
  /** Idle seconds before suspending: 0 = the default (300), -1 = never, else 60..604800. */
  suspendTimeoutSeconds?: pulumi.Input<number>;
}

/** Project settings (a subset of OpenAPI ProjectSettingsData): the IP allowlist and logical replication. */
export interface ProjectSettings {
  /** The addresses, ranges or CIDR blocks allowed to connect (IP Allow; `allowed_ips.ips`); empty: any address. */
  allowedIps?: pulumi.Input<pulumi.Input<string>[]>;
  /**
   * Sets wal_level=logical on every compute: the running computes are suspended (their connections drop), and it cannot
   * be turned off again (OpenAPI).
   */
  enableLogicalReplication?: pulumi.Input<boolean>;
}

/** The names of the default branch, role and database a new project makes (set at creation only). */
export interface ProjectDefaultBranch {
  /** The default branch's name (default `main`), 1..256 characters. */
  name?: pulumi.Input<string>;
  /** The default role's name (default `{databaseName}_owner`), at most 63 bytes. */
  roleName?: pulumi.Input<string>;
  /** The default database's name (default `neondb`), at most 63 bytes. */
  databaseName?: pulumi.Input<string>;
}

/** The inputs of a Project; docs/resources.md#project says what a change of each does. */
export interface ProjectArgs {
  /**
   * The project's name, 1..256 characters. Default: the resource's name. Changing it renames the project (one PATCH).
   */
  name?: pulumi.Input<string>;
  /**
   * The region (`aws-us-east-2`, `aws-eu-central-1`, `azure-eastus2`, …; Neon docs, Regions). Default: the service's.
   * Changing it replaces the project: every branch and database is deleted.
   */
  regionId?: pulumi.Input<string>;
  /**
   * The Postgres major version, 14 to 18 (default 17). Changing it replaces the project: every branch and database is
   * deleted.
   */
  pgVersion?: pulumi.Input<number>;
  /**
   * The organization that owns the project (`org-…`). Left out: the key's account (or an organization key's
   * organization). Changing it replaces the project.
   */
  orgId?: pulumi.Input<string>;
  /**
   * Seconds of history kept for point-in-time restore and branching from the past, 0..2592000 (30 days). Changing it is
   * one PATCH.
   */
  historyRetentionSeconds?: pulumi.Input<number>;
  /**
   * The default compute's sizes and autosuspend, and those of computes made later: `{ autoscalingLimitMinCu,
   * autoscalingLimitMaxCu, suspendTimeoutSeconds }` (both sizes or neither). A change is one PATCH of the project and
   * one of the default compute (Neon's PATCH alone leaves existing computes as they are); a new size restarts it if it
   * is running.
   */
  defaultEndpointSettings?: pulumi.Input<ProjectDefaultEndpointSettings>;
  /**
   * `{ allowedIps, enableLogicalReplication }`: one PATCH. Turning logical replication on suspends the running computes
   * (the preview warns) and cannot be undone; a setting left out keeps its value.
   */
  settings?: pulumi.Input<ProjectSettings>;
  /**
   * `{ name, roleName, databaseName }`: the names of the default branch, role and database, at creation only. A later
   * change is refused at preview, saying how to rename each; removing it changes nothing.
   */
  branch?: pulumi.Input<ProjectDefaultBranch>;
  /**
   * Default true: the resource gets Pulumi's protect (unless the program sets protect or retainOnDelete), so a destroy
   * or a replacement is refused before anything is deleted, and the provider refuses to delete the project. Set false
   * (and run pulumi up) to let it go.
   */
  deletionProtection?: pulumi.Input<boolean>;
  /**
   * Adopt an existing project by id instead of creating one. Acts at creation. Keep it to leave the project on the
   * service when the resource goes, or remove it after the first `up` (an `up` that sends nothing) to let a destroy
   * delete it. Pulumi never deletes a project that the state's `adoptId` names.
   */
  adoptId?: pulumi.Input<string>;
}
// end of the generated Project inputs

const projectProvider = loadingProvider(
  () => require("pulumi-neon-dynamic/provider/project/impl") as typeof import("./impl"),
  (impl) => impl.deleteProject,
);

/** A Neon project. Destroying it deletes every branch, compute, role and database in it (refused while protected). */
export class Project extends pulumi.dynamic.Resource {
  // generated: the Project outputs (npm run generate, from declaration.ts)
  /** The project id, for the projectId of a Branch, Compute, Role or Database. */
  declare readonly projectId: pulumi.Output<string>;
  /** The project's name. */
  declare readonly name: pulumi.Output<string>;
  /** The project's region. */
  declare readonly regionId: pulumi.Output<string>;
  /** The Postgres major version. */
  declare readonly pgVersion: pulumi.Output<number>;
  /** The organization that owns the project, if any. */
  declare readonly orgId: pulumi.Output<string | undefined>;
  /** Seconds of history kept. */
  declare readonly historyRetentionSeconds: pulumi.Output<number>;
  /** The settings of the project's computes. */
  declare readonly defaultEndpointSettings: pulumi.Output<{
    autoscalingLimitMinCu?: number;
    autoscalingLimitMaxCu?: number;
    suspendTimeoutSeconds?: number;
  }>;
  /** The declared subset of the project's settings. */
  declare readonly settings: pulumi.Output<{ allowedIps?: string[]; enableLogicalReplication?: boolean }>;
  /** The names of the default branch, role and database at creation. */
  declare readonly branch: pulumi.Output<{ name?: string; roleName?: string; databaseName?: string }>;
  /** Whether the provider refuses to delete the project (recorded, not Neon's). */
  declare readonly deletionProtection: pulumi.Output<boolean>;
  /** The id of the project adopted at creation, while the program sets adoptId. */
  declare readonly adoptId: pulumi.Output<string | undefined>;
  /** The default branch's id (`br-…`), for a Compute's or Role's branchId. */
  declare readonly defaultBranchId: pulumi.Output<string>;
  /** The default branch's read-write compute (`ep-…`), for a Compute's adoptId. */
  declare readonly defaultComputeId: pulumi.Output<string>;
  /** The default compute's host name. */
  declare readonly defaultComputeHost: pulumi.Output<string | undefined>;
  /** The default role's id (`<projectId>/<branchId>/<name>`), for a Role's adoptId. */
  declare readonly defaultRoleId: pulumi.Output<string>;
  /** The default database's id, for a Database's adoptId. */
  declare readonly defaultDatabaseId: pulumi.Output<string>;
  /** The default role's name (it owns the default database). */
  declare readonly roleName: pulumi.Output<string>;
  /** The default role's password (a secret). */
  declare readonly rolePassword: pulumi.Output<string | undefined>;
  /** The default database's name. */
  declare readonly databaseName: pulumi.Output<string>;
  /** postgresql://… to the default database through the default compute (a secret). */
  declare readonly connectionUri: pulumi.Output<string | undefined>;
  /** The same through the connection pooler (`-pooler` host; a secret). */
  declare readonly connectionUriPooled: pulumi.Output<string | undefined>;
  /** Creation time (ISO 8601). */
  declare readonly createdAt: pulumi.Output<string | undefined>;
  /** The Pulumi name of this resource, used in messages and as the default project name. */
  declare readonly resourceName: pulumi.Output<string>;
  // end of the generated Project outputs

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
