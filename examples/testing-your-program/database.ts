/**
 * The infrastructure as a function, so that a test can declare it with any settings: a primary compute, a read
 * replica beside it, and an API key for the deploy pipeline.
 */
import * as pulumi from "@pulumi/pulumi";
import { ApiKey, Compute } from "pulumi-neon-dynamic";

export interface DatabaseArgs {
  projectId: string;
  branchId: string;
  /** The primary's size in CU, fixed. */
  primaryCu: number;
  /** The replica's type: read_only, or read_write to make it a second primary (on another branch). */
  replicaType?: "read_only" | "read_write";
  replicaBranchId?: string;
}

export function database(args: DatabaseArgs) {
  const primary = new Compute("primary", {
    projectId: args.projectId,
    branchId: args.branchId,
    autoscalingLimitMinCu: args.primaryCu,
    autoscalingLimitMaxCu: args.primaryCu,
  });
  const replica = new Compute("replica", {
    projectId: args.projectId,
    branchId: args.replicaBranchId ?? args.branchId,
    type: args.replicaType ?? "read_only",
  });
  const deployKey = new ApiKey("deploy", { keyName: "deploy-pipeline" });
  return {
    primaryHost: primary.host,
    replicaHost: replica.host,
    deployKey: pulumi.secret(deployKey.key),
  };
}
