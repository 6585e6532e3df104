/**
 * The Compute resource: a compute endpoint of a branch (primary read_write, or read_only replica). The provider object
 * and the constructed properties come from shared/dynamic-class.ts.
 */
import * as pulumi from "@pulumi/pulumi";
import { COMPUTE } from "./declaration";
import { ownerTagFor } from "./owner-tag";
import { loadingProvider, constructedWith } from "../shared/dynamic-class";

// generated: the Compute inputs (npm run generate, from declaration.ts)
/**
 * The shared libraries to preload into the compute (Postgres's shared_preload_libraries; OpenAPI, PreloadLibraries).
 */
export interface PreloadLibrariesArgs {
  /** Whether Neon's default libraries are preloaded. */
  useDefaults?: pulumi.Input<boolean>;
  /**
   * The libraries to preload, by name (Neon's available_preload_libraries lists those of the project's Postgres
   * version).
   */
  enabledLibraries?: pulumi.Input<pulumi.Input<string>[]>;
}

/**
 * The shared libraries to preload into the compute (Postgres's shared_preload_libraries; OpenAPI, PreloadLibraries), as
 * recorded.
 */
export interface PreloadLibraries {
  /** Whether Neon's default libraries are preloaded. */
  useDefaults?: boolean;
  /**
   * The libraries to preload, by name (Neon's available_preload_libraries lists those of the project's Postgres
   * version).
   */
  enabledLibraries?: string[];
}

/** The inputs of a Compute; docs/resources.md#compute says what a change of each does. */
export interface ComputeArgs {
  /** Project of the compute. Changing it replaces the compute. */
  projectId: pulumi.Input<string>;
  /**
   * Branch the compute serves. Changing it moves the compute (one PATCH, no replacement); a running compute's
   * connections drop. Moving with an update (`branch_id`) is deprecated by Neon: if the service refuses or ignores a
   * move, the update fails and says to replace the compute instead (`pulumi up --replace`; a `replacementTrigger` on
   * the branch id for later moves).
   */
  branchId: pulumi.Input<string>;
  /**
   * `read_write` (primary, the default; one per branch) or `read_only` (read replica). Changing it replaces the
   * compute.
   */
  type?: pulumi.Input<"read_write" | "read_only">;
  /**
   * Minimum size in CU (0.25, 0.5, 1..16, even 18..56). Changing it restarts a running compute (its connections drop).
   * Fixes `maxConnections`.
   */
  autoscalingLimitMinCu?: pulumi.Input<number>;
  /**
   * Maximum size in CU (equal to the minimum for a fixed size; autoscaling up to 16 CU, at most 8 CU above the
   * minimum). Changing it restarts a running compute.
   */
  autoscalingLimitMaxCu?: pulumi.Input<number>;
  /** Idle seconds before suspending: 0 = the default (300), -1 = never, else 60..604800. Changes need no restart. */
  suspendTimeoutSeconds?: pulumi.Input<number>;
  /** Postgres settings (string values). A change may restart a running compute (undocumented; the preview warns). */
  pgSettings?: pulumi.Input<Record<string, pulumi.Input<string>>>;
  /**
   * The shared libraries to preload: `useDefaults` (boolean) and `enabledLibraries` (names). Sent in `settings` with
   * `pgSettings`, neither erasing the other. A change may restart a running compute (Postgres loads them only at a
   * start; the preview warns).
   */
  preloadLibraries?: pulumi.Input<PreloadLibrariesArgs>;
  /**
   * Whether pooled connections are on. Deprecated by Neon (the pooler settings' removal was scheduled for 2026-06-20);
   * pooling is always available through `poolerHost`. Sent only when set; a service that refuses it fails the step,
   * saying to remove it.
   * @deprecated Neon deprecated pooler_enabled: connect through the poolerHost output.
   */
  poolerEnabled?: pulumi.Input<boolean>;
  /**
   * Pooling mode: `transaction`. Deprecated by Neon (to be removed after 2026-06-20). Sent only when set; a service
   * that refuses it fails the step, saying to remove it.
   * @deprecated Neon deprecated pooler_mode (to be removed after 2026-06-20); PgBouncer runs in transaction mode.
   */
  poolerMode?: pulumi.Input<"transaction">;
  /** A disabled compute refuses connections. Disabling a running compute suspends it (its connections drop). */
  disabled?: pulumi.Input<boolean>;
  /** Whether connections may authenticate without a password. */
  passwordlessAccess?: pulumi.Input<boolean>;
  /**
   * `k8s-pod`, `k8s-neonvm` (needed for autoscaling) or `serverless-platform`. A change may restart a running compute
   * (undocumented; the preview warns).
   */
  provisioner?: pulumi.Input<"k8s-pod" | "k8s-neonvm" | "serverless-platform">;
  /** A display name, 1..64 characters. */
  name?: pulumi.Input<string>;
  /** Region; must equal the project's. Changing it replaces the compute. */
  regionId?: pulumi.Input<string>;
  /**
   * Any values: when they change, the compute is restarted through the restart API (nothing else changes); not when it
   * is idle or the same update disables it (nothing runs), nor twice when the update's PATCH restarted it.
   */
  restartTriggers?: pulumi.Input<unknown[]>;
  /**
   * Adopt an existing compute by id instead of creating one (`pulumi import` reaches only the native plugin's
   * resources, not dynamic ones). Acts at creation. Keep it (a project's default compute), or remove it after the first
   * `up` (an `up` that sends nothing) to let a destroy delete the compute. Pulumi never deletes a compute that the
   * state's `adoptId` names: while it stays in the program, a replacement (`--replace`, a `replacementTrigger`, a new
   * parent) adopts the same compute again, so a replacement, a destroy or a removal of the resource leaves it on the
   * service, with a warning.
   */
  adoptId?: pulumi.Input<string>;
}
// end of the generated Compute inputs

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
  // generated: the Compute outputs (npm run generate, from declaration.ts)
  /** The compute's id (`ep-...`). */
  declare readonly endpointId: pulumi.Output<string>;
  /** Project of the compute. Changing it replaces the compute. */
  declare readonly projectId: pulumi.Output<string>;
  /**
   * Branch the compute serves. Changing it moves the compute (one PATCH, no replacement); a running compute's
   * connections drop. Moving with an update (`branch_id`) is deprecated by Neon: if the service refuses or ignores a
   * move, the update fails and says to replace the compute instead (`pulumi up --replace`; a `replacementTrigger` on
   * the branch id for later moves).
   */
  declare readonly branchId: pulumi.Output<string>;
  /** Region of the compute (the project's). */
  declare readonly regionId: pulumi.Output<string>;
  /** `read_write` (primary) or `read_only` (read replica). */
  declare readonly type: pulumi.Output<"read_write" | "read_only">;
  /** Minimum size in CU. */
  declare readonly autoscalingLimitMinCu: pulumi.Output<number>;
  /** Maximum size in CU. */
  declare readonly autoscalingLimitMaxCu: pulumi.Output<number>;
  /** Idle seconds before suspending, as the service reports it (0 = the default, 300; -1 = never). */
  declare readonly suspendTimeoutSeconds: pulumi.Output<number>;
  /** Postgres settings (string values). A change may restart a running compute (undocumented; the preview warns). */
  declare readonly pgSettings: pulumi.Output<Record<string, string>>;
  /**
   * The shared libraries to preload: `useDefaults` (boolean) and `enabledLibraries` (names). Sent in `settings` with
   * `pgSettings`, neither erasing the other. A change may restart a running compute (Postgres loads them only at a
   * start; the preview warns).
   */
  declare readonly preloadLibraries: pulumi.Output<PreloadLibraries | undefined>;
  /**
   * Whether pooled connections are on. Deprecated by Neon (the pooler settings' removal was scheduled for 2026-06-20);
   * pooling is always available through `poolerHost`. Sent only when set; a service that refuses it fails the step,
   * saying to remove it.
   * @deprecated Neon deprecated pooler_enabled: connect through the poolerHost output.
   */
  declare readonly poolerEnabled: pulumi.Output<boolean | undefined>;
  /**
   * Pooling mode: `transaction`. Deprecated by Neon (to be removed after 2026-06-20). Sent only when set; a service
   * that refuses it fails the step, saying to remove it.
   * @deprecated Neon deprecated pooler_mode (to be removed after 2026-06-20); PgBouncer runs in transaction mode.
   */
  declare readonly poolerMode: pulumi.Output<string | undefined>;
  /** A disabled compute refuses connections. Disabling a running compute suspends it (its connections drop). */
  declare readonly disabled: pulumi.Output<boolean | undefined>;
  /** Whether connections may authenticate without a password. */
  declare readonly passwordlessAccess: pulumi.Output<boolean | undefined>;
  /**
   * `k8s-pod`, `k8s-neonvm` or `serverless-platform`. A change may restart a running compute (undocumented; the preview
   * warns).
   */
  declare readonly provisioner: pulumi.Output<string | undefined>;
  /** The display name, if set. */
  declare readonly name: pulumi.Output<string | undefined>;
  /**
   * Any values: when they change, the compute is restarted through the restart API (nothing else changes); not when it
   * is idle or the same update disables it (nothing runs), nor twice when the update's PATCH restarted it.
   */
  declare readonly restartTriggers: pulumi.Output<unknown[] | undefined>;
  /**
   * The id of the compute adopted at creation, while the program sets adoptId: Pulumi never deletes the compute it
   * names.
   */
  declare readonly adoptId: pulumi.Output<string | undefined>;
  /** Connection host, e.g. ep-cool-darkness-123456.us-east-2.aws.neon.tech. */
  declare readonly host: pulumi.Output<string>;
  /** Pooled connection host (`-pooler` after the compute id). */
  declare readonly poolerHost: pulumi.Output<string>;
  /** The region's proxy host. */
  declare readonly proxyHost: pulumi.Output<string | undefined>;
  /** init, active or idle. */
  declare readonly currentState: pulumi.Output<string>;
  /** The state the compute is moving to, if any. */
  declare readonly pendingState: pulumi.Output<string | undefined>;
  /** What created the compute (console, API, ...). */
  declare readonly creationSource: pulumi.Output<string | undefined>;
  /** When the compute last served a connection. */
  declare readonly lastActive: pulumi.Output<string | undefined>;
  /** When the compute last started. */
  declare readonly startedAt: pulumi.Output<string | undefined>;
  /** When the compute last suspended. */
  declare readonly suspendedAt: pulumi.Output<string | undefined>;
  /** Creation time (ISO 8601). */
  declare readonly createdAt: pulumi.Output<string | undefined>;
  /** Last update time (ISO 8601). */
  declare readonly updatedAt: pulumi.Output<string | undefined>;
  /** The compute's release version, if reported. */
  declare readonly computeReleaseVersion: pulumi.Output<string | undefined>;
  /** Postgres max_connections, fixed by the minimum size (not by the current size under autoscaling). */
  declare readonly maxConnections: pulumi.Output<number>;
  /** The Pulumi name of this resource, used in messages such as the restart warning. */
  declare readonly resourceName: pulumi.Output<string>;
  /**
   * Identifies this resource's compute on the service: its name is `pulumi-<ownerTag>` when `name` is not set, so a
   * compute created by an interrupted run is recognised by the next one.
   */
  declare readonly ownerTag: pulumi.Output<string>;
  // end of the generated Compute outputs

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
