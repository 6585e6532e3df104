/**
 * A Neon project from nothing: the project (its default branch `main`, with a compute, a role and a database, as Neon
 * makes every project; the branch adopted as a Branch resource), then a branch per environment, `dev` and `staging`,
 * each a child of the default branch with a read-write compute, a role and a database of its own, and the connection
 * strings the apps of each environment read.
 *
 * Config: optional `projectName` (default `app`), `regionId` (default `aws-us-east-2`), `<environment>MaxCu` (the
 * compute's maximum size, default 1: `devMaxCu`, `stagingMaxCu`), `deletionProtection` (default true: `pulumi destroy`
 * is refused before anything is deleted; set false for a project you mean to delete); `neon:apiKey` (secret) and
 * optionally `neon:apiUrl`.
 */
import * as pulumi from "@pulumi/pulumi";
import { Branch, Compute, connectionUri, Database, Project, Role } from "pulumi-neon-dynamic";

const config = new pulumi.Config();

const project = new Project("app", {
  name: config.get("projectName") ?? "app",
  regionId: config.get("regionId") ?? "aws-us-east-2",
  pgVersion: 17,
  // The default compute's (on main) sizes and autosuspend, and the defaults of computes made later in the project (the
  // environments' below set their own sizes).
  defaultEndpointSettings: { autoscalingLimitMinCu: 0.25, autoscalingLimitMaxCu: 1, suspendTimeoutSeconds: 300 },
  // Deleting the project deletes every branch and database in it. Protected by default: `pulumi destroy` stops in
  // its preview. A stack made to try this out sets `deletionProtection` to false before its first `up`; a project you
  // keep leaves it true, and its tear-down is: set it false, `pulumi up` (nothing is sent), then `pulumi destroy`.
  deletionProtection: config.getBoolean("deletionProtection") ?? true,
});

// The default branch Neon made with the project, adopted (not created) so the environments stand on a Branch whose id
// every preview knows: a project's own outputs are unknown in the preview of its update (docs/resources.md, Project).
// Removing it from the program leaves the branch (it goes with the project).
const main = new Branch("main", { projectId: project.projectId, name: "main", adoptId: project.defaultBranchId });

/** An environment: a branch of the default branch, its read-write compute, a role and a database the role owns. */
function environment(name: string) {
  const branch = new Branch(name, { projectId: project.projectId, parentId: main.branchId, name });
  const compute = new Compute(name, {
    projectId: project.projectId,
    branchId: branch.branchId,
    type: "read_write",
    autoscalingLimitMinCu: 0.25,
    autoscalingLimitMaxCu: config.getNumber(`${name}MaxCu`) ?? 1,
  });
  // A role of the environment's own, so its connection string opens no other branch (a branch also inherits its
  // parent's roles, with their passwords).
  const role = new Role(name, { projectId: project.projectId, branchId: branch.branchId, name: "app" });
  const database = new Database(name, {
    projectId: project.projectId,
    branchId: branch.branchId,
    name: "app",
    ownerName: role.name,
  });
  const connection = { compute, roleName: role.name, password: role.password, databaseName: database.name };
  return {
    branchId: branch.branchId,
    host: compute.host,
    databaseUrl: connectionUri(connection), // a secret
    databaseUrlPooled: connectionUri({ ...connection, pooled: true }),
  };
}

const dev = environment("dev");
const staging = environment("staging");

export const projectId = project.projectId;
export const defaultBranchId = main.branchId;
/** The default branch's database (Neon's `neondb`, owned by `neondb_owner`): a secret, as the project gives it. */
export const mainDatabaseUrl = project.connectionUri;
export const devBranchId = dev.branchId;
export const stagingBranchId = staging.branchId;
/** Secrets: `pulumi stack output devDatabaseUrl --show-secrets` prints one. */
export const devDatabaseUrl = dev.databaseUrl;
export const devDatabaseUrlPooled = dev.databaseUrlPooled;
export const stagingDatabaseUrl = staging.databaseUrl;
export const stagingDatabaseUrlPooled = staging.databaseUrlPooled;
