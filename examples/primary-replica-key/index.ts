/**
 * A primary compute on a branch, a read replica beside it, and an API key for a CI pipeline.
 *
 * Config: `projectId`, `branchId` (a branch without a primary compute yet), optional `primaryMaxCu` (default 2: a new
 * value resizes the primary, which restarts it), `ciKeyName` and `orgId` (the project's organization: the CI key is
 * then limited to this project); `neon:apiKey` (secret) and optionally `neon:apiUrl`.
 */
import * as pulumi from "@pulumi/pulumi";
import { ApiKey, Compute } from "pulumi-neon-dynamic";

const config = new pulumi.Config();
const projectId = config.require("projectId");
const branchId = config.require("branchId");

const primary = new Compute("primary", {
  projectId,
  branchId,
  autoscalingLimitMinCu: 0.5,
  autoscalingLimitMaxCu: config.getNumber("primaryMaxCu") ?? 2,
  suspendTimeoutSeconds: 300,
});

// The replica reads the primary's storage; creating it after the primary keeps the order of operations obvious.
const replica = new Compute(
  "replica",
  { projectId, branchId, type: "read_only", autoscalingLimitMinCu: 0.25, autoscalingLimitMaxCu: 1 },
  { dependsOn: [primary] },
);

// The CI pipeline's key. In an organization, it is limited to this project: it can manage this project's computes and
// nothing else (no other project, no project list, no keys). Without orgId, a personal key. Renaming the key, or
// changing its orgId or projectId, rotates it: the new key is created before the old one is revoked.
const orgId = config.get("orgId");
const ciKey = new ApiKey("ci", {
  keyName: config.get("ciKeyName") ?? "ci-deploy",
  ...(orgId ? { orgId, projectId } : {}),
});

export const primaryHost = primary.host;
export const primaryPoolerHost = primary.poolerHost;
export const replicaHost = replica.host;
export const maxConnections = primary.maxConnections;
export const ciKeyId = ciKey.keyId;
/** The project the CI key is limited to (null for a personal key). */
export const ciKeyProjectId = ciKey.projectId;
/** Registered as a secret by ApiKey: `pulumi stack output` hides it unless asked with --show-secrets. */
export const ciApiKey = pulumi.secret(ciKey.key);
