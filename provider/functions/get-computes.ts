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

/** A compute as a lookup gives it: a Compute resource's outputs, but for the provider's records. */
export interface ComputeInfo {
  endpointId: string;
  projectId: string;
  branchId: string;
  regionId: string;
  type: "read_write" | "read_only";
  autoscalingLimitMinCu: number;
  autoscalingLimitMaxCu: number;
  suspendTimeoutSeconds: number;
  pgSettings: Record<string, string>;
  preloadLibraries?: PreloadLibraries;
  poolerEnabled?: boolean;
  poolerMode?: "transaction" | "session";
  disabled?: boolean;
  passwordlessAccess?: boolean;
  provisioner?: string;
  name?: string;
  host: string;
  poolerHost: string;
  proxyHost?: string;
  currentState: string;
  pendingState?: string;
  creationSource?: string;
  lastActive?: string;
  startedAt?: string;
  suspendedAt?: string;
  createdAt?: string;
  updatedAt?: string;
  computeReleaseVersion?: string;
  maxConnections: number;
}

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
