/**
 * zod schemas of a project's create, details, update and delete, from the official full OpenAPI document
 * (shared/reference/neon-openapi.yaml: components `Project`, `ProjectSettingsData`, `DefaultEndpointSettings`,
 * `CreatedProject`, `ProjectCreateRequest`, `ProjectUpdateRequest`), by schemas-branches.ts's rules. A project as
 * listed (`Project`) is in schemas.ts; a create's role password and connection URIs are secrets (schemas-branches.ts).
 */
import { z } from "zod";
import { Endpoint, Operation, Project } from "./schemas";
import { Branch, ConnectionDetails } from "./schemas-branches";
import { Database, Role } from "./schemas-roles-databases";

const operations = z.array(Operation);

/** OpenAPI `DefaultEndpointSettings`: the settings of the computes a project makes (its default compute's too). */
export const DefaultEndpointSettings = z.object({
  autoscaling_limit_min_cu: z.number().optional(),
  autoscaling_limit_max_cu: z.number().optional(),
  suspend_timeout_seconds: z.number().int().optional(),
  pg_settings: z.record(z.string(), z.string()).optional(),
});
export type DefaultEndpointSettings = z.infer<typeof DefaultEndpointSettings>;

/** OpenAPI `ProjectSettingsData`: only the fields the provider acts on are read; the rest is tolerated. */
export const ProjectSettings = z
  .object({
    allowed_ips: z
      .object({ ips: z.array(z.string()).optional(), protected_branches_only: z.boolean().optional() })
      .optional(),
    enable_logical_replication: z.boolean().optional(),
  })
  .passthrough();
export type ProjectSettings = z.infer<typeof ProjectSettings>;

/** OpenAPI `Project` (getProject, updateProject, deleteProject): the listed fields and the settings. */
export const ProjectDetail = Project.extend({
  history_retention_seconds: z.number().int().optional(),
  default_endpoint_settings: DefaultEndpointSettings.optional(),
  settings: ProjectSettings.optional(),
});
export type ProjectDetail = z.infer<typeof ProjectDetail>;

export const ProjectResponse = z.object({ project: ProjectDetail });
export const ProjectOperations = z.object({ project: ProjectDetail, operations });
export type ProjectOperations = z.infer<typeof ProjectOperations>;

/** OpenAPI `CreatedProject`: the project, its default branch, compute, role (with its password) and database. */
export const ProjectCreated = z.object({
  project: ProjectDetail,
  branch: Branch,
  endpoints: z.array(Endpoint),
  roles: z.array(Role),
  databases: z.array(Database),
  operations,
  connection_uris: z.array(ConnectionDetails).optional(),
});
export type ProjectCreated = z.infer<typeof ProjectCreated>;

/** The inner `project` object of POST /projects (OpenAPI `ProjectCreateRequest`), as the provider sends it. */
export interface ProjectCreate {
  name?: string;
  region_id?: string;
  pg_version?: number;
  org_id?: string;
  history_retention_seconds?: number;
  default_endpoint_settings?: DefaultEndpointSettings;
  settings?: Record<string, unknown>;
  branch?: { name?: string; role_name?: string; database_name?: string };
}

/** The inner `project` object of PATCH /projects/{p} (OpenAPI `ProjectUpdateRequest`). */
export interface ProjectUpdate {
  name?: string;
  history_retention_seconds?: number;
  default_endpoint_settings?: DefaultEndpointSettings;
  settings?: Record<string, unknown>;
}
