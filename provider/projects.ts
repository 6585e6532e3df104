/**
 * getProjects: every project of the account across all pages (the peers read one page, or one project).
 * Runs in the program, not in the plugin; credentials come from neon:apiKey / neon:apiUrl, else the
 * environment (NEON_API_KEY / NEON_API_HOST).
 */
import * as pulumi from "@pulumi/pulumi";
import { NeonClient, resolveConfig } from "../sdk";

export interface GetProjectsArgs {
  /** Only projects whose name or id contains this text. */
  search?: string;
  /** Only projects of this organization. */
  orgId?: string;
}

/** A project as listed, in camelCase. */
export interface ProjectSummary {
  id: string;
  name: string;
  platformId: string;
  regionId: string;
  provisioner: string;
  pgVersion: number;
  proxyHost: string;
  createdAt: string;
  updatedAt: string;
}

export interface GetProjectsResult {
  projects: ProjectSummary[];
}

/** Lists every project matching `args`, walking all pages. */
export async function getProjects(args: GetProjectsArgs = {}): Promise<GetProjectsResult> {
  const config = new pulumi.Config("neon");
  const { apiKey, apiUrl } = resolveConfig(
    undefined,
    { get: (key) => config.get(key.replace(/^neon:/, "")) },
    process.env,
  );
  const client = new NeonClient({ apiKey, apiUrl });
  const projects = await client.projects.listAll({ search: args.search, org_id: args.orgId });
  return { projects: projects.map(toSummary) };
}

/** The arguments of getProjectsOutput: each may be an Output. */
export interface GetProjectsOutputArgs {
  search?: pulumi.Input<string>;
  orgId?: pulumi.Input<string>;
}

/** getProjects for inputs that are Outputs. */
export function getProjectsOutput(args: GetProjectsOutputArgs = {}): pulumi.Output<GetProjectsResult> {
  return pulumi.output(args).apply((resolved) => getProjects(resolved));
}

function toSummary(project: Record<string, unknown>): ProjectSummary {
  return {
    id: String(project.id),
    name: String(project.name),
    platformId: String(project.platform_id),
    regionId: String(project.region_id),
    provisioner: String(project.provisioner),
    pgVersion: Number(project.pg_version),
    proxyHost: String(project.proxy_host),
    createdAt: String(project.created_at),
    updatedAt: String(project.updated_at),
  };
}
