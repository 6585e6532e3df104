/**
 * The Branch resource: a branch of a Neon project (a copy-on-write clone of its parent's data, or a schema-only root).
 * The provider object and the constructed properties come from shared/dynamic-class.ts.
 */
import * as pulumi from "@pulumi/pulumi";
import { BRANCH } from "./declaration";
import { loadingProvider, constructedWith } from "../shared/dynamic-class";

// generated: the Branch inputs (npm run generate, from declaration.ts)
/** The inputs of a Branch; docs/resources.md#branch says what a change of each does. */
export interface BranchArgs {
  /** Project of the branch. Changing it replaces the branch. */
  projectId: pulumi.Input<string>;
  /**
   * The parent branch (its id). Left out: the project's default branch, resolved when the branch is created and
   * recorded, so leaving it out never shows a difference later. Changing it replaces the branch. For a schema-only
   * branch, the branch whose schema is copied.
   */
  parentId?: pulumi.Input<string>;
  /**
   * The branch's name, 1..256 characters, unique in the project. Default: the resource's name. Changing it renames the
   * branch (one PATCH).
   */
  name?: pulumi.Input<string>;
  /**
   * A point on the parent to branch from: a Log Sequence Number (`0/1DE2850`). Not with `parentTimestamp`. Changing it
   * replaces the branch.
   */
  parentLsn?: pulumi.Input<string>;
  /**
   * A point on the parent to branch from: an RFC 3339 time, not in the future. Not with `parentLsn`. Changing it
   * replaces the branch.
   */
  parentTimestamp?: pulumi.Input<string>;
  /**
   * `parent-data` (the default: schema and data) or `schema-only` (a root branch with the schema only). Changing it
   * replaces the branch.
   */
  initSource?: pulumi.Input<"parent-data" | "schema-only">;
  /**
   * A protected branch cannot be deleted, reset or expire. Changing it is one PATCH. A plain true also gives the
   * resource Pulumi's protect option (unless the program sets protect or retainOnDelete itself), so that a destroy or a
   * replacement is refused before anything is deleted.
   */
  protected?: pulumi.Input<boolean>;
  /**
   * When Neon deletes the branch (with its computes): RFC 3339 in whole seconds, in the future, at most 30 days ahead;
   * not with `protected: true`. Changing it is one PATCH; removing it removes the expiry.
   */
  expiresAt?: pulumi.Input<string>;
  /**
   * Annotations (at most 50 string values). Set at creation; Neon documents no call that changes them afterwards, so a
   * change is refused at preview, naming the keys and the way out (ignoreChanges, or a replacement); removing them is
   * recorded and the branch keeps them.
   */
  annotations?: pulumi.Input<Record<string, pulumi.Input<string>>>;
  /**
   * Any values: when they change, the branch is reset from its parent (its latest data): the branch's own changes are
   * discarded, and its computes restart. Not on a schema-only branch, a protected one or one with children.
   */
  resetTriggers?: pulumi.Input<unknown[]>;
  /**
   * Adopt an existing branch by id instead of creating one (`pulumi import` reaches only the native plugin's resources,
   * not dynamic ones). Acts at creation. Keep it (a project's default object), or remove it after the first `up` (an
   * `up` that sends nothing) to let a destroy delete it. Pulumi never deletes a branch that the state's `adoptId`
   * names.
   */
  adoptId?: pulumi.Input<string>;
}
// end of the generated Branch inputs

const branchProvider = loadingProvider(
  () => require("pulumi-neon-dynamic/provider/branch/impl") as typeof import("./impl"),
  (impl) => impl.deleteBranch,
);

/**
 * A branch of a Neon project. Outputs are the service's record in camelCase; typed `| undefined` where the service may
 * leave a field out.
 */
export class Branch extends pulumi.dynamic.Resource {
  // generated: the Branch outputs (npm run generate, from declaration.ts)
  /** The branch id (`br-…`), for a Compute's `branchId` or a child Branch's `parentId`. */
  declare readonly branchId: pulumi.Output<string>;
  /** Project of the branch. */
  declare readonly projectId: pulumi.Output<string>;
  /** The parent, as the service reports it (none for a schema-only or root branch). */
  declare readonly parentId: pulumi.Output<string | undefined>;
  /** The branch's name. */
  declare readonly name: pulumi.Output<string>;
  /** The point on the parent the branch starts from (a reset moves it to the parent's head then). */
  declare readonly parentLsn: pulumi.Output<string | undefined>;
  /** The time on the parent the branch starts from (a reset moves it). */
  declare readonly parentTimestamp: pulumi.Output<string | undefined>;
  /** `parent-data` or `schema-only`, as the service reports it. */
  declare readonly initSource: pulumi.Output<string | undefined>;
  /** Whether the branch is protected. */
  declare readonly protected: pulumi.Output<boolean>;
  /** When Neon deletes the branch, if it expires (RFC 3339). */
  declare readonly expiresAt: pulumi.Output<string | undefined>;
  /** The branch's annotations, as the service has them. */
  declare readonly annotations: pulumi.Output<Record<string, string> | undefined>;
  /**
   * Any values: when they change, the branch is reset from its parent (its latest data): the branch's own changes are
   * discarded, and its computes restart. Not on a schema-only branch, a protected one or one with children.
   */
  declare readonly resetTriggers: pulumi.Output<unknown[] | undefined>;
  /**
   * The id of the branch adopted at creation, while the program sets adoptId: Pulumi never deletes the branch it names.
   */
  declare readonly adoptId: pulumi.Output<string | undefined>;
  /** Whether this is the project's default branch. */
  declare readonly default: pulumi.Output<boolean>;
  /** init, ready, resetting, … */
  declare readonly currentState: pulumi.Output<string>;
  /** The state the branch is moving to, if any. */
  declare readonly pendingState: pulumi.Output<string | undefined>;
  /** When `currentState` began (ISO 8601). */
  declare readonly stateChangedAt: pulumi.Output<string>;
  /** The logical size of the branch, in bytes, if reported. */
  declare readonly logicalSize: pulumi.Output<number | undefined>;
  /** What created the branch (console, API, ...). */
  declare readonly creationSource: pulumi.Output<string>;
  /** Compute time used, in seconds (a usage counter). */
  declare readonly computeTimeSeconds: pulumi.Output<number>;
  /** Active time of the branch's computes, in seconds (a usage counter). */
  declare readonly activeTimeSeconds: pulumi.Output<number>;
  /** Data written, in bytes (a usage counter). */
  declare readonly writtenDataBytes: pulumi.Output<number>;
  /** Data transferred, in bytes (a usage counter). */
  declare readonly dataTransferBytes: pulumi.Output<number>;
  /** Creation time (ISO 8601). */
  declare readonly createdAt: pulumi.Output<string>;
  /** Last update time (ISO 8601). */
  declare readonly updatedAt: pulumi.Output<string>;
  /** The time to live set with expiresAt, in seconds: a reset moves the expiry to now plus this. */
  declare readonly ttlIntervalSeconds: pulumi.Output<number | undefined>;
  /** When the branch was last reset, if ever. */
  declare readonly lastResetAt: pulumi.Output<string | undefined>;
  /** The Pulumi name of this resource, used in messages and as the default branch name. */
  declare readonly resourceName: pulumi.Output<string>;
  // end of the generated Branch outputs

  constructor(name: string, args: BranchArgs, opts?: pulumi.CustomResourceOptions) {
    const props = constructedWith(BRANCH, args, { resourceName: name });
    super(branchProvider, name, props, withServiceProtection(args, opts), "neon", "Branch");
    // The id, not the output of the same value: in the preview of an update, the engine gives a dynamic resource's
    // outputs as its new inputs (provider_plugin.go Update: "return the inputs as the state"), so an output that is no
    // input is unknown there, while the id stays known. A rename or an expiry moved would otherwise show every
    // Compute, Role and Database on the branch as changing ("branchId: [unknown]", a Database replaced).
    (this as { branchId: pulumi.Output<string> }).branchId = this.id;
  }
}

/**
 * Neon refuses to delete a protected branch, but Pulumi deletes what depends on a branch (child branches, the computes,
 * roles and databases on it, and the rest of the stack being destroyed) before it asks the provider to delete the
 * branch: the refusal would come last, after the data around it is gone. Pulumi's `protect` option is checked by the
 * engine at each delete step, and a `pulumi destroy` or `up` first previews every step, so a protected resource fails
 * that preview before anything is deleted (pulumi/pulumi v3.248.0 pkg/resource/deploy/step.go DeleteStep.Apply;
 * step_generator.go refuses to replace one). So a plain `protected: true` brings `protect: true` with it. An explicit
 * `protect` or `retainOnDelete` in the options wins (the program chose what a delete does); an Output or a Promise
 * cannot be read here (docs/resources.md says to set both). An adopted branch gets it too: Pulumi never deletes it
 * (impl.ts), but a destroy would still delete the databases on it and then stop at its computes, which Neon does not
 * delete on a protected branch.
 */
export function withServiceProtection(
  args: Pick<BranchArgs, "protected">,
  opts: pulumi.CustomResourceOptions | undefined,
): pulumi.CustomResourceOptions | undefined {
  if (args.protected !== true || opts?.protect !== undefined || opts?.retainOnDelete === true) return opts;
  return { ...opts, protect: true };
}
