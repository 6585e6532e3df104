/**
 * getComputes: the computes of a project (GET /projects/{p}/endpoints), or of one of its branches
 * (GET …/branches/{b}/endpoints): each with a Compute resource's outputs, read by Compute's own `toOutputs`
 * (provider/compute/plan.ts: the pooled host and max_connections too), but for the provider's records (lookup.ts).
 * Neither list is paged (OpenAPI: `EndpointsResponse`, no cursor). A branch the project lacks is named; a project that
 * does not answer is said. Runs in the program; the native Invoke calls `listComputes`.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { Endpoint, NeonClient } from "../../client";
import { COMPUTE } from "../compute/declaration";
import { ApiEndpoint, toOutputs } from "../compute/plan";
import type { PreloadLibraries } from "../compute/resource";
import { inProgram, type InputsOf, outputOf } from "../shared/program-client";
import { branchIdProblem, checked, firstProblem, lookedUp, projectIdProblem, reading } from "./lookup";

// generated: ComputeInfo (npm run generate, from the declaration)
/** A compute as a lookup gives it: a Compute resource's outputs. */
export interface ComputeInfo {
  /** The compute's id (`ep-...`). */
  endpointId: string;
  /** Project of the compute. Changing it replaces the compute. */
  projectId: string;
  /**
   * Branch the compute serves. Changing it moves the compute (one PATCH, no replacement); a running compute's
   * connections drop. Moving with an update (`branch_id`) is deprecated by Neon: if the service refuses or ignores a
   * move, the update fails and says to replace the compute instead (`pulumi up --replace`; a `replacementTrigger` on
   * the branch id for later moves).
   */
  branchId: string;
  /** Region of the compute (the project's). */
  regionId: string;
  /** `read_write` (primary) or `read_only` (read replica). */
  type: "read_write" | "read_only";
  /** Minimum size in CU. */
  autoscalingLimitMinCu: number;
  /** Maximum size in CU. */
  autoscalingLimitMaxCu: number;
  /** Idle seconds before suspending, as the service reports it (0 = the default, 300; -1 = never). */
  suspendTimeoutSeconds: number;
  /** Postgres settings (string values). A change may restart a running compute (undocumented; the preview warns). */
  pgSettings: Record<string, string>;
  /**
   * The shared libraries to preload: `useDefaults` (boolean) and `enabledLibraries` (names). Sent in `settings` with
   * `pgSettings`, neither erasing the other. A change may restart a running compute (Postgres loads them only at a
   * start; the preview warns).
   */
  preloadLibraries?: PreloadLibraries;
  /**
   * Whether pooled connections are on. Deprecated by Neon (the pooler settings' removal was scheduled for 2026-06-20);
   * pooling is always available through `poolerHost`. Sent only when set; a service that refuses it fails the step,
   * saying to remove it.
   * @deprecated Neon deprecated pooler_enabled: connect through the poolerHost output.
   */
  poolerEnabled?: boolean;
  /**
   * Pooling mode: `transaction`. Deprecated by Neon (to be removed after 2026-06-20). Sent only when set; a service
   * that refuses it fails the step, saying to remove it.
   * @deprecated Neon deprecated pooler_mode (to be removed after 2026-06-20); PgBouncer runs in transaction mode.
   */
  poolerMode?: string;
  /** A disabled compute refuses connections. Disabling a running compute suspends it (its connections drop). */
  disabled?: boolean;
  /** Whether connections may authenticate without a password. */
  passwordlessAccess?: boolean;
  /**
   * `k8s-pod`, `k8s-neonvm` or `serverless-platform`. A change may restart a running compute (undocumented; the preview
   * warns).
   */
  provisioner?: string;
  /** The display name, if set. */
  name?: string;
  /** Connection host, e.g. ep-cool-darkness-123456.us-east-2.aws.neon.tech. */
  host: string;
  /** Pooled connection host (`-pooler` after the compute id). */
  poolerHost: string;
  /** The region's proxy host. */
  proxyHost?: string;
  /** init, active or idle. */
  currentState: string;
  /** The state the compute is moving to, if any. */
  pendingState?: string;
  /** What created the compute (console, API, ...). */
  creationSource?: string;
  /** When the compute last served a connection. */
  lastActive?: string;
  /** When the compute last started. */
  startedAt?: string;
  /** When the compute last suspended. */
  suspendedAt?: string;
  /** Creation time (ISO 8601). */
  createdAt?: string;
  /** Last update time (ISO 8601). */
  updatedAt?: string;
  /** The compute's release version, if reported. */
  computeReleaseVersion?: string;
  /** Postgres max_connections, fixed by the minimum size (not by the current size under autoscaling). */
  maxConnections: number;
}
// end of the generated ComputeInfo

export interface GetComputesArgs {
  /** The project whose computes to list. */
  projectId: string;
  /** Only the computes of this branch (`br-…`). */
  branchId?: string;
}

/** The arguments of getComputesOutput: each may be an Output. */
export type GetComputesOutputArgs = InputsOf<GetComputesArgs>;

export interface GetComputesResult {
  /** The computes of the project, or of the branch. */
  computes: ComputeInfo[];
}

/** The computes of a project, or of one of its branches. */
export function getComputes(args: GetComputesArgs): Promise<GetComputesResult> {
  return inProgram(listComputes, args);
}

/** getComputes for inputs that are Outputs. */
export function getComputesOutput(args: GetComputesOutputArgs): pulumi.Output<GetComputesResult> {
  return outputOf(args, getComputes);
}

/** The problem with getComputes' arguments: a project id, and a branch id if given. */
export const computesArgsProblem = (args: Record<string, unknown>) =>
  firstProblem(projectIdProblem(args), branchIdProblem(args, true));

/** getComputes with a given client (`key` names its key's setting, for messages). */
export function listComputes(
  client: NeonClient,
  args: GetComputesArgs,
  key = "neon:apiKey",
): Promise<GetComputesResult> {
  const { projectId, branchId } = args;
  return checked("getComputes", computesArgsProblem({ ...args }), async () => {
    const read = (): Promise<Endpoint[]> =>
      branchId === undefined ? client.endpoints.list(projectId) : client.endpoints.listForBranch(projectId, branchId);
    const endpoints = await reading(client, { fn: "getComputes", projectId, branchId, key }, read);
    const infoOf = (endpoint: Endpoint) =>
      lookedUp(COMPUTE, toOutputs(endpoint as unknown as ApiEndpoint, {})) as unknown as ComputeInfo;
    return { computes: endpoints.map(infoOf) };
  });
}
