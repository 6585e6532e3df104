/**
 * The Compute resource: a compute endpoint of a branch (primary read_write, or read_only replica). The provider object
 * and the constructed properties come from shared/dynamic-class.ts.
 */
import * as pulumi from "@pulumi/pulumi";
import { COMPUTE } from "./declaration";
import { ownerTagFor } from "./owner-tag";
import { loadingProvider, constructedWith } from "../shared/dynamic-class";
import { type Assert, type DeclaredOutputs, type SameNames } from "../shared/declared-outputs";

/** The shared libraries to preload into a compute (schema.json's `neon:index:PreloadLibraries`), as a program says. */
export interface PreloadLibrariesArgs {
  /** Whether Neon's default libraries are preloaded. */
  useDefaults?: pulumi.Input<boolean>;
  /** The libraries to preload, by name (Neon's available_preload_libraries lists those of the Postgres version). */
  enabledLibraries?: pulumi.Input<pulumi.Input<string>[]>;
}

/** The shared libraries preloaded into a compute, as the service reports them. */
export interface PreloadLibraries {
  useDefaults?: boolean;
  enabledLibraries?: string[];
}

/** Inputs of a Compute. Sizes are in compute units (CU): 0.25, 0.5, 1..16, even 18..56. */
export interface ComputeArgs {
  /** Project of the compute. Changing it replaces the compute. */
  projectId: pulumi.Input<string>;
  /**
   * Branch the compute serves. Changing it moves the compute (one PATCH, no replacement); a running compute's
   * connections drop. The API's `branch_id` in an update is deprecated ("will be removed in a future release"): if
   * the service refuses or ignores a move, the update fails and says to replace the compute instead
   * (`pulumi up --replace`; a `replacementTrigger` on the branch id for later moves).
   */
  branchId: pulumi.Input<string>;
  /** `read_write` (primary, the default; one per branch) or `read_only` (read replica). Changing it replaces the compute. */
  type?: pulumi.Input<"read_write" | "read_only">;
  /** Minimum size in CU. Changing it restarts a running compute (its connections drop). Fixes `maxConnections`. */
  autoscalingLimitMinCu?: pulumi.Input<number>;
  /** Maximum size in CU (equal to the minimum for a fixed size). Changing it restarts a running compute. */
  autoscalingLimitMaxCu?: pulumi.Input<number>;
  /** Idle seconds before suspending: 0 = the default (300), -1 = never, else 60..604800. Changes need no restart. */
  suspendTimeoutSeconds?: pulumi.Input<number>;
  /** Postgres settings (string values). */
  pgSettings?: pulumi.Input<Record<string, pulumi.Input<string>>>;
  /**
   * The shared libraries to preload (Postgres's shared_preload_libraries). Sent in `settings` with `pgSettings`,
   * neither erasing the other. A change may restart a running compute (Postgres loads them only at a start; the
   * preview warns).
   */
  preloadLibraries?: pulumi.Input<PreloadLibrariesArgs>;
  /**
   * Whether pooled connections are on.
   * @deprecated Neon deprecated `pooler_enabled` (without a removal date; the pooler settings' removal was scheduled
   * for 2026-06-20): pooling is always available through the pooled host (`poolerHost`). Sent only when set; a
   * service that no longer has it may apply, ignore or refuse it, and a refusal fails the step saying to remove it.
   */
  poolerEnabled?: pulumi.Input<boolean>;
  /**
   * Pooling mode: `transaction`.
   * @deprecated Neon deprecated `pooler_mode` (OpenAPI: "will be removed after 2026-06-20"); PgBouncer runs in
   * transaction mode. Sent only when set; a service that no longer has it may apply, ignore or refuse it, and a
   * refusal fails the step saying to remove it.
   */
  poolerMode?: pulumi.Input<"transaction">;
  /** A disabled compute refuses connections. */
  disabled?: pulumi.Input<boolean>;
  /** Whether connections may authenticate without a password. */
  passwordlessAccess?: pulumi.Input<boolean>;
  /** `k8s-pod`, `k8s-neonvm` (needed for autoscaling) or `serverless-platform` (OpenAPI's Provisioner). */
  provisioner?: pulumi.Input<"k8s-pod" | "k8s-neonvm" | "serverless-platform">;
  /** A display name, 1..64 characters. */
  name?: pulumi.Input<string>;
  /** Region; must equal the project's. Changing it replaces the compute. */
  regionId?: pulumi.Input<string>;
  /**
   * Any values: when they change, the compute is restarted through the restart API (nothing else changes); not when
   * it is idle or the same update disables it (nothing runs), nor twice when the update's PATCH restarted it.
   */
  restartTriggers?: pulumi.Input<unknown[]>;
  /**
   * Adopt an existing compute by id instead of creating one (`pulumi import` reaches only the native plugin's
   * resources, not dynamic ones). Acts at creation. Keep it (a project's default compute), or remove it after the
   * first `up` (an `up` that sends nothing) to let a destroy delete the compute. Pulumi never deletes a compute that
   * the state's `adoptId` names: while it stays in the program, a replacement (`--replace`, a `replacementTrigger`, a
   * new parent) adopts the same compute again, so a replacement, a destroy or a removal of the resource leaves it on
   * the service, with a warning.
   */
  adoptId?: pulumi.Input<string>;
}

const computeProvider = loadingProvider(
  () => require("pulumi-neon-dynamic/provider/compute/impl") as typeof import("./impl"),
  (impl) => impl.deleteCompute,
);

/** This program's tag for the resource `name` (owner-tag.ts). */
function ownerTagOf(name: string): string {
  return ownerTagFor(pulumi.getProject(), pulumi.getStack(), name);
}

/**
 * A compute endpoint on a branch. docs/resources.md's table (generated from declaration.ts) says which changes
 * replace, restart or only PATCH it.
 */
export class Compute extends pulumi.dynamic.Resource {
  // Outputs typed `| undefined` come from fields the service may leave out of its answer (client/schemas.ts).
  declare readonly endpointId: pulumi.Output<string>;
  declare readonly projectId: pulumi.Output<string>;
  declare readonly branchId: pulumi.Output<string>;
  declare readonly regionId: pulumi.Output<string>;
  declare readonly type: pulumi.Output<"read_write" | "read_only">;
  declare readonly autoscalingLimitMinCu: pulumi.Output<number>;
  declare readonly autoscalingLimitMaxCu: pulumi.Output<number>;
  declare readonly suspendTimeoutSeconds: pulumi.Output<number>;
  declare readonly pgSettings: pulumi.Output<Record<string, string>>;
  declare readonly preloadLibraries: pulumi.Output<PreloadLibraries | undefined>;
  declare readonly poolerEnabled: pulumi.Output<boolean | undefined>;
  declare readonly poolerMode: pulumi.Output<string | undefined>;
  declare readonly disabled: pulumi.Output<boolean | undefined>;
  declare readonly passwordlessAccess: pulumi.Output<boolean | undefined>;
  declare readonly provisioner: pulumi.Output<string | undefined>;
  declare readonly name: pulumi.Output<string | undefined>;
  declare readonly restartTriggers: pulumi.Output<unknown[] | undefined>;
  declare readonly adoptId: pulumi.Output<string | undefined>;
  /** Connection host, e.g. ep-cool-darkness-123456.us-east-2.aws.neon.tech. */
  declare readonly host: pulumi.Output<string>;
  /** Pooled connection host (`-pooler` after the compute id). */
  declare readonly poolerHost: pulumi.Output<string>;
  declare readonly proxyHost: pulumi.Output<string | undefined>;
  /** init, active or idle. */
  declare readonly currentState: pulumi.Output<string>;
  declare readonly pendingState: pulumi.Output<string | undefined>;
  declare readonly creationSource: pulumi.Output<string | undefined>;
  declare readonly lastActive: pulumi.Output<string | undefined>;
  declare readonly startedAt: pulumi.Output<string | undefined>;
  declare readonly suspendedAt: pulumi.Output<string | undefined>;
  declare readonly createdAt: pulumi.Output<string | undefined>;
  declare readonly updatedAt: pulumi.Output<string | undefined>;
  declare readonly computeReleaseVersion: pulumi.Output<string | undefined>;
  /** Postgres max_connections, fixed by the minimum size. */
  declare readonly maxConnections: pulumi.Output<number>;
  /** The Pulumi name of this resource, used in messages such as the restart warning. */
  declare readonly resourceName: pulumi.Output<string>;
  /** Identifies this resource's compute on the service (its name is `pulumi-<ownerTag>` when `name` is not set). */
  declare readonly ownerTag: pulumi.Output<string>;

  constructor(name: string, args: ComputeArgs, opts?: pulumi.CustomResourceOptions) {
    const props = constructedWith(COMPUTE, args, { resourceName: name, ownerTag: ownerTagOf(name) });
    super(computeProvider, name, props, deletingFirst(opts), "neon", "Compute");
    // The id, known in the preview of an update, where an output that is no input is not (see Branch's branchId).
    (this as { endpointId: pulumi.Output<string> }).endpointId = this.id;
  }
}

/**
 * The resource's options with `deleteBeforeReplace` on unless the program sets it: a replacement deletes the old
 * compute before it creates the new one, because a create refuses computes named for the resource that it cannot
 * tell from a forgotten one (owner-tag.ts, strays), and `pulumi up --replace` tells it nothing of the old one. A
 * replaced compute gets a new host anyway, so its clients reconnect either way.
 */
function deletingFirst(opts: pulumi.CustomResourceOptions | undefined): pulumi.CustomResourceOptions {
  return { ...opts, deleteBeforeReplace: opts?.deleteBeforeReplace ?? true };
}

/** Compiles only while the declaration's outputs are exactly the Outputs the Compute class declares. */
type _EveryComputeOutputListed = Assert<SameNames<DeclaredOutputs<Compute>, keyof typeof COMPUTE.outputs>>;
