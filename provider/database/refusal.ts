/**
 * What the user is told when a database cannot be created or changed, with what to do.
 */
import { BranchAddress } from "../shared/branch-objects";

import { aliasAdvice } from "../shared/aliases";
import { errorKind, found } from "../shared/errors";
import { client } from "../shared/runtime";

type Props = Record<string, unknown>;

/**
 * The branch already has a database of this name. A branch made from a parent has the parent's databases (Neon docs,
 * Manage databases: "If you create a child branch, databases from the parent branch are copied to the child branch");
 * one made outside Pulumi, or by an earlier `pulumi up` that was interrupted or lost the create's answer, is there
 * too. The provider never takes one over unasked (`adoptId` does, on purpose): it holds someone's data.
 */
export function alreadyOnBranch(address: BranchAddress, name: string, id?: string, cause?: unknown): Error {
  const adopt = id === undefined ? "set adoptId to its id" : `set adoptId: "${id}"`;
  return new Error(
    `Branch ${address.branchId} of project ${address.projectId} already has a database named ${name}: it was ` +
      `inherited from the branch's parent (a branch made from a parent has its databases), made outside this ` +
      `Database resource, or it is this resource's own under its old name or place. ${aliasAdvice("database")} ` +
      `Otherwise, Pulumi does not take over an existing database unless told to: to manage it (a project's default ` +
      `database, say), ${adopt}. Else leave it out of the program (it is there, and connections can use it), or ` +
      `choose another name for a database of your own. If this is a replacement of ` +
      `this resource (pulumi up --replace, a replacementTrigger: Pulumi creates the new database before deleting the ` +
      `old one), give it the option deleteBeforeReplace: true (the old database's data goes with it). If an earlier ` +
      `pulumi up of this program was interrupted while creating it, nothing holds it: delete it (Neon console, or ` +
      `neonctl databases delete) if it holds nothing you need, and run pulumi up again (docs/resources.md#database).`,
    cause === undefined ? undefined : { cause },
  );
}

/**
 * A create or an owner change refused because the branch has no such role: the service answers "database owner not
 * found" (neondatabase/neonctl#272; 404 in the emulator, a guess). Names the roles the branch has. Undefined when the
 * refusal is about something else (a 404 that does not mention an owner, or one for a role the branch does have).
 */
export async function explainOwnerMissing(
  address: BranchAddress,
  news: Props,
  error: unknown,
): Promise<Error | undefined> {
  if (!["not_found", "validation"].includes(errorKind(error) ?? "")) return undefined;
  const said = (error as { apiMessage?: string }).apiMessage ?? (error as Error).message;
  if (!/owner/i.test(said)) return undefined;
  const roles = await found(() => client().roles.list(address.projectId, address.branchId)).catch(() => undefined);
  const owner = String(news.ownerName);
  if (roles?.some((role) => role.name === owner)) return undefined;
  const names = roles === undefined ? "" : `; its roles: ${roles.map((role) => role.name).join(", ") || "none"}`;
  return new Error(
    `branch ${address.branchId} of project ${address.projectId} has no role named ${owner} to own database ` +
      `${String(news.name)} (${(error as Error).message})${names}. Declare the role on that branch with a Role ` +
      `resource and pass its name (ownerName: role.name, so that the role is created first), or name a role the ` +
      `branch has.`,
    { cause: error },
  );
}
