/**
 * getProjects: every project of the account across all pages (the peers read one page, or one project).
 * Runs in the program, not in the plugin; credentials are resolved exactly as the plugin resolves them
 * (`neon:apiKey` / `neon:apiUrl`, else NEON_API_KEY / NEON_API_HOST; never the program's own `apiKey`).
 */
import * as pulumi from "@pulumi/pulumi";
import { NeonClient, NeonError, Project } from "../../client";
import { type InputsOf, outputOf, programClient } from "../shared/program-client";

export interface GetProjectsArgs {
  /** Only projects whose name or id contains this text. */
  search?: string;
  /** Only projects of this organization. */
  orgId?: string;
}

/** A project as listed, in camelCase. A field the service did not report is absent (never the text "undefined"). */
export interface ProjectSummary {
  id: string;
  /** The project's id again, under the name the Project resource and getProject give it. */
  projectId: string;
  name: string;
  platformId?: string;
  regionId: string;
  provisioner?: string;
  pgVersion?: number;
  proxyHost?: string;
  createdAt?: string;
  updatedAt?: string;
}

export interface GetProjectsResult {
  projects: ProjectSummary[];
}

/**
 * Why a project list was refused (403): the key may not list projects at all. The one a CI pipeline holds often
 * cannot (a project-scoped key), so the error says what to do instead of only "forbidden".
 */
export const LIST_REFUSED =
  "getProjects: the service refused to list projects with the key in neon:apiKey (HTTP 403). A project-scoped API " +
  "key can use only its own project and cannot list projects: give the resources that project's id directly, or " +
  "use a personal or organization key here.";

/** Lists every project matching `args`, walking all pages. */
export function getProjects(args: GetProjectsArgs = {}): Promise<GetProjectsResult> {
  return listProjects(programClient(), args);
}

/** getProjects with a given client (the native plugin's Invoke: its configured one). */
export async function listProjects(client: NeonClient, args: GetProjectsArgs): Promise<GetProjectsResult> {
  const projects = await client.projects.listAll({ search: args.search, org_id: args.orgId }).catch((error) => {
    throw error instanceof NeonError && error.status === 403 ? new Error(LIST_REFUSED, { cause: error }) : error;
  });
  return { projects: projects.map(toSummary) };
}

/** The arguments of getProjectsOutput: each may be an Output. */
export type GetProjectsOutputArgs = InputsOf<GetProjectsArgs>;

/** getProjects for inputs that are Outputs. */
export function getProjectsOutput(args: GetProjectsOutputArgs = {}): pulumi.Output<GetProjectsResult> {
  return outputOf(args, getProjects);
}

function toSummary(project: Project): ProjectSummary {
  const summary: ProjectSummary = {
    id: project.id,
    projectId: project.id,
    name: project.name,
    regionId: project.region_id,
  };
  const optional = {
    platformId: project.platform_id,
    provisioner: project.provisioner,
    pgVersion: project.pg_version,
    proxyHost: project.proxy_host,
    createdAt: project.created_at,
    updatedAt: project.updated_at,
  };
  for (const [name, value] of Object.entries(optional))
    if (value !== undefined) Object.assign(summary, { [name]: value });
  return summary;
}
