/**
 * pulumi-neon-dynamic: Pulumi resources for Neon's serverless Postgres management API.
 */
export { ApiKey, ApiKeyArgs } from "./api-key/resource";
export { Compute, ComputeArgs } from "./compute/resource";
export { connectionUri, ConnectionUriArgs } from "./connection/connection-uri";
export {
  getProjects,
  getProjectsOutput,
  GetProjectsArgs,
  GetProjectsOutputArgs,
  GetProjectsResult,
  ProjectSummary,
} from "./projects/get-projects";
