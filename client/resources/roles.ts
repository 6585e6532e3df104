/**
 * Postgres roles of a branch: list, get, create, delete, and their passwords. Changes (create, delete, password
 * reset) run under the project lock and resolve once their operations (an `apply_config`, ...) are done; reads take
 * no lock. A role is addressed by its name, encoded as one path segment (a name may hold spaces or any character).
 *
 * The password a create or reset returns is shown only in its result; it never appears in a log line or an error
 * of the client (see schemas-branches.ts). A create or reset whose outcome is unknown is not resent (`ambiguous`):
 * a reset cannot be read back, so a caller that needs the password then reads it (`revealPassword`) or resets again.
 */
import { NeonError } from "../errors";
import { mutateProject } from "../project-lock";
import { Operation } from "../schemas";
import {
  Role,
  RoleCreate,
  RoleCreateRequest,
  RoleOperations,
  RolePasswordResponse,
  RoleResponse,
  RolesResponse,
} from "../schemas-roles-databases";
import { ClientContext, seg } from "./context";
import { deleteUnderLock } from "./deletes";
import { Recover, settlingLostCreate } from "./recover";

/** A role with the final records of the operations its change started. */
export interface RoleWithOperations {
  role: Role;
  operations: Operation[];
}

/** A delete's result: no `role` when it was not there (404 / 204). */
export interface RoleDeleted {
  role?: Role;
  operations: Operation[];
}

const DeleteResponse = RoleOperations.partial({ role: true });

/** Typed calls of `/projects/{p}/branches/{b}/roles`. */
export class RolesApi {
  constructor(private readonly ctx: ClientContext) {}

  /** GET .../roles → the branch's roles (without passwords). */
  async list(projectId: string, branchId: string): Promise<Role[]> {
    const path = this.rolesPath(projectId, branchId);
    return (await this.ctx.transport.request({ method: "GET", path, schema: RolesResponse })).roles;
  }

  /** GET .../roles/{name} → the role (kind `not_found` when it does not exist). */
  async get(projectId: string, branchId: string, roleName: string): Promise<Role> {
    const path = this.path(projectId, branchId, roleName);
    return (await this.ctx.transport.request({ method: "GET", path, schema: RoleResponse })).role;
  }

  /** POST .../roles (body: `{name, no_login?}` or the whole request) → the role with its password. */
  create(
    projectId: string,
    branchId: string,
    body: RoleCreate | RoleCreateRequest,
    options: { recover?: Recover<Role> } = {},
  ): Promise<RoleWithOperations> {
    const request = "role" in body ? body : { role: body };
    const send = this.sender(this.rolesPath(projectId, branchId), request);
    const answer = async (role: Role) => ({ role, operations: await this.ctx.branchOperationsOf(projectId, branchId) });
    return this.mutate(projectId, settlingLostCreate(send, options.recover, answer));
  }

  /** DELETE .../roles/{name}; a role that was not there (404 or 204) resolves without `role`. */
  delete(projectId: string, branchId: string, roleName: string): Promise<RoleDeleted> {
    return deleteUnderLock(this.ctx, {
      projectId,
      path: this.path(projectId, branchId, roleName),
      schema: DeleteResponse,
      resourceId: roleName,
      read: () => this.get(projectId, branchId, roleName),
      leftovers: () => this.ctx.branchOperationsOf(projectId, branchId),
    });
  }

  /**
   * GET .../roles/{name}/reveal_password → the role's password. A project that does not store passwords answers
   * 412 (kind `validation`).
   */
  async revealPassword(projectId: string, branchId: string, roleName: string): Promise<string> {
    const path = `${this.path(projectId, branchId, roleName)}/reveal_password`;
    return (await this.ctx.transport.request({ method: "GET", path, schema: RolePasswordResponse })).password;
  }

  /**
   * reveal_password once the branch's unfinished operations are done. The new password of a reset is "ready to use
   * when the last operation finishes" (OpenAPI `resetProjectBranchRolePassword`), and what reveal shows before is not
   * documented: the old one, maybe. So settling a reset whose answer was lost, or reading a password reset outside
   * Pulumi, waits first. A wait that fails (an operation failed or is stuck) does not stop the read.
   */
  async revealPasswordSettled(projectId: string, branchId: string, roleName: string): Promise<string> {
    const running = await this.ctx.branchOperationsOf(projectId, branchId);
    if (running.length > 0)
      await this.ctx.waitFor(projectId, running).catch((error: unknown) => {
        if (error instanceof NeonError && error.kind === "cancelled") throw error;
      });
    return this.revealPassword(projectId, branchId, roleName);
  }

  /**
   * POST .../roles/{name}/reset_password → the role with its new password; resolves once the operations are done,
   * when the new password is in force (the old one stays valid until then).
   */
  resetPassword(projectId: string, branchId: string, roleName: string): Promise<RoleWithOperations> {
    return this.mutate(projectId, this.sender(`${this.path(projectId, branchId, roleName)}/reset_password`));
  }

  private sender(path: string, body?: unknown): () => Promise<RoleWithOperations> {
    return () => this.ctx.transport.request({ method: "POST", path, body, schema: RoleOperations });
  }

  private mutate(projectId: string, send: () => Promise<RoleWithOperations>): Promise<RoleWithOperations> {
    return mutateProject(
      this.ctx.lockKey(projectId),
      (ops) => this.ctx.waitFor(projectId, ops),
      send,
      (result) => result.role.name,
    );
  }

  private rolesPath(projectId: string, branchId: string): string {
    return `/projects/${seg(projectId)}/branches/${seg(branchId)}/roles`;
  }

  private path(projectId: string, branchId: string, roleName: string): string {
    return `${this.rolesPath(projectId, branchId)}/${seg(roleName)}`;
  }
}
