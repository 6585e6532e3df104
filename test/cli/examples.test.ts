/**
 * Every example under examples/ with a Pulumi.yaml, run through the REAL Pulumi CLI (`npm run pulumi:install` builds
 * it into .pulumi-cli/bin) exactly as its README tells a user: `pulumi stack init`, `pulumi config set`, `pulumi
 * preview`, `pulumi up`, the example's documented change with `pulumi preview --diff` and `pulumi up`, `pulumi
 * refresh`, `pulumi destroy`, `pulumi stack rm`, each a `pulumi` process in the example's own directory, against an
 * emulator of Neon's API started here (so the CLI is spawned asynchronously: a synchronous spawn would block the
 * emulator that must answer it).
 *
 * What it asserts, for each example:
 * - a preview sends no request of any kind (the provider's check and diff are offline);
 * - the first `up` sends exactly the creates; a second `up` reports only "unchanged" and sends no write (and, as
 *   the README promises, no request at all: the engine's Diff is answered offline, nothing is read);
 * - after every `up`, `pulumi preview` shows no change (no request) and `pulumi refresh --yes` shows no change
 *   (only GETs: a refresh reads each resource, once in its preview and once in the refresh) and no restart warning.
 *   After the first `up`, the preview is the second `up`'s own (all unchanged, no request); the checks' refreshes
 *   skip their preview, and the README's `pulumi refresh` step runs in full;
 * - the documented change: `pulumi preview --diff` shows the changed property and the provider's restart warning
 *   where a running compute restarts (and none where it does not), then `pulumi up` sends exactly the documented
 *   writes (one PATCH for a resize or a branch move; a POST then a DELETE for a key rotation);
 * - the example's own claims: `maxConnections` follows the minimum size only (autoscaling); a moved compute keeps
 *   its id and host, and a move onto a branch with a primary fails naming both and changes nothing (branch-move);
 *   the revealed CI key is limited to the project, and a rotation revokes the old key (primary-replica-key);
 * - `pulumi destroy` leaves the emulator without any compute, key or project of the stack, and revokes the keys
 *   (project-from-scratch makes its project, and its destroy deletes it);
 * - the emulator's API key and every created key's secret appear in no CLI output (but the one the user asks for
 *   with `pulumi stack output <name> --show-secrets`), nor in `pulumi stack export`, the backend's files or the
 *   stack's config file;
 * - the README's `sh` block lists exactly the `pulumi` commands run here (placeholders for the emulator's values,
 *   `--yes` added, since the CLI runs non-interactively), and every line of the README's `text` blocks (quoted CLI
 *   output) is printed, in order, by one of these commands (ids, the stack name and durations normalized).
 *
 * The stack name is unique to the run (its config file, Pulumi.<stack>.yaml, is written into the example's
 * directory); `pulumi stack rm` removes it, in a `finally` with --force when the test failed before its own step.
 * EXAMPLES_CLI_TRANSCRIPTS=<dir> writes each example's commands and outputs there (to copy into a README).
 */
import { spawn } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { Emulator, EmulatorOptions, RequestLogEntry, startEmulator } from "../../emulator";
import { NeonClient } from "../../client";
import { findPulumiCli } from "../../testing/cli";
import { examplesOf } from "../examples/runtimes";

const REPO_ROOT = path.resolve(__dirname, "../../..");
const EXAMPLES_DIR = path.join(REPO_ROOT, "examples");
const CLI_ROOT = findPulumiCli();
const PASSPHRASE = "examples-cli-test-passphrase";
/** One CLI command's limit: a hung command fails the test instead of eating the suite's timeout. */
const COMMAND_TIMEOUT_MS = 240_000;
/**
 * One example's limit (the suite's is 10 minutes): the examples run side by side, and on a shared two-core machine
 * under load each command waits on the others. Measured with six examples at a load average of about 12: every
 * command succeeded, a `pulumi preview` took 65 to 160 s, and five of the six took more than 10 minutes.
 */
const EXAMPLE_TIMEOUT_MS = 1_200_000;

/** The TypeScript examples a user can `pulumi up` (the YAML ones run in native-yaml*.test.ts). */
const EXAMPLES = examplesOf("nodejs");

interface Run {
  /** The command as run (after `pulumi`). */
  args: string[];
  code: number | null;
  stdout: string;
  stderr: string;
  /** stdout and stderr interleaved as they arrived: what a user sees in a terminal. */
  output: string;
  /** The emulator's requests during the command. */
  requests: RequestLogEntry[];
  ms: number;
  /** Prints a secret on purpose (`--show-secrets`): left out of the secrets check. */
  reveals: boolean;
}

interface RunOptions {
  /** A step of the README (compared with its `sh` block); false for the test's own checks. */
  step?: boolean;
  /** The command may fail (exit code not 0). */
  mayFail?: boolean;
  reveals?: boolean;
}

/** "METHOD /path" of a command's requests that change something (everything but GET). */
function writes(run: Run): string[] {
  return run.requests.filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path}`);
}

/** The lines of each "Resources:" summary of a command's text output (a preview's, then the update's), trimmed. */
function summaries(run: Run): string[][] {
  const blocks: string[][] = [];
  const lines = run.stdout.split("\n");
  lines.forEach((line, i) => {
    if (line.trim() !== "Resources:") return;
    const block: string[] = [];
    // The CLI's progress lines ("@ previewing update....", printed while a slow step runs) may land in the block.
    for (let j = i + 1; j < lines.length && lines[j].trim() !== ""; j++) {
      if (!lines[j].trim().startsWith("@ ")) block.push(lines[j].trim());
    }
    blocks.push(block);
  });
  return blocks;
}

/** The provider's warning for a change that restarts a running compute (provider/compute/refusal.ts connectionWarning). */
function restartWarning(name: string, id: string, change: string): string {
  return `warning: Compute "${name}" (${id}) will restart if it is running: ${change}; its open connections will drop.`;
}

/** The CLI's environment: nothing of the developer's Pulumi or Neon settings, a backend and home of the test's. */
function cliEnv(workDir: string): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!key.startsWith("NEON_") && !key.startsWith("PULUMI_")) env[key] = value;
  }
  return {
    ...env,
    PULUMI_BACKEND_URL: `file://${path.join(workDir, "state")}`,
    PULUMI_HOME: path.join(workDir, "home"),
    PULUMI_CONFIG_PASSPHRASE: PASSPHRASE,
    PULUMI_SKIP_UPDATE_CHECK: "true",
    PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    PULUMI_OPTION_NON_INTERACTIVE: "true",
    PATH: [path.join(CLI_ROOT!, "bin"), process.env.PATH].filter(Boolean).join(path.delimiter),
  };
}

/** Every file under dir, recursively. */
function filesUnder(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

/** The fenced blocks of a markdown text with the given info string. */
function fencedBlocks(markdown: string, info: string): string[] {
  const blocks: string[] = [];
  const pattern = /^```([^\n]*)\n([\s\S]*?)^```/gm;
  for (let match = pattern.exec(markdown); match; match = pattern.exec(markdown)) {
    if (match[1].trim() === info) blocks.push(match[2]);
  }
  return blocks;
}

/**
 * One example's stack, driven through the CLI in the example's directory against its own emulator. Commands are
 * recorded, with the emulator's requests during each, for the README and secrets checks at the end.
 */
class ExampleRun {
  readonly dir: string;
  readonly stack = `t${process.pid}-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
  readonly workDir: string;
  readonly runs: Run[] = [];
  /** The README's view of each step: the command with the emulator's values as the README's placeholders. */
  readonly steps: string[] = [];
  /** Secret values that must never appear in plain text. */
  readonly secrets = new Set<string>();
  /** Value → the README's placeholder for it. */
  private readonly placeholders = new Map<string, string>();
  /** Value → how the README's quoted output writes it (an id the run made, such as a new project's). */
  private readonly quotedAs = new Map<string, string>();
  private readonly env: NodeJS.ProcessEnv;
  private stackRemoved = false;
  api: NeonClient;
  /**
   * Requests the program itself sends (a data source such as getRolePasswordOutput reads on every preview and up):
   * left out of the "no request" checks, which are about the provider's check, diff and read.
   */
  programReads?: RegExp;

  constructor(
    readonly example: string,
    readonly emulator: Emulator,
  ) {
    this.dir = path.join(EXAMPLES_DIR, example);
    this.workDir = fs.mkdtempSync(path.join(os.tmpdir(), `neon-example-cli-${example}-`));
    fs.mkdirSync(path.join(this.workDir, "state"));
    fs.mkdirSync(path.join(this.workDir, "home"));
    this.env = cliEnv(this.workDir);
    this.api = new NeonClient({ apiKey: emulator.apiKey, apiUrl: emulator.baseUrl, rateLimit: false });
    this.secrets.add(emulator.apiKey);
    this.placeholder(emulator.apiKey, "<your Neon API key>");
    this.placeholder(emulator.baseUrl, "<API base URL>");
    this.placeholder(this.stack, "dev");
  }

  /** The README writes `placeholder` where this run has `value`. */
  placeholder(value: string, placeholder: string): void {
    this.placeholders.set(value, placeholder);
  }

  /** The README's quoted output writes `shown` where this run printed `value`. */
  quoteAs(value: string, shown: string): void {
    this.quotedAs.set(value, shown);
  }

  /** `pulumi <args>` in the example's directory; throws with the output when it fails (unless mayFail). */
  async pulumi(args: string[], options: RunOptions = {}): Promise<Run> {
    const { step = true, mayFail = false, reveals = false } = options;
    if (step) {
      const readme = args.filter((arg) => arg !== "--yes").map((arg) => this.placeholders.get(arg) ?? arg);
      this.steps.push(["pulumi", ...readme].join(" "));
    }
    const firstRequest = this.emulator.requests.length;
    const started = Date.now();
    const child = spawn(path.join(CLI_ROOT!, "bin", "pulumi"), args, {
      cwd: this.dir,
      env: this.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      stdout += chunk;
      output += chunk;
    });
    child.stderr.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      output += chunk;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), COMMAND_TIMEOUT_MS);
    const code = await new Promise<number | null>((resolve, reject) => {
      child.on("error", reject);
      child.on("close", (exitCode) => resolve(exitCode));
    }).finally(() => clearTimeout(timer));
    const run: Run = {
      args,
      code,
      stdout,
      stderr,
      output,
      requests: this.emulator.requests.slice(firstRequest),
      ms: Date.now() - started,
      reveals,
    };
    this.runs.push(run);
    if (code !== 0 && !mayFail) {
      throw new Error(`pulumi ${args.join(" ")} (in examples/${this.example}) exited with ${code}:\n${output}`);
    }
    return run;
  }

  /** "METHOD /path" of a command's requests, the program's own reads (`programReads`) apart. */
  providerRequests(run: Run): string[] {
    return run.requests
      .map((r) => `${r.method} ${r.path}`)
      .filter((request) => !(this.programReads?.test(request) ?? false));
  }

  async configSet(
    key: string,
    value: string,
    placeholder?: string,
    options: { secret?: boolean; step?: boolean } = {},
  ) {
    if (placeholder) this.placeholder(value, placeholder);
    await this.pulumi(["config", "set", ...(options.secret ? ["--secret"] : []), key, value], { step: options.step });
  }

  /** `pulumi stack output --json` (secrets as "[secret]"). */
  async outputs(): Promise<Record<string, unknown>> {
    return JSON.parse((await this.pulumi(["stack", "output", "--json"], { step: false })).stdout);
  }

  /** `pulumi stack output <name> --show-secrets`: the secret, which joins those that must not appear elsewhere. */
  async revealSecret(name: string): Promise<string> {
    const run = await this.pulumi(["stack", "output", name, "--show-secrets"], { reveals: true });
    const value = run.stdout.trim();
    expect(value).toMatch(/^\S{16,}$/);
    this.secrets.add(value);
    return value;
  }

  /**
   * What must hold after every `up`: `pulumi preview` plans nothing and sends no request at all; `pulumi refresh`
   * finds nothing changed, warns of no restart and only reads (each resource once in the refresh's preview and once
   * in the refresh). The checks' refresh skips its preview (`--skip-preview`: the same reads again); the README's own
   * `pulumi refresh` step, when `readmeRefresh`, runs in full, as a user runs it. `preview: false` when the command
   * just before was a `pulumi up` that changed nothing: its own preview was that check.
   */
  async expectNoChange(resources: number, options: { readmeRefresh?: boolean; preview?: boolean } = {}) {
    const { readmeRefresh = false, preview = true } = options;
    const unchanged = [`${resources + 1} unchanged`]; // the program's resources and the stack
    if (preview) await this.expectNoPlannedChange(resources);
    const refresh = readmeRefresh
      ? await this.pulumi(["refresh", "--yes"])
      : await this.pulumi(["refresh", "--yes", "--skip-preview"], { step: false });
    expect(summaries(refresh)).toEqual(readmeRefresh ? [unchanged, unchanged] : [unchanged]);
    expect(refresh.output).not.toContain("will restart");
    expect(writes(refresh)).toEqual([]);
    expect(refresh.requests.length).toBeGreaterThan(0);
  }

  /** `pulumi preview --json`: every step "same", and no request at all. */
  async expectNoPlannedChange(resources: number): Promise<void> {
    const preview = await this.pulumi(["preview", "--json"], { step: false });
    const plan = JSON.parse(preview.stdout) as { steps: { op: string }[]; changeSummary: object };
    expect(plan.steps.map((s) => s.op)).toEqual(plan.steps.map(() => "same"));
    expect(plan.changeSummary).toEqual({ same: resources + 1 });
    expect(this.providerRequests(preview)).toEqual([]);
  }

  /**
   * The stack's first deployment: `pulumi preview` (creates planned, no request), `pulumi up` (exactly the expected
   * writes, in any order), a second `pulumi up` (nothing changes, no request), then the no-change checks.
   */
  async firstUp(resources: number, creates: string[]): Promise<Run> {
    const preview = await this.pulumi(["preview"]);
    expect(summaries(preview)).toEqual([[`+ ${resources + 1} to create`]]);
    expect(this.providerRequests(preview)).toEqual([]);
    const up = await this.pulumi(["up", "--yes"]);
    expect(summaries(up)).toEqual([[`+ ${resources + 1} to create`], [`+ ${resources + 1} created`]]);
    expect(writes(up).sort()).toEqual([...creates].sort());
    await this.secondUp(resources);
    await this.expectNoChange(resources, { preview: false });
    return up;
  }

  /** A second `pulumi up` right after one: "unchanged" only, and no request at all (none written, none read). */
  async secondUp(resources: number): Promise<void> {
    const again = await this.pulumi(["up", "--yes"]);
    expect(summaries(again)).toEqual([[`${resources + 1} unchanged`], [`${resources + 1} unchanged`]]);
    expect(again.output).not.toContain("to update");
    expect(writes(again)).toEqual([]);
    // Measured: the second up sends no GET either (the diff is offline; the README says "sends no request").
    expect(this.providerRequests(again)).toEqual([]);
  }

  /**
   * A documented change: `pulumi config set`, `pulumi preview --diff` (shows `diffLines` and exactly `warnings`,
   * sends nothing), `pulumi up` (sends exactly `expectedWrites`, in order), then the no-change checks.
   */
  async change(
    set: [key: string, value: string, placeholder?: string],
    expected: {
      resources: number;
      summary: string[];
      diffLines: string[];
      warnings: string[];
      writes: string[];
      /** The README's `pulumi refresh` follows this change. */
      readmeRefresh?: boolean;
    },
  ): Promise<Run> {
    await this.configSet(...set);
    const preview = await this.pulumi(["preview", "--diff"]);
    expect(this.providerRequests(preview)).toEqual([]);
    expect(summaries(preview)).toEqual([expected.summary]);
    const diff = squeeze(preview.stdout);
    for (const line of expected.diffLines) expect(diff).toContain(squeeze(line));
    const shown = preview.output.split("\n").filter((line) => line.includes("will restart"));
    expect(shown.map((line) => line.trim())).toEqual(expected.warnings);
    const up = await this.pulumi(["up", "--yes"]);
    expect(writes(up)).toEqual(expected.writes);
    for (const warning of expected.warnings) expect(up.output).toContain(warning);
    if (expected.warnings.length === 0) expect(up.output).not.toContain("will restart");
    await this.expectNoChange(expected.resources, { readmeRefresh: expected.readmeRefresh });
    return up;
  }

  /** `pulumi destroy`, then `pulumi stack rm`: every resource deleted, the stack and its config file gone. */
  async destroy(resources: number): Promise<Run> {
    const destroy = await this.pulumi(["destroy", "--yes"]);
    expect(summaries(destroy)).toEqual([[`- ${resources + 1} to delete`], [`- ${resources + 1} deleted`]]);
    await this.pulumi(["stack", "rm", "--yes", this.stack]);
    this.stackRemoved = true;
    expect(fs.existsSync(path.join(this.dir, `Pulumi.${this.stack}.yaml`))).toBe(false);
    return destroy;
  }

  /** No secret in any output but a --show-secrets one, in `pulumi stack export`, the backend or the config file. */
  async expectNoSecretShown(exported: string): Promise<void> {
    const places: [string, string][] = [
      ...this.runs
        .filter((run) => !run.reveals)
        .map((run): [string, string] => [`pulumi ${run.args.join(" ")}`, run.output]),
      ["pulumi stack export", exported],
      ...filesUnder(path.join(this.workDir, "state")).map((file): [string, string] => [
        file,
        fs.readFileSync(file, "utf8"),
      ]),
    ];
    const configFile = path.join(this.dir, `Pulumi.${this.stack}.yaml`);
    if (fs.existsSync(configFile)) places.push([configFile, fs.readFileSync(configFile, "utf8")]);
    for (const secret of this.secrets) {
      const leaks = places.filter(([, text]) => text.includes(secret)).map(([where]) => where);
      expect({ secret: `${secret.slice(0, 4)}…`, leaks }).toEqual({ secret: `${secret.slice(0, 4)}…`, leaks: [] });
    }
  }

  /** The README's steps are the commands run here; its quoted output is what the CLI printed. */
  expectReadmeTrue(): void {
    const readme = fs.readFileSync(path.join(this.dir, "README.md"), "utf8");
    const commands = fencedBlocks(readme, "sh")
      .flatMap((block) => block.split("\n"))
      .map((line) => line.replace(/\s+#.*$/, "").trim())
      .filter((line) => line.startsWith("pulumi "));
    expect(commands).toEqual(this.steps);
    const quotes = fencedBlocks(readme, "text");
    expect(quotes.length).toBeGreaterThan(0);
    for (const quote of quotes) {
      const lines = this.normalize(quote)
        .split("\n")
        .filter((line) => line.trim() !== "" && line.trim() !== "...");
      const printed = this.runs.some((run) => this.printed(run, lines));
      expect({ quote: lines, printed }).toEqual({ quote: lines, printed: true });
    }
  }

  /**
   * Whether the command printed `lines`, in order within each of its streams: a warning of the provider goes to
   * stderr in `pulumi preview --diff`, and its place among stdout's lines depends on when each pipe was read.
   */
  private printed(run: Run, lines: string[]): boolean {
    const stdout = this.normalize(run.stdout).split("\n");
    const stderr = this.normalize(run.stderr).split("\n");
    const onStdout = lines.filter((line) => stdout.includes(line));
    const onStderr = lines.filter((line) => !stdout.includes(line));
    return containsInOrder(stdout, onStdout) && containsInOrder(stderr, onStderr);
  }

  /**
   * Output as the README may quote it: trailing spaces cut, ids, this run's stack name, the values of `quoteAs` and
   * durations made fixed.
   */
  normalize(text: string): string {
    return text
      .split("\n")
      .map((line) =>
        [...this.quotedAs]
          .reduce((shown, [value, as]) => shown.split(value).join(as), line)
          .replace(/\s+$/, "")
          .split(this.stack)
          .join("dev")
          .replace(/\bep-[a-z]+-[a-z]+-\d+\b/g, "ep-…")
          .replace(/\bbr-[a-z]+-[a-z]+-\d+\b/g, "br-…")
          .replace(/\(\d+(\.\d+)?s\)/g, "(…s)")
          .replace(/Duration: \d+s/g, "Duration: …s"),
      )
      .join("\n");
  }

  /** Writes the transcript (commands, outputs, requests) where EXAMPLES_CLI_TRANSCRIPTS says. */
  writeTranscript(): void {
    const dir = process.env.EXAMPLES_CLI_TRANSCRIPTS;
    if (!dir) return;
    fs.mkdirSync(dir, { recursive: true });
    const text = this.runs
      .map((run) =>
        [
          `$ pulumi ${run.args.map((arg) => this.placeholders.get(arg) ?? arg).join(" ")}   # exit ${run.code}, ${run.ms} ms`,
          this.normalize(run.output),
          `# requests: ${run.requests.map((r) => `${r.method} ${r.path} ${r.status}`).join("; ") || "none"}`,
          "",
        ].join("\n"),
      )
      .join("\n");
    fs.writeFileSync(path.join(dir, `${this.example}.txt`), text);
  }

  /** Removes the stack even when the test stopped before its own `pulumi stack rm`, and the test's directory. */
  async cleanUp(): Promise<void> {
    this.writeTranscript();
    try {
      if (!this.stackRemoved) await this.pulumi(["stack", "rm", "--yes", "--force", this.stack], { step: false });
    } finally {
      fs.rmSync(this.workDir, { recursive: true, force: true });
    }
  }
}

/** Runs of spaces as one: the CLI pads property names to the longest of the resource's. */
function squeeze(text: string): string {
  return text.replace(/ +/g, " ");
}

/** Whether `lines` appear in `output`, in order (each line whole). */
function containsInOrder(output: string[], lines: string[]): boolean {
  let at = 0;
  for (const line of lines) {
    while (at < output.length && output[at] !== line) at++;
    if (at === output.length) return false;
    at++;
  }
  return true;
}

/** Runs `scenario` for an example against a new emulator; cleans up the stack whatever happens. */
async function withExample(
  example: string,
  emulatorOptions: EmulatorOptions,
  scenario: (x: ExampleRun) => Promise<void>,
): Promise<void> {
  if (!CLI_ROOT) throw new Error("The Pulumi CLI is not installed: run npm run pulumi:install");
  const emulator = await startEmulator({ operationDurationMs: 20, ...emulatorOptions });
  const x = new ExampleRun(example, emulator);
  try {
    await scenario(x);
  } finally {
    try {
      await x.cleanUp();
    } finally {
      await emulator.close();
    }
  }
}

/** `pulumi stack init` and the config every example takes: the key (secret), the emulator's URL, the project. */
async function init(x: ExampleRun): Promise<void> {
  await x.pulumi(["stack", "init", x.stack]);
  await x.configSet("neon:apiKey", x.emulator.apiKey, undefined, { secret: true });
  await x.configSet("neon:apiUrl", x.emulator.baseUrl);
  await x.configSet("projectId", x.emulator.projectId, "<project id>");
}

/**
 * Ids of the account's projects, of the emulator's project's computes and of the account's (or organization's) keys:
 * what destroy must bring back (an example that makes a project must leave none behind).
 */
async function inventory(
  x: ExampleRun,
  orgId?: string,
): Promise<{ projects: string[]; computes: string[]; keys: number[] }> {
  const projects = (await x.api.projects.listAll(orgId ? { org_id: orgId } : undefined)).map((p) => p.id).sort();
  const computes = (await x.api.endpoints.list(x.emulator.projectId)).map((c) => c.id).sort();
  const keys = (orgId ? await x.api.orgApiKeys.list(orgId) : await x.api.apiKeys.list()).map((k) => k.id).sort();
  return { projects, computes, keys };
}

/** `pulumi stack export`, with the check that the named resources' `key` output is encrypted. */
async function exportState(x: ExampleRun, keyResources: string[]): Promise<string> {
  const exported = (await x.pulumi(["stack", "export"], { step: false })).stdout;
  const resources = JSON.parse(exported).deployment.resources as { urn: string; outputs?: Record<string, unknown> }[];
  for (const name of keyResources) {
    const key = resources.find((r) => r.urn.endsWith(`::${name}`))?.outputs?.key as Record<string, string>;
    expect(key).toMatchObject({ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" });
    expect(typeof key.ciphertext).toBe("string");
  }
  return exported;
}

/** The status the emulator answers a GET of `route` with `key`. */
async function statusWith(x: ExampleRun, key: string, route: string): Promise<number> {
  return (await fetch(`${x.emulator.baseUrl}${route}`, { headers: { Authorization: `Bearer ${key}` } })).status;
}

// The examples run side by side (it.concurrent; jest's maxConcurrency is 5: at most five at once): each command is a
// chain of processes (the CLI, the language host and the program, the provider's plugin) that waits on the others for
// much of its time, so several chains keep the two cores busy where one leaves them idle; each example has its own
// emulator, backend and PULUMI_HOME, and its own directory.
describe("the examples through the real Pulumi CLI, as their READMEs tell a user", () => {
  it("the Pulumi CLI is installed (npm run pulumi:install), and every example is covered here", () => {
    if (!CLI_ROOT) throw new Error("The Pulumi CLI is not installed: run npm run pulumi:install");
    expect(EXAMPLES).toEqual([
      "autoscaling",
      "branch-move",
      "pr-preview",
      "primary-replica-key",
      "project-from-scratch",
      "testing-your-program",
    ]);
    // YAML programs through the native plugin: test/cli/native-yaml-project.test.ts and native-yaml.test.ts run them.
    expect(examplesOf("yaml")).toEqual(["project-from-scratch-yaml", "yaml-native"]);
  });

  it.concurrent(
    "autoscaling: create, resize maxCu 2 -> 4 (restart warning, one PATCH), refresh, destroy",
    () =>
      withExample("autoscaling", {}, async (x) => {
        const { projectId } = x.emulator;
        const before = await inventory(x);
        await init(x);
        await x.configSet("branchId", x.emulator.branches.dev, "<branch id>");
        await x.firstUp(1, [`POST /projects/${projectId}/endpoints`]);
        const created = await x.outputs();
        expect(created).toMatchObject({ minCu: 0.25, maxCu: 2, maxConnections: 112 });
        const id = String(created.host).split(".")[0];
        expect(id).toMatch(/^ep-/);

        await x.change(["maxCu", "4"], {
          resources: 1,
          summary: ["~ 1 to update", "1 unchanged"],
          diffLines: ["~ autoscalingLimitMaxCu: 2 => 4"],
          warnings: [restartWarning("app", id, "autoscalingLimitMaxCu 2 -> 4")],
          writes: [`PATCH /projects/${projectId}/endpoints/${id}`],
          readmeRefresh: true,
        });
        // maxConnections follows the minimum size only.
        expect(await x.outputs()).toMatchObject({ minCu: 0.25, maxCu: 4, maxConnections: 112, host: created.host });
        const compute = await x.api.endpoints.get(projectId, id);
        expect([compute.autoscaling_limit_min_cu, compute.autoscaling_limit_max_cu]).toEqual([0.25, 4]);

        const exported = await exportState(x, []);
        await x.destroy(1);
        expect(await inventory(x)).toEqual(before);
        await x.expectNoSecretShown(exported);
        x.expectReadmeTrue();
      }),
    EXAMPLE_TIMEOUT_MS,
  );

  it.concurrent(
    "branch-move: on dev, moved to staging (warning, one PATCH, same id), onto main refused, destroy",
    () =>
      withExample("branch-move", {}, async (x) => {
        const { projectId, branches } = x.emulator;
        const before = await inventory(x);
        await init(x);
        await x.configSet("branchId", branches.dev, "<branch id>");
        await x.firstUp(1, [`POST /projects/${projectId}/endpoints`]);
        const created = await x.outputs();
        const id = String(created.computeId);
        expect(created).toMatchObject({ branchId: branches.dev, host: `${id}.us-east-2.aws.neon.tech` });

        await x.change(["branchId", branches.staging, "<another branch id>"], {
          resources: 1,
          summary: ["~ 1 to update", "1 unchanged"],
          diffLines: [`~ branchId             : "${branches.dev}" => "${branches.staging}"`],
          warnings: [restartWarning("db", id, "branchId")],
          writes: [`PATCH /projects/${projectId}/endpoints/${id}`],
          readmeRefresh: true,
        });
        const moved = await x.outputs();
        expect(moved).toEqual({ ...created, branchId: branches.staging });
        expect((await x.api.endpoints.get(projectId, id)).branch_id).toBe(branches.staging);

        // The README: moving onto a branch that has a primary compute (main, in the emulator's world) fails with a
        // message naming that branch and the compute there, and nothing changes.
        const [occupant] = (await x.api.endpoints.listForBranch(projectId, branches.main)).map((c) => c.id);
        await x.configSet("branchId", branches.main, undefined, { step: false });
        const refused = await x.pulumi(["up", "--yes", "--skip-preview"], { step: false, mayFail: true });
        expect(refused.code).not.toBe(0);
        expect(refused.output).toContain(branches.main);
        expect(refused.output).toContain(occupant);
        expect((await x.api.endpoints.get(projectId, id)).branch_id).toBe(branches.staging);
        // The failed update left the state as it was (its display lists the stack's outputs as deleted: a failed
        // program never registers its outputs, but the state keeps the old ones).
        expect(await x.outputs()).toEqual(moved);
        await x.configSet("branchId", branches.staging, undefined, { step: false });

        const exported = await exportState(x, []);
        await x.destroy(1);
        expect(await inventory(x)).toEqual(before);
        await x.expectNoSecretShown(exported);
        x.expectReadmeTrue();
      }),
    EXAMPLE_TIMEOUT_MS,
  );

  it.concurrent(
    "pr-preview: a pull request's branch, compute and database, its DATABASE_URL, expiry moved, destroy",
    () =>
      withExample("pr-preview", {}, async (x) => {
        const { projectId } = x.emulator;
        const branchesBefore = (await x.api.branches.list(projectId)).map((b) => b.id).sort();
        // The program reads the inherited owner role's password (getRolePasswordOutput) on every preview and up.
        x.programReads = /^GET \/projects\/[^/]+\/branches\/[^/]+\/roles\/neondb_owner\/reveal_password$/;
        x.placeholder(x.stack, "pr-42");
        await init(x);
        const rfc3339 = (days: number) =>
          new Date(Date.now() + days * 86_400_000).toISOString().replace(/\.\d{3}Z$/, "Z");
        await x.configSet("expiresAt", rfc3339(7), `"$(date -u -d '+7 days' +%Y-%m-%dT%H:%M:%SZ)"`);
        await x.configSet("prUrl", "https://github.com/acme/app/pull/42");

        const preview = await x.pulumi(["preview"]);
        expect(summaries(preview)).toEqual([["+ 4 to create"]]);
        expect(preview.requests).toEqual([]); // the branch is unknown at preview: nothing to read yet
        const up = await x.pulumi(["up", "--yes"]);
        expect(summaries(up)).toEqual([["+ 4 to create"], ["+ 4 created"]]);
        const made = writes(up);
        expect(made).toHaveLength(3);
        expect(made).toEqual(
          expect.arrayContaining([
            `POST /projects/${projectId}/branches`,
            `POST /projects/${projectId}/endpoints`,
            expect.stringMatching(new RegExp(`^POST /projects/${projectId}/branches/br-[a-z0-9-]+/databases$`)),
          ]),
        );
        await x.secondUp(3);
        await x.expectNoChange(3, { preview: false });

        const created = await x.outputs();
        expect(created).toMatchObject({ branchName: x.stack, databaseUrl: "[secret]", databaseUrlPooled: "[secret]" });
        const branchId = String(created.branchId);
        const url = new URL(await x.revealSecret("databaseUrl"));
        expect([url.username, url.host, url.pathname, url.search]).toEqual([
          "neondb_owner",
          String(created.host),
          "/app",
          "?sslmode=require",
        ]);
        const password = await x.api.roles.revealPassword(projectId, branchId, "neondb_owner");
        expect(decodeURIComponent(url.password)).toBe(password);
        x.secrets.add(password);
        const branch = (await x.api.branches.get(projectId, branchId)).branch;
        expect(branch).toMatchObject({ name: x.stack });
        expect(branch.expires_at).toBeDefined();

        await x.change(["expiresAt", rfc3339(8), `"$(date -u -d '+8 days' +%Y-%m-%dT%H:%M:%SZ)"`], {
          resources: 3,
          summary: ["~ 1 to update", "3 unchanged"],
          diffLines: ["~ expiresAt"],
          warnings: [],
          writes: [`PATCH /projects/${projectId}/branches/${branchId}`],
          readmeRefresh: true,
        });

        const exported = await exportState(x, []);
        await x.destroy(3);
        expect((await x.api.branches.list(projectId)).map((b) => b.id).sort()).toEqual(branchesBefore);
        expect((await x.api.endpoints.list(projectId)).filter((e) => e.branch_id === branchId)).toEqual([]);
        await x.expectNoSecretShown(exported);
        x.expectReadmeTrue();
      }),
    EXAMPLE_TIMEOUT_MS,
  );

  const ORG = "org-example-cli-12345678";
  it.concurrent(
    "primary-replica-key: stack output, resize the primary (warning, PATCH), rotate the key, destroy",
    () =>
      withExample("primary-replica-key", { organization: ORG }, async (x) => {
        const { projectId, branches } = x.emulator;
        const before = await inventory(x, ORG);
        await init(x);
        await x.configSet("branchId", branches.dev, "<branch id>");
        await x.configSet("orgId", ORG, "<org id>");
        await x.firstUp(3, [
          `POST /projects/${projectId}/endpoints`,
          `POST /projects/${projectId}/endpoints`,
          `POST /organizations/${ORG}/api_keys`,
        ]);
        const listed = await x.pulumi(["stack", "output"]);
        expect(listed.stdout).toMatch(/^ {4}ciApiKey +\[secret\]$/m);
        const key = await x.revealSecret("ciApiKey");
        const created = await x.outputs();
        expect(created).toMatchObject({ ciApiKey: "[secret]", ciKeyProjectId: projectId, maxConnections: 225 });
        const primaryId = String(created.primaryHost).split(".")[0];
        // The revealed key is the one the service made, limited to the project.
        expect(await statusWith(x, key, `/projects/${projectId}/endpoints`)).toBe(200);
        expect(await statusWith(x, key, "/projects")).toBe(403);

        await x.change(["primaryMaxCu", "4"], {
          resources: 3,
          summary: ["~ 1 to update", "3 unchanged"],
          diffLines: ["~ autoscalingLimitMaxCu: 2 => 4"],
          warnings: [restartWarning("primary", primaryId, "autoscalingLimitMaxCu 2 -> 4")],
          writes: [`PATCH /projects/${projectId}/endpoints/${primaryId}`],
        });

        const oldKeyId = Number(created.ciKeyId);
        const rotated = await x.change(["ciKeyName", "ci-deploy-2"], {
          resources: 3,
          summary: ["+-1 to replace", "3 unchanged"],
          diffLines: ['~ keyName          : "ci-deploy" => "ci-deploy-2"'],
          warnings: [],
          // The new key first, then the old one revoked.
          writes: [`POST /organizations/${ORG}/api_keys`, `DELETE /organizations/${ORG}/api_keys/${oldKeyId}`],
          readmeRefresh: true,
        });
        expect(summaries(rotated).at(-1)).toEqual(["+-1 replaced", "3 unchanged"]);
        const newKey = await x.revealSecret("ciApiKey");
        expect(newKey).not.toBe(key);
        expect((await x.outputs()).ciKeyId).not.toBe(oldKeyId);
        // The old key is revoked; the new one is limited to the project like the old one was.
        expect(await statusWith(x, key, `/projects/${projectId}/endpoints`)).toBe(401);
        expect(await statusWith(x, newKey, `/projects/${projectId}/endpoints`)).toBe(200);
        expect(await statusWith(x, newKey, "/projects")).toBe(403);

        const exported = await exportState(x, ["ci"]);
        await x.destroy(3);
        expect(await inventory(x, ORG)).toEqual(before);
        expect(await statusWith(x, newKey, `/projects/${projectId}/endpoints`)).toBe(401);
        await x.expectNoSecretShown(exported);
        x.expectReadmeTrue();
      }),
    EXAMPLE_TIMEOUT_MS,
  );

  it.concurrent(
    "project-from-scratch: a project, dev and staging each with a compute, role and database, dev resized, destroy",
    () =>
      withExample("project-from-scratch", {}, async (x) => {
        const before = await inventory(x);
        // No projectId: the example makes its project. Deletion protection off, so that destroy may delete it.
        await x.pulumi(["stack", "init", x.stack]);
        await x.configSet("neon:apiKey", x.emulator.apiKey, undefined, { secret: true });
        await x.configSet("neon:apiUrl", x.emulator.baseUrl);
        await x.configSet("deletionProtection", "false");

        const preview = await x.pulumi(["preview"]);
        expect(summaries(preview)).toEqual([["+ 11 to create"]]);
        expect(preview.requests).toEqual([]);
        const up = await x.pulumi(["up", "--yes"]);
        expect(summaries(up)).toEqual([["+ 11 to create"], ["+ 11 created"]]);
        const created = await x.outputs();
        const projectId = String(created.projectId);
        x.quoteAs(projectId, "<project id>");
        expect(await inventory(x)).toEqual({ ...before, projects: [...before.projects, projectId].sort() });
        const env = { dev: String(created.devBranchId), staging: String(created.stagingBranchId) };
        const onProject = `/projects/${projectId}`;
        expect(writes(up).sort()).toEqual(
          [
            "POST /projects",
            ...[`${onProject}/branches`, `${onProject}/endpoints`].flatMap((route) => [
              `POST ${route}`,
              `POST ${route}`,
            ]),
            ...Object.values(env).flatMap((id) => [
              `POST ${onProject}/branches/${id}/roles`,
              `POST ${onProject}/branches/${id}/databases`,
            ]),
          ].sort(),
        );
        // The default branch (main) is adopted: no POST makes it.
        await x.secondUp(10);
        await x.expectNoChange(10, { preview: false });

        // Each environment: a branch of the default branch, named after it, with one read-write compute, and a
        // connection string that reaches its database as its own role, with that role's password.
        const computes: Record<string, string> = {};
        for (const [name, branchId] of Object.entries(env)) {
          const { branch } = await x.api.branches.get(projectId, branchId);
          expect(branch).toMatchObject({ name, parent_id: created.defaultBranchId });
          const onBranch = await x.api.endpoints.listForBranch(projectId, branchId);
          expect(onBranch.map((c) => [c.type, c.autoscaling_limit_min_cu, c.autoscaling_limit_max_cu])).toEqual([
            ["read_write", 0.25, 1],
          ]);
          computes[name] = onBranch[0].id;
          x.secrets.add(await x.api.roles.revealPassword(projectId, branchId, "app"));
        }
        x.secrets.add(await x.api.roles.revealPassword(projectId, String(created.defaultBranchId), "neondb_owner"));
        expect(created).toMatchObject({ devDatabaseUrl: "[secret]", mainDatabaseUrl: "[secret]" });
        const url = new URL(await x.revealSecret("devDatabaseUrl"));
        expect([url.username, url.host, url.pathname, url.search]).toEqual([
          "app",
          (await x.api.endpoints.get(projectId, computes.dev)).host,
          "/app",
          "?sslmode=require",
        ]);
        expect(decodeURIComponent(url.password)).toBe(await x.api.roles.revealPassword(projectId, env.dev, "app"));

        // The documented change updates a compute, not the project: the branches' parentId stays known in the preview.
        await x.change(["devMaxCu", "2"], {
          resources: 10,
          summary: ["~ 1 to update", "10 unchanged"],
          diffLines: ["~ autoscalingLimitMaxCu: 1 => 2"],
          warnings: [restartWarning("dev", computes.dev, "autoscalingLimitMaxCu 1 -> 2")],
          writes: [`PATCH ${onProject}/endpoints/${computes.dev}`],
          readmeRefresh: true,
        });

        const exported = await exportState(x, []);
        const destroy = await x.destroy(10);
        expect(writes(destroy).at(-1)).toBe(`DELETE ${onProject}`);
        expect(writes(destroy)).not.toContain(`DELETE ${onProject}/branches/${created.defaultBranchId}`);
        expect(await inventory(x)).toEqual(before);
        await x.expectNoSecretShown(exported);
        x.expectReadmeTrue();
      }),
    EXAMPLE_TIMEOUT_MS,
  );

  it.concurrent(
    "testing-your-program: create, primaryCu 1 -> 2 (warning, one PATCH), refresh, destroy",
    () =>
      withExample("testing-your-program", {}, async (x) => {
        const { projectId, branches } = x.emulator;
        const before = await inventory(x);
        await init(x);
        await x.configSet("branchId", branches.dev, "<branch id>");
        await x.firstUp(3, [
          `POST /projects/${projectId}/endpoints`,
          `POST /projects/${projectId}/endpoints`,
          "POST /api_keys",
        ]);
        const listed = await x.pulumi(["stack", "output"]);
        expect(listed.stdout).toMatch(/^ {4}deployKey +\[secret\]$/m);
        const deployKey = await x.revealSecret("deployKey");
        expect(await statusWith(x, deployKey, "/projects")).toBe(200);
        const created = await x.outputs();
        const primaryId = String(created.primaryHost).split(".")[0];

        await x.change(["primaryCu", "2"], {
          resources: 3,
          summary: ["~ 1 to update", "3 unchanged"],
          diffLines: ["~ autoscalingLimitMaxCu: 1 => 2", "~ autoscalingLimitMinCu: 1 => 2"],
          warnings: [
            restartWarning("primary", primaryId, "autoscalingLimitMinCu 1 -> 2, autoscalingLimitMaxCu 1 -> 2"),
          ],
          writes: [`PATCH /projects/${projectId}/endpoints/${primaryId}`],
          readmeRefresh: true,
        });

        const exported = await exportState(x, ["deploy"]);
        await x.destroy(3);
        expect(await inventory(x)).toEqual(before);
        expect(await statusWith(x, deployKey, "/projects")).toBe(401);
        await x.expectNoSecretShown(exported);
        x.expectReadmeTrue();
      }),
    EXAMPLE_TIMEOUT_MS,
  );
});
