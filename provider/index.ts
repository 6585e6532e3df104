/**
 * pulumi-neon-dynamic: Pulumi resources for Neon's serverless Postgres management API.
 */
export { ApiKey, ApiKeyArgs } from "./api-key";
export { Compute, ComputeArgs } from "./compute";
export {
  getProjects,
  getProjectsOutput,
  GetProjectsArgs,
  GetProjectsOutputArgs,
  GetProjectsResult,
  ProjectSummary,
} from "./projects";
