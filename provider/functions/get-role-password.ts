/**
 * getRolePassword: the password of a role the program does not manage, such as one a branch inherited from its parent
 * (a child branch has its parent's roles, with the same passwords: Neon docs, Manage branches), read with Neon's
 * reveal_password (OpenAPI getProjectBranchRolePassword).
 *
 * Runs in the program, not in the plugin; credentials are resolved exactly as getProjects resolves them
 * (`neon:apiKey` / `neon:apiUrl` of the stack config, else NEON_API_KEY / NEON_API_HOST; never the program's own
 * `apiKey`). getRolePasswordOutput's result is a secret (pulumi.secret), so the password is encrypted wherever the
 * program puts it. Errors never hold the password (the client redacts it: client/errors.ts).
 */
import * as pulumi from "@pulumi/pulumi";
import { BRANCH_ID, BRANCH_ID_SHAPE, PROJECT_ID, PROJECT_ID_SHAPE } from "../shared/ids";
import type { NeonClient } from "../../client";
import { type InputsOf, outputOf, programClient, programKeySetting } from "../shared/program-client";
import { errorKind } from "../shared/errors";

export interface GetRolePasswordArgs {
  /** The role's project. */
  projectId: string;
  /** The role's branch. */
  branchId: string;
  /** The role's name, e.g. `neondb_owner`. */
  roleName: string;
}

/** The arguments of getRolePasswordOutput: each may be an Output. */
export type GetRolePasswordOutputArgs = InputsOf<GetRolePasswordArgs>;

export interface GetRolePasswordResult {
  /** The role's password. Through getRolePasswordOutput, a secret. */
  password: string;
}

/** The role's password, as the service reveals it. */
export function getRolePassword(args: GetRolePasswordArgs): Promise<GetRolePasswordResult> {
  const problem = argsProblem(args);
  if (problem) return Promise.reject(new Error(`getRolePassword: ${problem}`));
  return revealRolePassword(programClient(), args, programKeySetting());
}

/**
 * getRolePassword with a given client (the native plugin's Invoke: its configured one), of checked arguments; `key`
 * names the setting its key comes from, for messages.
 */
export async function revealRolePassword(
  client: NeonClient,
  args: GetRolePasswordArgs,
  key = "neon:apiKey",
): Promise<GetRolePasswordResult> {
  try {
    return { password: await client.roles.revealPassword(args.projectId, args.branchId, args.roleName) };
  } catch (error) {
    throw await explainRevealError(client, args, error, key);
  }
}

/** getRolePassword for inputs that are Outputs; the result is a secret. */
export function getRolePasswordOutput(args: GetRolePasswordOutputArgs): pulumi.Output<GetRolePasswordResult> {
  return pulumi.secret(outputOf(args, getRolePassword));
}

/** A missing or malformed argument, named; undefined when the arguments can be sent. */
export function argsProblem(args: Partial<GetRolePasswordArgs>): string | undefined {
  if (typeof args.projectId !== "string" || !PROJECT_ID.test(args.projectId))
    return `projectId must be ${PROJECT_ID_SHAPE}`;
  if (typeof args.branchId !== "string" || !BRANCH_ID.test(args.branchId)) return `branchId must be ${BRANCH_ID_SHAPE}`;
  if (typeof args.roleName !== "string" || args.roleName.length === 0) return "roleName must be a role's name";
  return undefined;
}

/** The reads an explanation may make (a client, or a stand-in in tests). */
export interface RoleLister {
  roles: { list(projectId: string, branchId: string): Promise<{ name: string }[]> };
  branches: { list(projectId: string): Promise<unknown[]> };
}

/**
 * What a refused reveal means, with what to do: a role the branch does not have (naming the role, the branch and the
 * roles it has), a branch that does not answer in a project that does, a project that does not answer (or that the
 * key does not reach), a key that may not do this (403), a project that keeps no passwords (412), a role that cannot
 * log in. The service's own message comes first; `key` names the setting the key comes from.
 */
export async function explainRevealError(
  client: RoleLister,
  args: GetRolePasswordArgs,
  error: unknown,
  key = "neon:apiKey",
): Promise<Error> {
  const { projectId, branchId, roleName } = args;
  const said = (error as Error).message;
  const status = (error as { status?: number }).status;
  const kind = errorKind(error);
  const fail = (text: string) => new Error(`getRolePassword: ${text}`, { cause: error });
  if (kind === "not_found") {
    const roles = await client.roles.list(projectId, branchId).catch(() => undefined);
    if (roles === undefined) {
      const projectAnswers = await client.branches.list(projectId).then(
        () => true,
        () => false,
      );
      if (!projectAnswers) {
        return fail(
          `role ${roleName} was not found, and neither was project ${projectId} (${said}): check the projectId. ` +
            `Neon answers 404 too for a project ${key} does not reach (a project-scoped key outside its project, ` +
            `another account's key): use a key that reaches it.`,
        );
      }
      return fail(
        `role ${roleName} of branch ${branchId} was not found, and neither was the branch (${said}): project ` +
          `${projectId} has no branch ${branchId}; check the branchId.`,
      );
    }
    const names = roles.map((role) => role.name).join(", ") || "none";
    return fail(
      `branch ${branchId} of project ${projectId} has no role named ${roleName} (${said}); its roles: ${names}. A ` +
        `branch has the roles its parent had when it was made, and those created on it since.`,
    );
  }
  if (status === 403) {
    return fail(
      `the service refused to reveal the password of role ${roleName} of branch ${branchId} with ${key} ` +
        `(${said}). A project-scoped API key can use only its own project: check that project ` +
        `${projectId} is that key's project, or use a key that reaches it (an organization key of its organization, ` +
        `or a member's personal key).`,
    );
  }
  if (status === 412) {
    return fail(
      `project ${projectId} keeps no role passwords the service can reveal (${said}): reset the password of role ` +
        `${roleName} (Neon console, or neonctl roles reset-password) and give it to the program as a secret config ` +
        `value (pulumi config set --secret), or manage the role with a Role resource, whose password output holds it.`,
    );
  }
  if (kind === "validation") {
    return fail(
      `the service would not reveal the password of role ${roleName} of branch ${branchId} (${said}); a role ` +
        `created with no_login has no password.`,
    );
  }
  return fail(`reading the password of role ${roleName} of branch ${branchId} failed: ${said}`);
}
