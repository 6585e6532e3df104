/**
 * A database per pull request: a stack per pull request (`pr-<number>`), holding a Neon branch made from the project's
 * default branch and named after the stack, a compute on it, a database owned by the role the branch inherited, and
 * the connection strings the app and its migrations read. `pulumi destroy` when the pull request closes removes it
 * all; the branch also expires a week after the last `up`, should the pipeline never run the destroy.
 *
 * Config: `projectId`; `expiresAt` (RFC 3339, set by the pipeline at each `up`: a week ahead); optional `prUrl` (kept
 * in the branch's annotations, as it was when the branch was created), `parentBranchId` (default: the project's default branch), `ownerRole` (default
 * `neondb_owner`, the role a Neon project starts with), `databaseName` (default `app`); `neon:apiKey` (secret) and
 * optionally `neon:apiUrl`.
 */
import * as pulumi from "@pulumi/pulumi";
import { Branch, Compute, connectionUri, Database, getRolePasswordOutput } from "pulumi-neon-dynamic";

const config = new pulumi.Config();
const projectId = config.require("projectId");
const stack = pulumi.getStack(); // pr-<number>
const ownerRole = config.get("ownerRole") ?? "neondb_owner";
const prUrl = config.get("prUrl");

// Neon sets a branch's annotations only when it creates it: ignoreChanges keeps those it was made with, so a later
// prUrl (set after the first up, or changed) never plans a change the provider must refuse.
const branch = new Branch(
  "preview",
  {
    projectId,
    parentId: config.get("parentBranchId"),
    name: stack,
    expiresAt: config.require("expiresAt"),
    annotations: { "pulumi-stack": stack, ...(prUrl ? { "pull-request": prUrl } : {}) },
  },
  { ignoreChanges: ["annotations"] },
);

const compute = new Compute("compute", {
  projectId,
  branchId: branch.branchId,
  autoscalingLimitMinCu: 0.25,
  autoscalingLimitMaxCu: 1,
  suspendTimeoutSeconds: 300,
});

// The branch starts with its parent's roles and databases: the owner role is inherited, so it is read, not declared.
const owner = getRolePasswordOutput({ projectId, branchId: branch.branchId, roleName: ownerRole });

const database = new Database("app", {
  projectId,
  branchId: branch.branchId,
  name: config.get("databaseName") ?? "app",
  ownerName: ownerRole,
});

const connection = { compute, roleName: ownerRole, password: owner.password, databaseName: database.name };

export const branchId = branch.branchId;
export const branchName = branch.name;
export const host = compute.host;
/** Secrets: `pulumi stack output --show-secrets databaseUrl` prints them. */
export const databaseUrl = connectionUri(connection);
export const databaseUrlPooled = connectionUri({ ...connection, pooled: true });
