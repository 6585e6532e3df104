/**
 * getProject: one project by id, its fields as the Project resource's outputs name them (`projectId`, `regionId`,
 * `defaultBranchId`, `defaultComputeId`, `roleName`, …; read as the resource reads them: the project, its branch list
 * read to the end, the default branch's computes and databases; no password), then what else the service reports. A
 * project that does not answer is said, with what else Neon's 404 may mean. Runs in the program (credentials as getProjects resolves them); the native plugin's Invoke calls
 * `lookUpProject` with its configured client.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { NeonClient } from "../../client";
import { OutputRow, outputsFrom, reported } from "../shared/declaration";
import { PROJECT } from "../project/declaration";
import { projectAsItIs, toOutputs } from "../project/changes";
import { inProgram, type InputsOf, outputOf } from "../shared/program-client";
import { checked, lookedUp, lookupRows, projectIdProblem, reading } from "./lookup";

export interface GetProjectArgs {
  /** The project's id. */
  projectId: string;
}

/** The arguments of getProjectOutput: each may be an Output. */
export type GetProjectOutputArgs = InputsOf<GetProjectArgs>;

/**
 * A project as the Project resource names its outputs (its default objects' ids and names included, no secret), then
 * what else the service reports of it (OpenAPI `Project`, in camelCase). A field the service did not report is absent.
 */
export interface GetProjectResult {
  projectId: string;
  name: string;
  regionId: string;
  pgVersion: number;
  orgId?: string;
  historyRetentionSeconds: number;
  defaultEndpointSettings: {
    autoscalingLimitMinCu?: number;
    autoscalingLimitMaxCu?: number;
    suspendTimeoutSeconds?: number;
  };
  settings: { allowedIps?: string[]; enableLogicalReplication?: boolean };
  branch: { name?: string; roleName?: string; databaseName?: string };
  defaultBranchId: string;
  defaultComputeId: string;
  defaultComputeHost?: string;
  defaultRoleId: string;
  defaultDatabaseId: string;
  roleName: string;
  databaseName: string;
  createdAt?: string;
  platformId?: string;
  provisioner?: string;
  proxyHost?: string;
  ownerId?: string;
  storePasswords?: boolean;
  creationSource?: string;
  updatedAt?: string;
}

const MAYBE = { optional: true };

/** What the service reports of a project besides the Project resource's outputs, each read from its API field. */
const SERVICE_FIELDS: Record<string, OutputRow> = {
  platformId: reported("platform_id", "The cloud platform (aws, azure).", MAYBE),
  provisioner: reported("provisioner", "`k8s-pod`, `k8s-neonvm` or `serverless-platform`.", MAYBE),
  proxyHost: reported("proxy_host", "The region's proxy host.", MAYBE),
  ownerId: reported("owner_id", "The account that owns the project.", MAYBE),
  storePasswords: reported("store_passwords", "Whether the service keeps role passwords (getRolePassword).", {
    ...MAYBE,
    schema: { type: "boolean" },
  }),
  creationSource: reported("creation_source", "What created the project (console, API, ...).", MAYBE),
  updatedAt: reported("updated_at", "Last update time (ISO 8601).", MAYBE),
};

/** getProject's fields: the Project resource's outputs as a lookup gives them (lookup.ts), then the service's others. */
export const PROJECT_FIELDS: Record<string, OutputRow> = { ...lookupRows(PROJECT), ...SERVICE_FIELDS };

/** The project `projectId`: its fields and its default objects. */
export function getProject(args: GetProjectArgs): Promise<GetProjectResult> {
  return inProgram(lookUpProject, args);
}

/** getProjectOutput: getProject for inputs that are Outputs. */
export function getProjectOutput(args: GetProjectOutputArgs): pulumi.Output<GetProjectResult> {
  return outputOf(args, getProject);
}

/** getProject with a given client (the native plugin's: `key` names its key's setting, for messages). */
export function lookUpProject(
  client: NeonClient,
  args: GetProjectArgs,
  key = "neon:apiKey",
): Promise<GetProjectResult> {
  return checked("getProject", projectIdProblem({ ...args }), () =>
    reading(client, { fn: "getProject", projectId: args.projectId, key }, async () => {
      // Read as the Project resource reads it, without revealing the role's password (a lookup gives no secret).
      const { project, defaults } = await projectAsItIs(client, args.projectId, {}, false);
      const record = Object.fromEntries(Object.entries(project).filter(([, value]) => value !== null));
      const outputs = toOutputs(record as typeof project, defaults, {});
      const result = { ...lookedUp(PROJECT, outputs), ...outputsFrom({ outputs: SERVICE_FIELDS }, record) };
      return result as unknown as GetProjectResult;
    }),
  );
}
