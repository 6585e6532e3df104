/**
 * The demo's second chapter, shared by both paths (demo-local.ts, demo-cli.ts): a preview branch with its
 * DATABASE_URL. The example pr-preview as the stack `pr-42` of a pull request: the plan (4 to create, nothing sent),
 * the up (the branch pr-42, a compute and a database on it), the app's DATABASE_URL with its password hidden, an up
 * with nothing to do (its one read is the program's getRolePasswordOutput), destroy (the branch gone from the
 * project's list).
 */
import { Emulator } from "../emulator";
import { NeonClient } from "../client";

export const BRANCH_EXAMPLE = "pr-preview";
/** The pull request's stack: the program names its branch after it. */
export const BRANCH_STACK = "pr-42";
export const PR_URL = "https://github.com/acme/app/pull/42";

/** What each command of the chapter says, the same words on either path. */
export const BRANCH_LINES = {
  intro: `next, a preview branch with its DATABASE_URL: the example ${BRANCH_EXAMPLE} as the stack ${BRANCH_STACK}`,
  expiresAt: "the branch expires a week ahead, should no destroy run",
  prUrl: "kept in the branch's annotations",
  preview: "4 to create: the stack, the branch pr-42, its compute and database; nothing is sent",
  up: "the branch pr-42, a compute and a database on it",
  output: "the app's DATABASE_URL, a secret output; its password hidden here",
  again: "again: nothing to do",
  destroy: "the pull request closed: its branch, compute and database deleted",
};

/** RFC 3339 to the second, a week after `now`: the pipeline sets `expiresAt` so at each up. */
export function weekAhead(now = Date.now()): string {
  return new Date(now + 7 * 86_400_000).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/**
 * The connection string with its password replaced by `****`, for printing. Anything but a `postgresql://` URL with a
 * user and a password is refused without being shown: it might hold the password elsewhere.
 */
export function maskPassword(url: unknown): string {
  const parts = typeof url === "string" ? /^(postgres(?:ql)?:\/\/[^:@/?#\s]+:)[^@/?#\s]+(@[^@\s]+)$/.exec(url) : null;
  if (!parts) throw new Error("the stack output databaseUrl is not a postgresql:// URL with a password (not shown)");
  return `${parts[1]}****${parts[2]}`;
}

/**
 * After the second up: a line saying that its one request was the program's read of the inherited role's password
 * (getRolePasswordOutput, a data source: it reads on every run) and that the provider sent nothing; undefined when
 * the requests were anything else (the request summary says what they were).
 */
export function secondUpNote(requests: readonly { method: string; path: string }[]): string | undefined {
  const passwordRead = /^\/projects\/[^/]+\/branches\/[^/]+\/roles\/[^/]+\/reveal_password$/;
  if (requests.length !== 1 || requests[0].method !== "GET" || !passwordRead.test(requests[0].path)) return undefined;
  return "the one read is the program's getRolePasswordOutput (the inherited role's password); the provider sent nothing";
}

/** The project's branches after destroy: a line saying that pr-42 is gone, or an error when it is not. */
export async function branchGone(emulator: Emulator): Promise<string> {
  const client = new NeonClient({ apiKey: emulator.apiKey, apiUrl: emulator.baseUrl });
  const names = (await client.branches.list(emulator.projectId)).map((b) => b.name);
  if (names.includes(BRANCH_STACK)) throw new Error(`the branch ${BRANCH_STACK} is still in the project after destroy`);
  return `the project's branches: ${names.join(", ")} (${BRANCH_STACK} is gone)`;
}
