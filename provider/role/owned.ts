/**
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
import { NeonError, isDone } from "../../client";
import { deletesRunning } from "../shared/deletes-in-flight";
import { client } from "../shared/runtime";
import { RoleAddress } from "./address";
import { ownedDatabases } from "./refusal";

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
