/**
 * Secrets through the real Pulumi CLI: neither the provider's credential (the emulator's console key, set as the
 * secret `neon:apiKey`) nor an `ApiKey`'s secret (its `key` output, and the rotated one's) appears in plain text in
 * `pulumi stack export`, in what the CLI printed for any command, in its verbose logs, or in any file under
 * PULUMI_HOME, the file backend or the workspace; and the same program through the model of the engine
 * (`LocalStack`) for comparison.
 *
 * - The Automation API (`CliStack`, inline program): up, the no-change check, a rotation (a new keyName), the
 *   no-change check, destroy. What the CLI printed is captured by a subclass that keeps each run's output.
 * - The CLI spawned on a `Pulumi.yaml` program (directory inside the repository): `up --logtostderr -v=9 --logflow`
 *   (the engine's and the plugins' logs on stderr), `refresh -v=9 --logflow` (glog's log files, written to TMPDIR,
 *   pointed at a directory of the test), a rotation `up -v=2` and `destroy -v=2`; every output and file scanned.
 *
 * Found (none of it the provider's doing): at -v=3 and above the Node.js SDK's debug line of a RegisterResource answer
 * holds the ApiKey's secret; at -v=7 the engine's planner line holds the provider's config (neon:apiKey); at -v=9 the
 * engine's RPC marshaling lines hold both. The Automation API's event stream carries that SDK debug line too (shown
 * by the CLI only with --debug). `CliStack.exportState()` holds none.
 */
import { spawn } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { Emulator, startEmulator } from "../../emulator";
import { ApiKey, Compute } from "../../provider";
import { CommandResult, LocalStack, Program } from "../../testing";
import { CliStack, CliStackOptions } from "../../testing/cli-stack";
import { cliRootOrThrow } from "./cli-world";

const REPO_ROOT = path.resolve(__dirname, "../../..");

let emulator: Emulator;
let cliRoot: string;

beforeAll(async () => {
  cliRoot = cliRootOrThrow();
  emulator = await startEmulator({ operationDurationMs: 20, rateLimit: false });
});
afterAll(() => emulator?.close());

interface Haystack {
  where: string;
  text: string;
}

/** "where: which secret" for every secret found in plain text. */
function leaks(haystacks: Haystack[], secrets: Map<string, string>): string[] {
  const found: string[] = [];
  for (const { where, text } of haystacks)
    for (const [secret, name] of secrets) if (text.includes(secret)) found.push(`${where}: ${name}`);
  return found;
}

/** Every regular file under `root`, as a haystack each. */
function filesUnder(root: string, label: string): Haystack[] {
  const out: Haystack[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const file = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(file);
      else if (entry.isFile()) out.push({ where: `${label}/${path.relative(root, file)}`, text: readText(file) });
    }
  };
  if (fs.existsSync(root)) walk(root);
  return out;
}

/** A file's text; a gzipped file (the backend's history may be) is searched both raw and unzipped. */
function readText(file: string): string {
  const bytes = fs.readFileSync(file);
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) return require("zlib").gunzipSync(bytes).toString("utf8");
  return bytes.toString("utf8");
}

/** What a command's result shows: diagnostics (its preview's too), steps' errors, outputs, its error. */
function resultTexts(result: CommandResult, label: string): Haystack[] {
  const diagnostics = [...result.diagnostics, ...(result.preview?.diagnostics ?? [])];
  const out = [
    { where: `${label} diagnostics`, text: diagnostics.map((d) => d.message).join("\n") },
    { where: `${label} steps`, text: JSON.stringify(result.steps) },
    { where: `${label} outputs`, text: JSON.stringify(result.outputs) },
  ];
  if (result.error) out.push({ where: `${label} error`, text: `${result.error.message}\n${result.error.stack}` });
  return out;
}

interface Run {
  events: unknown[];
  output: string;
  error?: Error;
}

/** A CliStack that keeps what the CLI printed (stdout, through `onOutput`) and the events of every run. */
class TranscribedCliStack extends CliStack {
  readonly transcripts: { output: string; events: string; error?: string }[] = [];

  constructor(options: CliStackOptions) {
    super(options);
    const self = this as unknown as { run: (...args: unknown[]) => Promise<Run> };
    const run = self.run.bind(this);
    self.run = async (...args: unknown[]) => {
      const result = await run(...args);
      this.transcripts.push({
        output: result.output,
        events: JSON.stringify(result.events),
        error: result.error ? `${result.error.message}\n${result.error.stack}` : undefined,
      });
      return result;
    };
  }
}

/** A key and a replica; `declared.keyName` changes to rotate the key. */
function keyAndReplica(declared: { keyName: string }): Program {
  return () => {
    const key = new ApiKey("ci", { keyName: declared.keyName });
    const replica = new Compute("replica", {
      projectId: emulator.projectId,
      branchId: emulator.branches.staging,
      type: "read_only",
    });
    return { key: key.key, id: replica.id };
  };
}

function ok(result: CommandResult): CommandResult {
  if (result.error) throw result.error;
  return result;
}

interface Commands {
  preview(): Promise<CommandResult>;
  up(): Promise<CommandResult>;
  refresh(): Promise<CommandResult>;
  destroy(): Promise<CommandResult>;
  outputs(options?: { showSecrets?: boolean }): Record<string, unknown> | Promise<Record<string, unknown>>;
}

/**
 * up, the no-change check, a rotation, the no-change check, destroy (`after` runs after each command); returns every
 * result and the keys created (read with showSecrets).
 */
async function lifecycle(stack: Commands, declared: { keyName: string }, after?: () => Promise<void>) {
  const results: CommandResult[] = [];
  const keys: string[] = [];
  const run = async (command: () => Promise<CommandResult>) => {
    const result = ok(await command());
    results.push(result);
    await after?.();
    return result;
  };
  const noChange = async () => {
    const preview = await run(() => stack.preview());
    expect(preview.steps.filter((s) => s.op !== "same")).toEqual([]);
    expect(preview.requests).toEqual([]);
    const refresh = await run(() => stack.refresh());
    expect(refresh.steps.map((s) => (s.op === "refresh" ? s.found : s.op)).filter((o) => o !== "same")).toEqual([]);
  };
  await run(() => stack.up());
  keys.push(String((await stack.outputs({ showSecrets: true })).key));
  expect((await stack.outputs()).key).toBe("[secret]");
  await noChange();
  declared.keyName = "ci-secrets-2";
  await run(() => stack.up());
  keys.push(String((await stack.outputs({ showSecrets: true })).key));
  await noChange();
  await run(() => stack.destroy());
  expect(new Set(keys).size).toBe(2);
  for (const key of keys) expect(key.length).toBeGreaterThan(20);
  return { results, keys };
}

/** The lines holding a secret, as "where | the line" with each secret replaced by its name. */
function leakingLines(haystacks: Haystack[], secrets: Map<string, string>): string[] {
  const lines: string[] = [];
  for (const { where, text } of haystacks)
    for (const line of text.split("\n")) {
      let shown = line;
      for (const [secret, name] of secrets) shown = shown.split(secret).join(`<${name}>`);
      if (shown !== line) lines.push(`${where} | ${shown}`);
    }
  return lines;
}

/** `pulumi stack export` (without --show-secrets), as a user or a backend sees the state of a CliStack's stack. */
function stackExport(stack: CliStack): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(path.join(cliRoot, "bin", "pulumi"), ["stack", "export", "--stack", stack.stack], {
      cwd: path.join(stack.workDir, "workspace"),
      env: stack.env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (chunk) => (stdout += chunk));
    child.stderr.on("data", (chunk) => (stderr += chunk));
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve(stdout) : reject(new Error(`stack export: ${stderr}`))));
  });
}

function secretsOf(keys: string[]): Map<string, string> {
  return new Map([[emulator.apiKey, "neon:apiKey"], ...keys.map((k, i): [string, string] => [k, `ApiKey key #${i}`])]);
}

describe("no key in plain text", () => {
  it("the real CLI (Automation API): pulumi stack export, every command's output and events, the files it keeps", async () => {
    const declared = { keyName: "ci-secrets-1" };
    const stack = new TranscribedCliStack({
      program: keyAndReplica(declared),
      cliRoot,
      cwd: REPO_ROOT,
      requestLog: emulator,
      env: { ...process.env, NEON_API_KEY: "", NEON_API_HOST: "" },
      config: { "neon:apiKey": { secret: emulator.apiKey }, "neon:apiUrl": emulator.baseUrl },
    });
    try {
      const exports: string[] = [];
      let shown = "";
      const { results, keys } = await lifecycle(stack, declared, async () => {
        exports.push(await stackExport(stack));
        if (exports.length === 1) shown = await stack.exportState(); // after the first up
      });
      const secrets = secretsOf(keys);
      const haystacks: Haystack[] = [
        ...exports.map((text, i) => ({ where: `pulumi stack export #${i}`, text })),
        ...results.flatMap((result, i) => resultTexts(result, `${result.command} #${i}`)),
        ...stack.transcripts.map((t, i) => ({ where: `CLI output #${i}`, text: `${t.output}\n${t.error ?? ""}` })),
        ...filesUnder(stack.workDir, "workDir"),
      ];
      // Every export while the key exists holds it encrypted (the last one, after destroy, holds no resource).
      expect(exports.slice(0, -1).every((text) => text.includes('"ciphertext"'))).toBe(true);
      expect(stack.transcripts.length).toBeGreaterThanOrEqual(results.length);
      expect(haystacks.filter((h) => h.where.startsWith("workDir/home/")).length).toBeGreaterThan(0);
      expect(leaks(haystacks, secrets)).toEqual([]);

      // The engine's event stream (what the Automation API's onEvent gets) holds the ApiKey's
      // secret in one kind of event only: the Node.js SDK's debug message of a RegisterResource answer (runtime/
      // resource.js: "RegisterResource RPC finished: …; resp: …", the outputs with secrets unwrapped), which the CLI
      // prints only with --debug. Never the provider's credential.
      const events = stack.transcripts.flatMap((t, i) =>
        (JSON.parse(t.events) as { diagnosticEvent?: { severity: string; message: string } }[]).map((event) => ({
          where: `run #${i}`,
          event,
          text: JSON.stringify(event),
        })),
      );
      const holding = events.filter(({ text }) => [...secrets.keys()].some((secret) => text.includes(secret)));
      expect(holding.length).toBeGreaterThan(0);
      for (const { event, text } of holding) {
        expect(event.diagnosticEvent?.severity).toBe("debug");
        expect(event.diagnosticEvent?.message).toMatch(/^RegisterResource RPC finished: resource:ci\[/);
        expect(text.includes(emulator.apiKey)).toBe(false);
      }
      expect(events.some(({ text }) => text.includes(emulator.apiKey))).toBe(false);

      // CliStack.exportState() runs `pulumi stack export` without --show-secrets, as LocalStack.exportState() keeps
      // secrets encrypted (it once used the Automation API's exportStack(), which decrypts them).
      expect(leaks([{ where: "exportState()", text: shown }], secrets)).toEqual([]);
    } finally {
      await stack.dispose();
    }
  });

  it("the real CLI spawned with verbose logging: at -v=9 only the engine's and the SDK's own log lines hold keys; at -v=2 none", async () => {
    const root = fs.mkdtempSync(path.join(REPO_ROOT, "test", "cli", ".tmp-secrets-"));
    const program = path.join(root, "program");
    fs.mkdirSync(program);
    fs.mkdirSync(path.join(root, "backend"));
    fs.writeFileSync(
      path.join(program, "Pulumi.yaml"),
      "name: secrets\nruntime:\n  name: nodejs\n  options:\n    typescript: false\nmain: index.js\n",
    );
    fs.writeFileSync(
      path.join(program, "index.js"),
      [
        `const pulumi = require("@pulumi/pulumi");`,
        `const { ApiKey, Compute } = require("pulumi-neon-dynamic");`,
        `const config = new pulumi.Config();`,
        `const key = new ApiKey("ci", { keyName: config.require("keyName") });`,
        `const replica = new Compute("replica", {`,
        `  projectId: config.require("projectId"),`,
        `  branchId: config.require("branchId"),`,
        `  type: "read_only",`,
        `});`,
        `exports.key = key.key;`,
        `exports.id = replica.id;`,
        ``,
      ].join("\n"),
    );
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      PULUMI_BACKEND_URL: `file://${path.join(root, "backend")}`,
      PULUMI_HOME: path.join(root, "home"),
      PULUMI_CONFIG_PASSPHRASE: "pulumi-neon-dynamic-tests",
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      PULUMI_OPTION_NON_INTERACTIVE: "true",
      PATH: `${path.join(cliRoot, "bin")}${path.delimiter}${process.env.PATH ?? ""}`,
      NEON_API_KEY: "",
      NEON_API_HOST: "",
    };
    /** Each command's glog files go to a TMPDIR of its own. */
    const logDir = (label: string) => {
      const dir = path.join(root, "tmp", label);
      fs.mkdirSync(dir, { recursive: true });
      return dir;
    };
    const printed: Haystack[] = [];
    const pulumi = (args: string[], label: string, input?: string): Promise<string> =>
      new Promise((resolve, reject) => {
        const child = spawn(path.join(cliRoot, "bin", "pulumi"), args, {
          cwd: program,
          env: { ...env, TMPDIR: logDir(label) },
          stdio: "pipe",
        });
        let stdout = "";
        let stderr = "";
        child.stdout.on("data", (chunk) => (stdout += chunk));
        child.stderr.on("data", (chunk) => (stderr += chunk));
        child.on("error", reject);
        child.on("close", (code) => {
          printed.push({ where: `${label} stdout`, text: stdout }, { where: `${label} stderr`, text: stderr });
          if (code === 0) resolve(stdout);
          else reject(new Error(`pulumi ${args.join(" ")} exited ${code}:\n${stdout}\n${stderr}`));
        });
        child.stdin.end(input ?? "");
      });
    try {
      await pulumi(["stack", "init", "dev", "--non-interactive"], "init");
      // The key goes in on stdin, as `pulumi config set --secret` reads it when no value is given.
      await pulumi(["config", "set", "--secret", "neon:apiKey"], "config-key", emulator.apiKey);
      await pulumi(["config", "set", "neon:apiUrl", emulator.baseUrl], "config-url");
      await pulumi(["config", "set", "projectId", emulator.projectId], "config-project");
      await pulumi(["config", "set", "branchId", emulator.branches.dev], "config-branch");
      await pulumi(["config", "set", "keyName", "ci-verbose-1"], "config-name-1");

      // An up with the most verbose logging, to stderr and flowed to the plugins.
      await pulumi(
        ["up", "--yes", "--skip-preview", "--non-interactive", "--logtostderr", "-v=9", "--logflow"],
        "up-v9",
      );
      const first = String(JSON.parse(await pulumi(["stack", "output", "--json", "--show-secrets"], "shown")).key);
      printed.splice(-2); // the output shown on request (--show-secrets) is where the key belongs
      const hidden = JSON.parse(await pulumi(["stack", "output", "--json"], "output")) as Record<string, unknown>;
      expect(hidden.key).toBe("[secret]");
      const exported = await pulumi(["stack", "export"], "export");
      expect(exported).toContain('"ciphertext"');
      await pulumi(["preview", "--non-interactive", "--diff"], "preview");
      // A refresh at -v=9 with glog's log files (in its TMPDIR).
      await pulumi(["refresh", "--yes", "--non-interactive", "-v=9", "--logflow"], "refresh-v9");
      // A rotation at -v=2 (log files): the level a user can share.
      await pulumi(["config", "set", "keyName", "ci-verbose-2"], "config-name-2");
      await pulumi(["up", "--yes", "--non-interactive", "-v=2", "--logflow"], "up-v2");
      const second = String(JSON.parse(await pulumi(["stack", "output", "--json", "--show-secrets"], "shown")).key);
      printed.splice(-2);
      expect(second).not.toBe(first);
      await pulumi(["destroy", "--yes", "--non-interactive", "-v=2", "--logflow"], "destroy-v2");

      const secrets = secretsOf([first, second]);
      const verboseUp = printed.find((p) => p.where === "up-v9 stderr")!;
      expect(verboseUp.text.length).toBeGreaterThan(100_000);
      const logFiles = filesUnder(path.join(root, "tmp"), "TMPDIR");
      for (const label of ["refresh-v9", "up-v2", "destroy-v2"])
        expect(logFiles.filter((f) => f.where.startsWith(`TMPDIR/${label}/pulumi.`)).length).toBeGreaterThan(0);
      const haystacks = [
        ...printed,
        ...logFiles,
        ...filesUnder(path.join(root, "home"), "PULUMI_HOME"),
        ...filesUnder(path.join(root, "backend"), "backend"),
        ...filesUnder(program, "program"),
      ];
      const leaking = leakingLines(haystacks, secrets);
      // Only in the -v=9 up's stderr and the -v=9 refresh's log file; each line one of the engine's own (v=9: the
      // properties it marshals to and from the provider's RPCs; v=7: the planner's inputs, the provider's config
      // included) or the Node.js SDK's debug line of a RegisterResource answer (v=3: the outputs, secrets unwrapped).
      expect(leaking.length).toBeGreaterThan(0);
      const where = new Set(leaking.map((line) => line.split(" | ")[0]));
      expect([...where].every((w) => w === "up-v9 stderr" || w.startsWith("TMPDIR/refresh-v9/"))).toBe(true);
      const engineOrSdk =
        /"msg":"(Marshaling property for RPC\[|Unmarshaling property for RPC\[|Planner decided to |(eventSink::Debug\(<\{%reset%\}>)?RegisterResource RPC finished: )/;
      expect(leaking.filter((line) => !engineOrSdk.test(line))).toEqual([]);
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  });

  it("the model (LocalStack): the same lifecycle, nothing in its state, diagnostics, outputs or errors", async () => {
    const declared = { keyName: "ci-secrets-1" };
    const stack = new LocalStack({
      engine: "model",
      program: keyAndReplica(declared),
      cwd: REPO_ROOT,
      stack: "model",
      requestLog: emulator,
      env: { ...process.env, NEON_API_KEY: "", NEON_API_HOST: "" },
      config: { "neon:apiKey": { secret: emulator.apiKey }, "neon:apiUrl": emulator.baseUrl },
    });
    const states: string[] = [];
    const { results, keys } = await lifecycle(stack, declared, async () => {
      states.push(stack.exportState());
    });
    const haystacks: Haystack[] = [
      ...states.map((text, i) => ({ where: `state #${i}`, text })),
      ...results.flatMap((result, i) => resultTexts(result, `${result.command} #${i}`)),
    ];
    expect(leaks(haystacks, secretsOf(keys))).toEqual([]);
  });
});
