/**
 * getProject: one project by id (GET /projects/{p}), its fields in camelCase as a Project resource would name them
 * (`projectId` for `id`, `regionId`, `pgVersion`, `orgId`, `historyRetentionSeconds`, …), and its default branch's id
 * (`defaultBranchId`, from its branch list, read to the end). A project that does not answer is said, with what else
 * Neon's 404 may mean. Runs in the program (credentials as getProjects resolves them); the native plugin's Invoke calls
 * `lookUpProject` with its configured client.
 */
import * as pulumi from "@pulumi/pulumi";
import type { NeonClient } from "../../client";
import { INTEGER, OutputRow, outputsFrom, reported, STRING } from "../shared/declaration";
import { programClient, programKeySetting } from "../shared/program-client";
import { checked, projectIdProblem, reading } from "./lookup";

export interface GetProjectArgs {
  /** The project's id. */
  projectId: string;
}

/** The arguments of getProjectOutput: each may be an Output. */
export interface GetProjectOutputArgs {
  projectId: pulumi.Input<string>;
}

/** A project's fields (OpenAPI `Project`, in camelCase). A field the service did not report is absent. */
export interface GetProjectResult {
  projectId: string;
  name: string;
  regionId: string;
  platformId?: string;
  pgVersion?: number;
  provisioner?: string;
  proxyHost?: string;
  orgId?: string;
  ownerId?: string;
  historyRetentionSeconds?: number;
  storePasswords?: boolean;
  creationSource?: string;
  createdAt?: string;
  updatedAt?: string;
  defaultBranchId?: string;
}

const MAYBE = { optional: true };

/**
 * The fields, each read from its API field. The Project resource (issue 26, item 1) names its outputs the same way:
 * when it lands, these rows are its outputs' (the lead merges the two).
 */
export const PROJECT_FIELDS: Record<string, OutputRow> = {
  projectId: reported("id", "The project's id."),
  name: reported("name", "The project's name."),
  regionId: reported("region_id", "The project's region, e.g. `aws-us-east-2`."),
  platformId: reported("platform_id", "The cloud platform (aws, azure).", MAYBE),
  pgVersion: reported("pg_version", "Postgres major version.", { ...MAYBE, schema: INTEGER }),
  provisioner: reported("provisioner", "`k8s-pod`, `k8s-neonvm` or `serverless-platform`.", MAYBE),
  proxyHost: reported("proxy_host", "The region's proxy host.", MAYBE),
  orgId: reported("org_id", "The project's organization, if it belongs to one.", MAYBE),
  ownerId: reported("owner_id", "The account that owns the project.", MAYBE),
  historyRetentionSeconds: reported(
    "history_retention_seconds",
    "How far back the project keeps history (point-in-time restore, branching from the past), in seconds.",
    { ...MAYBE, schema: INTEGER },
  ),
  storePasswords: reported("store_passwords", "Whether the service keeps role passwords (getRolePassword).", {
    ...MAYBE,
    schema: { type: "boolean" },
  }),
  creationSource: reported("creation_source", "What created the project (console, API, ...).", MAYBE),
  createdAt: reported("created_at", "Creation time (ISO 8601).", MAYBE),
  updatedAt: reported("updated_at", "Last update time (ISO 8601).", MAYBE),
  defaultBranchId: {
    schema: STRING,
    optional: true,
    description: "The project's default branch (its id), from its branch list.",
  },
};

/** The project `projectId`: its fields and its default branch's id. */
export function getProject(args: GetProjectArgs): Promise<GetProjectResult> {
  return lookUpProject(programClient(), args, programKeySetting());
}

/** getProjectOutput: getProject for inputs that are Outputs. */
export function getProjectOutput(args: GetProjectOutputArgs): pulumi.Output<GetProjectResult> {
  return pulumi.output(args).apply((resolved) => getProject(resolved));
}

/** getProject with a given client (the native plugin's: `key` names its key's setting, for messages). */
export function lookUpProject(
  client: NeonClient,
  args: GetProjectArgs,
  key = "neon:apiKey",
): Promise<GetProjectResult> {
  return checked("getProject", projectIdProblem({ ...args }), () =>
    reading(client, { fn: "getProject", projectId: args.projectId, key }, async () => {
      const project = await client.projects.get(args.projectId);
      const defaultBranch = (await client.branches.list(args.projectId)).find((branch) => branch.default);
      const extra = defaultBranch === undefined ? {} : { defaultBranchId: defaultBranch.id };
      const record = Object.fromEntries(Object.entries(project).filter(([, value]) => value !== null));
      return outputsFrom({ outputs: PROJECT_FIELDS }, record, extra) as unknown as GetProjectResult;
    }),
  );
}
