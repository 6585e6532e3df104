/**
 * What the user is told when a role cannot be created or deleted, with what to do. Never a password: every message is
 * built from names and ids, and the client's messages are already redacted (client/errors.ts).
 *
 * A role's delete refused because the role owns a database that is itself being deleted. Pulumi deletes a Role and a
 * Database whose `ownerName` is a plain string (not the Role's output) at once, through one plugin process: when the
 * role's DELETE reaches Neon first, Neon refuses it while the database stands (Neon docs, Manage roles: "The database
 * must be deleted before"). The first `up` failed with that refusal and a second converged (issue 23, item 19).
 *
 * So the refused delete (the project lock is released: the refusal ended its turn) waits, bounded, for what is removing
 * the databases: this process's deletes of them (shared/deletes-in-flight.ts), and the branch's unfinished operations
 * (a delete by another process, or one whose answer came and whose operation still runs); then it reads the databases
 * again. It never waits for a database nothing is deleting.
 *
 * Whether Neon answers a role's DELETE sent while the database's delete operation runs with 422 (the database still
 * counted) or 423 (the project busy) is not documented; the emulator answers 423 (a **guess**: its database is gone
 * as soon as its delete is answered). Both converge: a 423 is retried by the client, and a 422 lands here, which waits
 * for the branch's operations before sending again, even when the databases are no longer listed.
 */
import { aliasAdvice } from "../shared/aliases";
import { found } from "../shared/errors";
import { client } from "../shared/runtime";
import { RoleAddress } from "./declaration";
import { NeonError, isDone } from "../../client";
import { deletesRunning } from "../shared/deletes-in-flight";
import { isUnknown } from "../shared/unknown";
import type { CheckFailure } from "../shared/validators";

type Props = Record<string, unknown>;

/** Check's rules over several of a Role's inputs (declaration.ts `crossChecks`). */
/** A role that cannot log in has no password to reset (the service refuses the reset: emulator/domain/roles.ts). */
export function triggersWithoutLogin(news: Props): CheckFailure[] {
  if (news.noLogin !== true || news.passwordTriggers === undefined || news.passwordTriggers === null) return [];
  return [
    {
      property: "passwordTriggers",
      reason: "must not be set on a role with noLogin: true: a role that cannot log in has no password to reset",
    },
  ];
}

/**
 * `adoptId` names this Role's own role: a role is addressed by project, branch and name (api.md, Ids), so its id is
 * those three, and another would adopt a role the resource does not describe. Unknown parts (a preview) pass.
 */
export function adoptIdNamesTheRole(news: Props): CheckFailure[] {
  const { adoptId, projectId, branchId, name } = news;
  if (typeof adoptId !== "string" || [adoptId, projectId, branchId, name].some(isUnknown)) return [];
  const own = `${String(projectId)}/${String(branchId)}/${String(name)}`;
  if (adoptId === own) return [];
  return [
    {
      property: "adoptId",
      reason: `must be this role's id, ${JSON.stringify(own)} (<projectId>/<branchId>/<name>: a Project's defaultRoleId), got ${JSON.stringify(adoptId)}`,
    },
  ];
}

/**
 * The branch already has a role of this name. A branch made from a parent has the parent's roles (Neon docs, Manage
 * roles: "When you create a child branch, roles in the parent branch are duplicated in the child branch"), with the
 * same passwords (Manage branches); a role made outside Pulumi, or by an earlier `pulumi up` that was interrupted or
 * lost the create's answer, is there too. The provider never takes one over unasked (`adoptId` does, on purpose).
 */
export function alreadyOnBranch(address: RoleAddress, cause?: unknown): Error {
  const { projectId, branchId, name } = address;
  return new Error(
    `Branch ${branchId} of project ${projectId} already has a role named ${name}: it was inherited from the ` +
      `branch's parent (a branch made from a parent has its roles, with the same passwords), made outside this ` +
      `Role resource, or it is this resource's own under its old name or place. ${aliasAdvice("role")} Otherwise, ` +
      `Pulumi does not take over an existing role unless told to: to manage it (a project's default role, say), set ` +
      `adoptId: "${projectId}/${branchId}/${name}". To only use it, remove this Role from the program and ` +
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
 * The role still owns `owned` (none of them was being deleted, or they outlived the wait: `databasesStillOwned`). The usual
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

/**
 * The role owns databases that their adopted Database resources left on the service in this same run: Neon refuses to
 * delete it while they stand, so it is left too, and goes with them when their project is deleted.
 */
export function ownsKeptDatabases(address: RoleAddress, owned: string[]): string {
  return (
    `Role ${address.name} of branch ${address.branchId} was not deleted: it owns ${owned.join(", ")}, which ` +
    `${owned.length > 1 ? "their Database resources" : "its Database resource"} left on the service (adopted), and ` +
    `Neon deletes no role that owns a database. Both go with their project (a Project's destroy); to delete them ` +
    `before, remove adoptId from the Database too, run pulumi up, then remove both (docs/resources.md#project).`
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

/** How long a refused role delete waits, at most, for the databases it owns to be deleted. */
export const OWNED_WAIT_MS = 30_000;
/** Pauses between the reads when only the branch's operations were waited for (not this process's deletes). */
const PAUSES_MS = [500, 1000, 2000, 4000, 8000];

/**
 * The databases the role still owns once their deletes (of this process, or whatever runs on the branch) are done, or
 * the budget is spent: `[]` when none is left (send the delete again), undefined when they cannot be read.
 */
export async function databasesStillOwned(
  address: RoleAddress,
  budgetMs = OWNED_WAIT_MS,
): Promise<string[] | undefined> {
  const deadline = Date.now() + budgetMs;
  for (let attempt = 0; ; attempt++) {
    const owned = await ownedDatabases(address);
    if (owned === undefined) return owned;
    // none listed: the service may still count one whose delete operation runs (422 first), so let that end first
    if (owned.length === 0) {
      await until(waitForOperations(address, await branchOperations(address)), deadline);
      return owned;
    }
    const deleting = deletesRunning(owned.map((name) => ({ kind: "database", ...address, name })));
    const running = await branchOperations(address);
    if ((deleting.length === 0 && running.length === 0) || Date.now() >= deadline) return owned;
    const settled = Promise.allSettled([...deleting, waitForOperations(address, running)]);
    const pause = deleting.length === 0 ? PAUSES_MS[Math.min(attempt, PAUSES_MS.length - 1)] : 0;
    await until(
      settled.then(() => sleep(Math.min(pause, deadline - Date.now()))),
      deadline,
    );
  }
}

/** The branch's unfinished operations; none when they cannot be read (the next read of the databases decides). */
async function branchOperations(address: RoleAddress) {
  const all = await client()
    .operations.listAll(address.projectId)
    .catch(() => []);
  return all.filter((op) => op.branch_id === address.branchId && !isDone(op));
}

async function waitForOperations(address: RoleAddress, running: Awaited<ReturnType<typeof branchOperations>>) {
  if (running.length === 0) return;
  await client()
    .operations.waitFor(address.projectId, running)
    .catch((error: unknown) => {
      if (error instanceof NeonError && error.kind === "cancelled") throw error;
    });
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves when `work` does or the deadline passes, whichever is first; leaves no timer behind. */
async function until(work: Promise<unknown>, deadline: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.max(0, deadline - Date.now()))));
  try {
    await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}
