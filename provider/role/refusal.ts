/**
 * What the user is told when a role cannot be created or deleted, with what to do. Never a password: every message is
 * built from names and ids, and the client's messages are already redacted (client/errors.ts).
 */

import { aliasAdvice } from "../shared/aliases";
import { found } from "../shared/errors";
import { client } from "../shared/runtime";
import { RoleAddress } from "./address";

/**
 * The branch already has a role of this name. A branch made from a parent has the parent's roles (Neon docs, Manage
 * roles: "When you create a child branch, roles in the parent branch are duplicated in the child branch"), with the
 * same passwords (Manage branches); a role made outside Pulumi, or by an earlier `pulumi up` that was interrupted or
 * lost the create's answer, is there too. The provider never takes one over: whoever holds its password keeps it.
 */
export function alreadyOnBranch(address: RoleAddress, cause?: unknown): Error {
  const { projectId, branchId, name } = address;
  return new Error(
    `Branch ${branchId} of project ${projectId} already has a role named ${name}: it was inherited from the ` +
      `branch's parent (a branch made from a parent has its roles, with the same passwords), made outside this ` +
      `Role resource, or it is this resource's own under its old name or place. ${aliasAdvice("role")} Otherwise, ` +
      `Pulumi does not take over an existing role. To use it, remove this Role from the program and ` +
      `read its password with getRolePasswordOutput({ projectId: "${projectId}", branchId: "${branchId}", ` +
      `roleName: "${name}" }).password; for a role of your own, choose another name. If this is a replacement ` +
      `of this resource (pulumi up --replace, a replacementTrigger: Pulumi creates the new role before deleting the ` +
      `old one), give it the option deleteBeforeReplace: true. If an earlier pulumi up of this program was ` +
      `interrupted while creating it, nothing holds it: delete it (Neon console, or neonctl roles delete) and run ` +
      `pulumi up again (docs/resources.md#role).`,
    cause === undefined ? undefined : { cause },
  );
}

/**
 * The service refused to delete the role. Neon refuses to delete a role that owns a database (Neon docs, Manage roles;
 * the emulator answers 422, a guess): say which databases, and what to do. A refusal for another reason keeps its own
 * message. Undefined when nothing explains it.
 */
export async function explainDeleteRefused(address: RoleAddress, error: unknown): Promise<Error | undefined> {
  const owned = await ownedDatabases(address);
  if (owned === undefined || owned.length === 0) return undefined;
  return ownsDatabases(address, owned, error);
}

/**
 * The role still owns `owned` (none of them was being deleted, or they outlived the wait: role/owned.ts). The usual
 * cause in a program: a Database whose `ownerName` is a plain string, so Pulumi does not know to delete it first.
 */
export function ownsDatabases(address: RoleAddress, owned: string[], error: unknown): Error {
  const list = owned.join(", ");
  const them = owned.length > 1 ? "them" : "it";
  return new Error(
    `Neon refused to delete role ${address.name} of branch ${address.branchId} (${(error as Error).message}): it ` +
      `owns database${owned.length > 1 ? "s" : ""} ${list}, and a role that owns a database cannot be deleted. ` +
      `Delete ${them} first, or give ${them} another owner (a Database resource's ownerName; a database made outside ` +
      `Pulumi: the Neon console), then run the command again; for a Database of this program, declare ownerName: ` +
      `role.name (the Role's output), so that Pulumi deletes the database before the role ` +
      `(docs/resources.md#role).`,
    { cause: error },
  );
}

/** The names of the branch's databases the role owns; undefined when they cannot be read. */
export async function ownedDatabases(address: RoleAddress): Promise<string[] | undefined> {
  try {
    const databases = await found(() => client().databases.list(address.projectId, address.branchId));
    return databases?.filter((db) => db.owner_name === address.name).map((db) => db.name);
  } catch {
    return undefined;
  }
}
