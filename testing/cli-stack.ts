/**
 * A stack driven by the real Pulumi CLI through its Automation API, with the same commands and results as the local
 * engine's `LocalStack`: the program is an inline program (served from this process, `LocalWorkspace`), the state
 * is a file backend in a directory of its own, secrets are encrypted with a passphrase, and nothing reaches the
 * network. What a command did is read from the engine's event stream (`onEvent`), not from its display.
 *
 * `up`, `refresh` and `destroy` run a preview first and then the command with `--skip-preview`, as the CLI's
 * `pulumi up` does in one process; the preview's steps are in `result.preview`, as with `LocalStack`.
 */
import { execFile } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { promisify } from "util";
import type * as automation from "@pulumi/pulumi/automation";
import { ConfigInput } from "./config";
import { Diagnostic } from "./diagnostics";
import { Program } from "./program";
import type { Command, CommandOptions, CommandResult, LocalStackOptions } from "./stack";
import { inputDiff } from "./diff";
import { StepOp, StepRecord } from "./steps";
import { nameOf, typeOf } from "./urn";
import { SIG_KEY, UNKNOWN } from "./values";

const execFileAsync = promisify(execFile);

/** A file backend's secrets are encrypted with this passphrase (a test's state holds no real credentials). */
export const CLI_TEST_PASSPHRASE = "pulumi-neon-dynamic-tests";

export interface CliStackOptions extends LocalStackOptions {
  /** The CLI's install root: `<root>/bin/pulumi` runs, with the plugins beside it. */
  cliRoot: string;
  /** Where the backend, PULUMI_HOME and the workspace live; default: a new directory under the OS's temp dir. */
  workDir?: string;
}

type Events = automation.EngineEvent[];

export class CliStack {
  readonly project: string;
  readonly stack: string;
  program: Program;
  readonly workDir: string;
  private readonly config = new Map<string, ConfigInput>();
  private pendingConfig: Record<string, ConfigInput | undefined> = {};
  private workspace?: Promise<automation.Stack>;
  private aborter?: AbortController;
  /** The engine's events of the last command (its preview's apart), as the Automation API gave them: for debugging. */
  lastEvents?: { preview?: automation.EngineEvent[]; events: automation.EngineEvent[] };

  constructor(private readonly options: CliStackOptions) {
    this.project = options.project ?? "project";
    this.stack = options.stack ?? "dev";
    this.program = options.program;
    this.workDir = options.workDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "neon-cli-stack-"));
    for (const [key, value] of Object.entries(options.config ?? {})) this.config.set(key, value);
    this.pendingConfig = { ...(options.config ?? {}) };
  }

  /** `pulumi config set` / `rm` (undefined removes). */
  setConfig(changes: Record<string, ConfigInput | undefined>): void {
    for (const [key, value] of Object.entries(changes)) {
      if (value === undefined) this.config.delete(key);
      else this.config.set(key, value);
      this.pendingConfig[key] = value;
    }
  }

  preview(options: CommandOptions = {}): Promise<CommandResult> {
    return this.command("preview", options);
  }

  up(options: CommandOptions = {}): Promise<CommandResult> {
    return this.command("up", options);
  }

  refresh(options: CommandOptions = {}): Promise<CommandResult> {
    return this.command("refresh", options);
  }

  destroy(options: CommandOptions = {}): Promise<CommandResult> {
    return this.command("destroy", options);
  }

  /** Cancels the running command as Ctrl-C does (SIGINT to the CLI). */
  async interrupt(): Promise<void> {
    this.aborter?.abort();
  }

  /** `pulumi stack rm --force` and the removal of the stack's directory (backend, PULUMI_HOME, workspace). */
  async dispose(): Promise<void> {
    if (this.workspace) {
      const stack = await this.workspace.catch(() => undefined);
      await stack?.workspace.removeStack(this.stack, { force: true }).catch(() => undefined);
    }
    if (!this.options.workDir) fs.rmSync(this.workDir, { recursive: true, force: true });
  }

  /** `pulumi stack export` (without --show-secrets): the state as the backend keeps it, every secret encrypted. */
  async exportState(): Promise<string> {
    // Not the Automation API's exportStack(): it runs `pulumi stack export --show-secrets`, which decrypts them.
    const stack = await this.automationStack();
    const result = await execFileAsync(
      path.join(this.options.cliRoot, "bin", "pulumi"),
      ["stack", "export", "--stack", this.stack, "--non-interactive"],
      { cwd: stack.workspace.workDir, env: this.env, maxBuffer: 256 * 1024 * 1024 },
    );
    return JSON.stringify((JSON.parse(result.stdout) as { deployment: unknown }).deployment);
  }

  /** `pulumi stack import` of a deployment (`exportState()`'s form: secrets encrypted with this stack's passphrase). */
  async importState(deployment: string): Promise<void> {
    const stack = await this.automationStack();
    const file = path.join(this.workDir, "import.json");
    fs.writeFileSync(file, JSON.stringify({ version: 3, deployment: JSON.parse(deployment) }));
    await execFileAsync(
      path.join(this.options.cliRoot, "bin", "pulumi"),
      ["stack", "import", "--stack", this.stack, "--file", file, "--non-interactive"],
      { cwd: stack.workspace.workDir, env: this.env },
    );
    fs.rmSync(file, { force: true });
  }

  /** `pulumi stack output` (`--show-secrets` with showSecrets). */
  async outputs(options: { showSecrets?: boolean } = {}): Promise<Record<string, unknown>> {
    const stack = await this.automationStack();
    return present(await stack.outputs(), options.showSecrets ?? false);
  }

  /** The URN of the resource named `name` in state (the one `--replace` wants). */
  async urnOf(name: string): Promise<string> {
    const state = JSON.parse(await this.exportState()) as { resources?: { urn: string; delete?: boolean }[] };
    const matches = (state.resources ?? []).filter((r) => nameOf(r.urn) === name && !r.delete);
    if (matches.length !== 1)
      throw new Error(`${matches.length} resources named "${name}" in the state of ${this.stack}`);
    return matches[0].urn;
  }

  /** The environment every CLI call gets: a file backend, a passphrase, no update check, no plugin download. */
  get env(): Record<string, string> {
    const backend = path.join(this.workDir, "backend");
    fs.mkdirSync(backend, { recursive: true });
    const inherited = Object.fromEntries(
      Object.entries(this.options.env ?? process.env).filter(([, v]) => v !== undefined),
    ) as Record<string, string>;
    return {
      ...inherited,
      PULUMI_BACKEND_URL: `file://${backend}`,
      PULUMI_HOME: path.join(this.workDir, "home"),
      PULUMI_CONFIG_PASSPHRASE: CLI_TEST_PASSPHRASE,
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
    };
  }

  private automationStack(): Promise<automation.Stack> {
    this.workspace ??= this.createWorkspace();
    return this.workspace;
  }

  private async createWorkspace(): Promise<automation.Stack> {
    const { LocalWorkspace, PulumiCommand } = await import("@pulumi/pulumi/automation");
    const pulumiCommand = await PulumiCommand.get({ root: this.options.cliRoot });
    const workspaceDir = path.join(this.workDir, "workspace");
    fs.mkdirSync(workspaceDir, { recursive: true });
    return LocalWorkspace.createOrSelectStack(
      {
        projectName: this.project,
        stackName: this.stack,
        program: async () => (await this.program()) as Record<string, unknown> | void,
      },
      {
        pulumiCommand,
        workDir: workspaceDir,
        envVars: this.env,
        // The program's directory: the dynamic provider's plugin starts there and resolves its code from it.
        projectSettings: { name: this.project, runtime: "nodejs", main: this.options.cwd ?? process.cwd() },
      },
    );
  }

  /** Applies `pulumi config set/rm` made since the last command, as the CLI's config files would hold them. */
  private async syncConfig(stack: automation.Stack): Promise<void> {
    const changes = this.pendingConfig;
    this.pendingConfig = {};
    const set: automation.ConfigMap = {};
    const removed: string[] = [];
    for (const [key, value] of Object.entries(changes)) {
      if (value === undefined) removed.push(key);
      else set[key] = configValue(value);
    }
    if (Object.keys(set).length > 0) await stack.setAllConfig(set);
    if (removed.length > 0) await stack.removeAllConfig(removed);
  }

  private async command(command: Command, options: CommandOptions): Promise<CommandResult> {
    const stack = await this.automationStack();
    await this.syncConfig(stack);
    const log = this.options.requestLog?.requests;
    const mark = log?.length ?? 0;
    let preview: Run | undefined;
    if (command !== "preview" && !options.skipPreview) {
      preview = await this.run(stack, command, true, options);
      this.lastEvents = { events: preview.events };
      if (preview.error) return this.result(command, preview, undefined, log, mark);
    }
    const last =
      command === "preview"
        ? await this.run(stack, command, true, options)
        : await this.run(stack, command, false, options);
    this.lastEvents = { ...(preview ? { preview: preview.events } : {}), events: last.events };
    return this.result(command, last, preview, log, mark);
  }

  private async run(stack: automation.Stack, command: Command, dryRun: boolean, options: CommandOptions): Promise<Run> {
    const events: Events = [];
    const output: string[] = [];
    this.aborter = new AbortController();
    const common = {
      onEvent: (event: automation.EngineEvent) => events.push(event),
      onOutput: (text: string) => output.push(text),
      signal: this.aborter.signal,
      ...(this.options.parallel ? { parallel: this.options.parallel } : {}),
    };
    try {
      if (command === "up" || command === "preview") {
        const replace = await Promise.all(
          (options.replace ?? []).map((t) => (t.startsWith("urn:") ? t : this.urnOf(t))),
        );
        if (dryRun) await stack.preview({ ...common, replace, diff: true });
        else await stack.up({ ...common, replace });
      } else if (command === "refresh") {
        if (dryRun) await stack.previewRefresh(common);
        else await stack.refresh(common);
      } else if (dryRun) await stack.previewDestroy({ ...common, runProgram: options.runProgram });
      else await stack.destroy({ ...common, runProgram: options.runProgram });
      return { dryRun, events, output: output.join("") };
    } catch (error) {
      const failure = error instanceof Error ? error : new Error(String(error));
      return { dryRun, events, output: output.join(""), error: failure };
    } finally {
      this.aborter = undefined;
    }
  }

  private async result(
    command: Command,
    last: Run,
    preview: Run | undefined,
    log: readonly unknown[] | undefined,
    mark: number,
  ): Promise<CommandResult> {
    const diagnostics = diagnosticsOf(last.events);
    return {
      command,
      // An `up` whose preview failed ends with that preview: its steps are read as a preview's.
      steps: stepsOf(last.events, last.dryRun, command === "refresh"),
      diagnostics,
      warnings: diagnostics.filter((d) => d.severity === "warning").map((d) => d.message),
      outputs: command === "preview" ? previewOutputs(last.events) : await this.outputs(),
      ...(last.error ? { error: last.error } : {}),
      interrupted: false,
      ...(preview
        ? {
            preview: {
              steps: stepsOf(preview.events, true, command === "refresh"),
              diagnostics: diagnosticsOf(preview.events),
            },
          }
        : {}),
      requests: log ? log.slice(mark) : [],
    };
  }
}

interface Run {
  /** A preview (`--dry-run`). */
  dryRun: boolean;
  events: Events;
  output: string;
  error?: Error;
}

function configValue(value: ConfigInput): automation.ConfigValue {
  const text = (v: unknown) => (typeof v === "string" ? v : JSON.stringify(v));
  if (typeof value === "object" && value !== null && "secret" in value)
    return { value: text((value as { secret: unknown }).secret), secret: true };
  return { value: text(value) };
}

/**
 * The steps of a deployment from its events: a preview's from `resourcePreEvent` (what it would do), an update's
 * from `resOutputsEvent` (done) and `resOpFailedEvent` (failed), each with the op, the blamed keys and the diffs.
 *
 * A refresh's, in a preview too, from `resOutputsEvent`: its `resourcePreEvent` says only `refresh`, and the outputs
 * event carries what the read found as the op (pkg/engine/update.go OnResourceStepPost: `s.ResultOp()`, same, update
 * or delete, in updateActions and previewActions alike), which `LocalStack` reports as op `refresh` with `found`.
 */
export function stepsOf(events: Events, preview: boolean, refresh = false): StepRecord[] {
  const steps: StepRecord[] = [];
  for (const event of events) {
    const done = preview && !refresh ? event.resourcePreEvent : event.resOutputsEvent;
    const failed = preview ? undefined : event.resOpFailedEvent;
    const metadata = done?.metadata ?? failed?.metadata;
    if (!metadata) continue;
    const found = refresh && !failed ? (metadata.op as StepRecord["found"]) : undefined;
    steps.push({
      op: refresh ? "refresh" : (metadata.op as StepOp),
      urn: metadata.urn,
      name: nameOf(metadata.urn),
      type: typeOf(metadata.urn),
      ...(metadata.keys && metadata.keys.length > 0 ? { keys: metadata.keys } : {}),
      ...(metadata.op === "update" && !refresh ? { diffs: diffsOf(metadata) } : {}),
      ...(found ? { found } : {}),
      ...(failed ? { error: "failed" } : {}),
    });
  }
  return steps;
}

/**
 * An update's changed inputs, as the CLI's display lists them (`[diff: …]`, pkg/backend/display/rows.go getDiffInfo):
 * the provider's changed keys (`metadata.diffs`, DiffResponse.diffs) filter the engine's comparison of the old and new
 * inputs, internal keys (`__provider`) left out. A dynamic provider reports no changed keys, so for this package's
 * resources the list is the comparison of the inputs, which is what `LocalStack` records (step-generator.ts
 * inputDiff). Secret inputs arrive as "[secret]" in events: a change between two secret values is not seen here.
 */
function diffsOf(metadata: automation.StepEventMetadata): string[] {
  const compared = inputDiff(metadata.old?.inputs ?? {}, metadata.new?.inputs ?? {}).filter((k) => !k.startsWith("__"));
  const include = metadata.diffs ?? [];
  return include.length > 0 ? compared.filter((key) => include.includes(key)) : compared;
}

/**
 * The engine's and the plugins' messages, as the CLI shows them under Diagnostics. A plugin's stderr reaches the
 * engine as `info#err` lines with no URN (plugin.go newPlugin); a `warning: …` line among them is the provider's
 * warning, counted as one, as `LocalStack` counts it (Diagnostics.addPluginOutput).
 */
export function diagnosticsOf(events: Events): Diagnostic[] {
  const list: Diagnostic[] = [];
  for (const { diagnosticEvent: d } of events) {
    // Debug messages (the SDK's "Registering resource" log) are in the stream, but the CLI shows them only with
    // --debug (pkg/backend/display/progress.go: `payload.Severity == diag.Debug && !display.opts.Debug`).
    if (!d || d.ephemeral || (d.severity as string) === "debug") continue;
    for (const line of d.message.split("\n").map((l) => l.trim())) {
      if (!line) continue;
      const warning = /^warning:\s*(.*)$/i.exec(line);
      const severity = d.severity === "error" ? "error" : d.severity === "warning" || warning ? "warning" : "info";
      list.push({ severity, message: warning ? warning[1] : line, ...(d.urn ? { urn: d.urn } : {}) });
    }
  }
  return list;
}

/**
 * A preview's stack outputs: what the program registered, as `LocalStack` gives them (secrets "[secret]", values not
 * known yet "[unknown]"). The root stack has two outputs events in a preview: its step's first (previewActions
 * OnResourceStepPost reports every step, the root's `same` with the outputs the state has), then the one of the
 * program's RegisterResourceOutputs (step_executor.go ExecuteRegisterResourceOutputs), which is the one read; a program
 * that registered none leaves {}.
 */
function previewOutputs(events: Events): Record<string, unknown> {
  const root = events
    .map((event) => event.resOutputsEvent?.metadata)
    .filter((metadata) => metadata !== undefined && typeOf(metadata.urn) === "pulumi:pulumi:Stack");
  const registered = root.length > 1 ? root[root.length - 1] : undefined;
  return shown(registered?.new?.outputs ?? {}) as Record<string, unknown>;
}

/** The engine's JSON of a value: a secret is an object with the signature key (its value elided), an unknown a string. */
function shown(value: unknown): unknown {
  if (value === UNKNOWN) return "[unknown]";
  if (Array.isArray(value)) return value.map(shown);
  if (typeof value === "object" && value !== null) {
    if (SIG_KEY in value) return "[secret]";
    return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, shown(v)]));
  }
  return value;
}

/** Output values as `pulumi stack output` shows them. */
function present(outputs: automation.OutputMap, showSecrets: boolean): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(outputs).map(([key, { value, secret }]) => [key, secret && !showSecrets ? "[secret]" : value]),
  );
}
