/**
 * pulumi-neon-dynamic: Pulumi resources for Neon's serverless Postgres management API.
 */
export { ApiKey, ApiKeyArgs } from "./api-key/resource";
export { Compute, ComputeArgs, PreloadLibraries, PreloadLibrariesArgs } from "./compute/resource";
export { Branch, BranchArgs } from "./branch/resource";
export { Role, RoleArgs } from "./role/resource";
export { Database, DatabaseArgs } from "./database/resource";
export {
  Project,
  ProjectArgs,
  ProjectDefaultBranch,
  ProjectDefaultEndpointSettings,
  ProjectSettings,
} from "./project/resource";
export {
  getRolePassword,
  getRolePasswordOutput,
  GetRolePasswordArgs,
  GetRolePasswordOutputArgs,
  GetRolePasswordResult,
} from "./functions/get-role-password";
export { connectionUri, ConnectionUriArgs } from "./connection/connection-uri";
export {
  getProjects,
  getProjectsOutput,
  GetProjectsArgs,
  GetProjectsOutputArgs,
  GetProjectsResult,
  ProjectSummary,
} from "./functions/get-projects";
export {
  getProject,
  getProjectOutput,
  GetProjectArgs,
  GetProjectOutputArgs,
  GetProjectResult,
} from "./functions/get-project";
export {
  getBranch,
  getBranchOutput,
  getBranches,
  getBranchesOutput,
  BranchInfo,
  GetBranchArgs,
  GetBranchOutputArgs,
  GetBranchesArgs,
  GetBranchesOutputArgs,
  GetBranchesResult,
} from "./functions/get-branch";
export {
  getComputes,
  getComputesOutput,
  ComputeInfo,
  GetComputesArgs,
  GetComputesOutputArgs,
  GetComputesResult,
} from "./functions/get-computes";
export {
  getRoles,
  getRolesOutput,
  RoleInfo,
  GetRolesArgs,
  GetRolesOutputArgs,
  GetRolesResult,
} from "./functions/get-roles";
export {
  getDatabases,
  getDatabasesOutput,
  DatabaseInfo,
  GetDatabasesArgs,
  GetDatabasesOutputArgs,
  GetDatabasesResult,
} from "./functions/get-databases";
