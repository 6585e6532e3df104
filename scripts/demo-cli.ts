/**
 * The demo with the real Pulumi CLI: the example primary-replica-key deployed against the local emulator, on a
 * throwaway file backend: the plan, `pulumi up`, the stack outputs (secrets hidden), a resize, an up with nothing to
 * do, destroy, with what the service received after each command. Then, on the same emulator and backend, a preview
 * branch with its DATABASE_URL (demo-branch.ts): pr-preview as the stack pr-42, its plan, `pulumi up`, the connection
 * string with the password hidden, an up with nothing to do, destroy.
 *
 * The emulator runs in this process, so every CLI call is spawned asynchronously: a synchronous spawn would
 * block the event loop and the emulator could not answer the program it is waiting for.
 */
import { spawn } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { Emulator } from "../emulator";
import { NeonClient } from "../client";
import { isExecutable } from "../testing/cli";
import {
  BRANCH_EXAMPLE,
  BRANCH_LINES,
  BRANCH_STACK,
  branchGone,
  maskPassword,
  PR_URL,
  secondUpNote,
  weekAhead,
} from "./demo-branch";

const REPO_ROOT = path.resolve(__dirname, "../..");
export const EXAMPLE = "primary-replica-key";
const EXAMPLE_DIR = path.join(REPO_ROOT, "examples", EXAMPLE);
const STACK = "neon-demo";
const BRANCH_EXAMPLE_DIR = path.join(REPO_ROOT, "examples", BRANCH_EXAMPLE);

/** The `pulumi` executable on `searchPath`, if any. */
export function findPulumi(searchPath = process.env.PATH ?? ""): string | undefined {
  const names = process.platform === "win32" ? ["pulumi.exe", "pulumi.cmd"] : ["pulumi"];
  for (const dir of searchPath.split(path.delimiter).filter(Boolean)) {
    for (const name of names) {
      const candidate = path.join(dir, name);
      if (isExecutable(candidate)) return candidate;
    }
  }
  return undefined;
}

function progress(line: string): void {
  process.stdout.write(`demo: ${line}\n`);
}

/**
 * Runs the CLI in the example's directory (`cwd`, default primary-replica-key's); resolves with its stdout (also shown
 * unless captured). A CLI that exits before its stdin is closed makes the write fail (EPIPE): that is no crash, and it
 * fails the command only when the CLI was to read something there (the API key), since then it did not.
 */
function pulumi(
  cli: string,
  env: NodeJS.ProcessEnv,
  args: string[],
  options: { input?: string; capture?: boolean; cwd?: string } = {},
) {
  const command = `pulumi ${args.slice(0, 2).join(" ")}`;
  return new Promise<string>((resolve, reject) => {
    const child = spawn(cli, args, {
      cwd: options.cwd ?? EXAMPLE_DIR,
      env,
      stdio: ["pipe", options.capture ? "pipe" : "inherit", "inherit"],
    });
    let stdout = "";
    let unread = false;
    child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stdin?.on("error", () => (unread = true));
    child.on("error", reject);
    child.on("close", (code) => {
      if (code !== 0) reject(new Error(`${command} exited with ${code}`));
      else if (unread && options.input)
        reject(new Error(`${command} exited without reading its input (it closed its stdin first)`));
      else resolve(stdout);
    });
    child.stdin?.end(options.input ?? "");
  });
}

/**
 * The CLI's environment: the CLI's directory first on PATH (its plugins are beside it), a local file backend in
 * `backendDir` with its own PULUMI_HOME, a fixed passphrase, no update check, no plugin download, non-interactive, and
 * no ambient Neon settings.
 */
function cliEnv(cli: string, backendDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    PATH: [path.dirname(cli), process.env.PATH ?? ""].join(path.delimiter),
    PULUMI_BACKEND_URL: `file://${backendDir}`,
    PULUMI_HOME: path.join(backendDir, ".pulumi-home"),
    PULUMI_CONFIG_PASSPHRASE: "neon-demo-passphrase",
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_OPTION_NON_INTERACTIVE: "true",
  };
  delete env.NEON_API_KEY;
  delete env.NEON_API_HOST;
  return env;
}

/** The emulator's organization, which holds the demo's project: the example's CI key is limited to that project. */
export const DEMO_ORG = "org-demo-quiet-river-20260101";

/** A branch of the emulator's default world without a primary compute yet. */
export async function demoBranch(emulator: Emulator): Promise<string> {
  const client = new NeonClient({ apiKey: emulator.apiKey, apiUrl: emulator.baseUrl });
  const branches = await client.branches.list(emulator.projectId);
  const branch = branches.find((b) => b.name === "dev") ?? branches[branches.length - 1];
  return branch.id;
}

async function configure(run: (args: string[], input?: string) => Promise<string>, emulator: Emulator): Promise<void> {
  await run(["config", "set", "neon:apiUrl", emulator.baseUrl]);
  await run(["config", "set", "--secret", "neon:apiKey"], emulator.apiKey); // from stdin: never in a process list
  await run(["config", "set", "projectId", emulator.projectId]);
  await run(["config", "set", "branchId", await demoBranch(emulator)]);
  await run(["config", "set", "orgId", DEMO_ORG]);
}

/** What the service received during a command, the same line after every command of either demo. */
export function requestSummary(requests: readonly { method: string; path: string }[]): string {
  const changes = requests.filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path}`);
  const reads = requests.length - changes.length;
  if (requests.length === 0) return "requests sent: none";
  return `requests sent: ${changes.length} change${changes.length === 1 ? "" : "s"}${changes.length > 0 ? ` (${changes.join(", ")})` : ""}, ${reads} read${reads === 1 ? "" : "s"}`;
}

/**
 * The story the local demo tells, with the real CLI: the plan, the up, the outputs (the key hidden), a resize the
 * preview warns about and that is one PATCH, an up that changes nothing and sends nothing, destroy; then the stack is
 * removed whatever happened.
 */
async function deploy(cli: string, emulator: Emulator, backendDir: string): Promise<void> {
  const env = cliEnv(cli, backendDir);
  const run = (args: string[], input?: string) => pulumi(cli, env, args, { input });
  const narrate = async (line: string, args: string[]) => {
    progress(`$ pulumi ${args.join(" ")}${line ? `   (${line})` : ""}`);
    const mark = emulator.requests.length;
    await run(args);
    progress(requestSummary(emulator.requests.slice(mark)));
  };
  progress(`creating stack ${STACK} on the file backend ${backendDir}`);
  await run(["stack", "init", STACK]);
  try {
    await configure(run, emulator);
    await narrate("what up would do; nothing is sent to the service", ["preview"]);
    await narrate("a primary compute, a read replica and a CI API key limited to the project", [
      "up",
      "--yes",
      "--skip-preview",
    ]);
    const outputs = await pulumi(cli, env, ["stack", "output", "--json"], { capture: true });
    progress(`stack outputs (secrets hidden):\n${stackOutputs(outputs)}`);
    progress("$ pulumi config set primaryMaxCu 4   (the program resizes the primary: max 2 -> 4 CU)");
    await run(["config", "set", "primaryMaxCu", "4"]);
    await narrate("the preview warns that the primary restarts", ["preview", "--diff"]);
    await narrate("", ["up", "--yes", "--skip-preview"]);
    await narrate("again: nothing to do", ["up", "--yes"]);
  } finally {
    await narrate("", ["destroy", "--yes", "--skip-preview"]).catch((error) =>
      progress(`destroy failed: ${error.message}`),
    );
    await run(["stack", "rm", "--yes"]).catch((error) => progress(`stack rm failed: ${error.message}`));
    fs.rmSync(path.join(EXAMPLE_DIR, `Pulumi.${STACK}.yaml`), { force: true });
  }
}

/**
 * The second chapter: a preview branch with its DATABASE_URL (demo-branch.ts), the stack pr-42 of pr-preview on the
 * same backend; then the stack is removed, and its config file with it, whatever happened. The connection string is
 * read with `--show-secrets` (captured, never shown) and printed with its password hidden.
 */
async function previewBranch(cli: string, emulator: Emulator, backendDir: string): Promise<void> {
  const env = cliEnv(cli, backendDir);
  const cwd = BRANCH_EXAMPLE_DIR;
  const run = (args: string[], input?: string) => pulumi(cli, env, args, { input, cwd });
  const narrate = async (line: string, args: string[]) => {
    progress(`$ pulumi ${args.join(" ")}   (${line})`);
    const mark = emulator.requests.length;
    await run(args);
    const sent = emulator.requests.slice(mark);
    progress(requestSummary(sent));
    return sent;
  };
  progress(BRANCH_LINES.intro);
  await run(["stack", "init", BRANCH_STACK]);
  try {
    await run(["config", "set", "neon:apiUrl", emulator.baseUrl]);
    await run(["config", "set", "--secret", "neon:apiKey"], emulator.apiKey); // from stdin: never in a process list
    await run(["config", "set", "projectId", emulator.projectId]);
    const expiresAt = weekAhead();
    progress(`$ pulumi config set expiresAt ${expiresAt}   (${BRANCH_LINES.expiresAt})`);
    await run(["config", "set", "expiresAt", expiresAt]);
    progress(`$ pulumi config set prUrl ${PR_URL}   (${BRANCH_LINES.prUrl})`);
    await run(["config", "set", "prUrl", PR_URL]);
    await narrate(BRANCH_LINES.preview, ["preview"]);
    await narrate(BRANCH_LINES.up, ["up", "--yes", "--skip-preview"]);
    progress(`$ pulumi stack output databaseUrl --show-secrets   (${BRANCH_LINES.output})`);
    const url = await pulumi(cli, env, ["stack", "output", "databaseUrl", "--show-secrets"], { capture: true, cwd });
    progress(`DATABASE_URL=${maskPassword(url.trim())}`);
    const note = secondUpNote(await narrate(BRANCH_LINES.again, ["up", "--yes", "--skip-preview"]));
    if (note) progress(note);
  } finally {
    await narrate(BRANCH_LINES.destroy, ["destroy", "--yes", "--skip-preview"]).catch((error) =>
      progress(`destroy failed: ${error.message}`),
    );
    await run(["stack", "rm", "--yes"]).catch((error) => progress(`stack rm failed: ${error.message}`));
    fs.rmSync(path.join(BRANCH_EXAMPLE_DIR, `Pulumi.${BRANCH_STACK}.yaml`), { force: true });
  }
  progress(await branchGone(emulator));
}

/** `pulumi stack output --json`'s answer, checked: a CLI that printed no outputs did not deploy the example. */
function stackOutputs(json: string): string {
  let outputs: unknown;
  try {
    outputs = JSON.parse(json);
  } catch {
    outputs = undefined;
  }
  if (typeof outputs !== "object" || outputs === null || Object.keys(outputs).length === 0) {
    throw new Error(`pulumi stack output --json printed no outputs of the example: ${JSON.stringify(json.trim())}`);
  }
  return JSON.stringify(outputs, null, 2);
}

/** Runs the demo with the CLI found at `cli` against `emulator`. */
export async function runWithCli(cli: string, emulator: Emulator): Promise<void> {
  const backendDir = fs.mkdtempSync(path.join(os.tmpdir(), "neon-demo-"));
  try {
    progress(`the example ${EXAMPLE} through the Pulumi CLI ${cli}`);
    progress(`against the emulator at ${emulator.baseUrl}, project ${emulator.projectId}`);
    await deploy(cli, emulator, backendDir);
    await previewBranch(cli, emulator, backendDir);
  } finally {
    fs.rmSync(backendDir, { recursive: true, force: true });
  }
}
