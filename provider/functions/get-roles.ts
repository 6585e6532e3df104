/**
 * getRoles: the Postgres roles of a branch (GET …/branches/{b}/roles; not paged: OpenAPI `RolesResponse`), each with a
 * Role resource's outputs, read by Role's own `toOutputs` (provider/role/declaration.ts), but for the provider's
 * records and the password: a list gives none (getRolePassword reads one role's). A branch the project lacks is named;
 * a project that does not answer is said. Runs in the program; the native Invoke calls `listRoles`.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { NeonClient } from "../../client";
import { ROLE, toOutputs } from "../role/declaration";
import { inProgram, type InputsOf, outputOf } from "../shared/program-client";
import { branchIdProblem, checked, firstProblem, lookedUp, projectIdProblem, reading } from "./lookup";

// generated: RoleInfo (npm run generate, from the declaration)
/** A role as a lookup gives it: a Role resource's outputs but the password (getRolePassword reads one). */
export interface RoleInfo {
  /** Project of the role. */
  projectId: string;
  /** Branch of the role. */
  branchId: string;
  /** The role's name. */
  name: string;
  /** True for a role that cannot log in (it has no password). */
  noLogin: boolean;
  /** `password`, `oauth` or `no_login`, as the service reports it. */
  authenticationMethod?: string;
  /** Whether the service protects the role (a system role). */
  protected?: boolean;
  /** Creation time (ISO 8601). */
  createdAt: string;
  /** Last update time (ISO 8601); a password reset moves it. */
  updatedAt: string;
}
// end of the generated RoleInfo

export interface GetRolesArgs {
  /** The branch's project. */
  projectId: string;
  /** The branch whose roles to list (`br-…`). */
  branchId: string;
}

/** The arguments of getRolesOutput: each may be an Output. */
export type GetRolesOutputArgs = InputsOf<GetRolesArgs>;

export interface GetRolesResult {
  /** The branch's roles, without passwords. */
  roles: RoleInfo[];
}

/** The roles of a branch (no passwords: getRolePassword reads one). */
export function getRoles(args: GetRolesArgs): Promise<GetRolesResult> {
  return inProgram(listRoles, args);
}

/** getRoles for inputs that are Outputs. */
export function getRolesOutput(args: GetRolesOutputArgs): pulumi.Output<GetRolesResult> {
  return outputOf(args, getRoles);
}

/** The problem with the arguments of getRoles and getDatabases: a project id and a branch id. */
export const branchListArgsProblem = (args: Record<string, unknown>) =>
  firstProblem(projectIdProblem(args), branchIdProblem(args));

/** getRoles with a given client (`key` names its key's setting, for messages). */
export function listRoles(client: NeonClient, args: GetRolesArgs, key = "neon:apiKey"): Promise<GetRolesResult> {
  const { projectId, branchId } = args;
  return checked("getRoles", branchListArgsProblem({ ...args }), async () => {
    const looking = { fn: "getRoles", projectId, branchId, key };
    const roles = await reading(client, looking, () => client.roles.list(projectId, branchId));
    const infoOf = (role: (typeof roles)[number]) =>
      lookedUp(ROLE, toOutputs(role, { projectId }, undefined)) as unknown as RoleInfo;
    return { roles: roles.map(infoOf) };
  });
}
