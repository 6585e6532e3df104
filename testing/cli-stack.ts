/**
 * A stack driven by the real Pulumi CLI through its Automation API, with the same commands and results as the local
 * engine's `LocalStack`: the program is an inline program (served from this process, `LocalWorkspace`), the state
 * is a file backend in a directory of its own, secrets are encrypted with a passphrase, and nothing reaches the
 * network. What a command did is read from the engine's event stream (`onEvent`), not from its display.
 *
 * `up`, `refresh` and `destroy` run a preview first and then the command with `--skip-preview`, as the CLI's
 * `pulumi up` does in one process; the preview's steps are in `result.preview`, as with `LocalStack`.
 *
 * `new LocalStack({ engine: "cli" })` (or `"auto"` where a CLI is installed) drives one of these with `LocalStack`'s
 * synchronous API: after each command it keeps the state (`state()`) and the export (`exportState()`) read here.
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
import { emptySnapshot, PendingOperation, ResourceState, Snapshot } from "./state";
import { StepOp, StepRecord } from "./steps";
import { nameOf, ROOT_STACK_TYPE, typeOf } from "./urn";
import { isObject, isSecret, Props, SECRET_SIG, SIG_KEY, UNKNOWN, Value } from "./values";

const execFileAsync = promisify(execFile);

/** A file backend's secrets are encrypted with this passphrase (a test's state holds no real credentials). */
export const CLI_TEST_PASSPHRASE = "pulumi-neon-dynamic-tests";

export interface CliStackOptions extends Omit<LocalStackOptions, "engine" | "cliRoot"> {
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
  /** The program's calls that met the engine's closed monitor during the command running now (`answerLateCalls`). */
  private late: string[] = [];
  /** The engine's events of the last command (its preview's apart), as the Automation API gave them: for debugging. */
  lastEvents?: { preview?: automation.EngineEvent[]; events: automation.EngineEvent[] };
  /**
   * The state as the last `up`, `refresh` or `destroy` left it (`state()`, read after the command for its outputs);
   * undefined before the first of them.
   */
  lastState?: Snapshot;

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

  /**
   * Cancels the running command as Ctrl-C does (SIGINT to the CLI): the engine lets the steps under way finish and
   * saves them, starts no other, and the command resolves with `interrupted` set.
   */
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

  /**
   * `pulumi stack output` (`--show-secrets` with showSecrets): the root stack's outputs in the state, a secret (at any
   * depth) as "[secret]", as `LocalStack.outputs()` shows them.
   */
  async outputs(options: { showSecrets?: boolean } = {}): Promise<Record<string, unknown>> {
    return stackOutputs(await this.state(), options.showSecrets ?? false);
  }

  /**
   * The state as `LocalStack.state` has it (testing/state.ts `Snapshot`), read by `pulumi stack export --show-secrets`:
   * each resource with the fields the local engine keeps (the CLI's others, such as `created` or `sourcePosition`,
   * left out, and the ones it omits when empty filled in), every secret as the local engine wraps it, and the pending
   * operations.
   */
  async state(): Promise<Snapshot> {
    const stack = await this.automationStack();
    // The Automation API's exportStack() is `pulumi stack export --show-secrets`: secrets come as plaintext.
    return snapshotOf((await stack.exportStack()).deployment as ExportedDeployment | undefined);
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
        program: async () => {
          await answerLateCalls((call) => this.late.push(call));
          return (await this.program()) as Record<string, unknown> | void;
        },
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
      if (preview.error || preview.interrupted) return this.result(command, preview, undefined, log, mark);
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
    const aborter = new AbortController();
    this.aborter = aborter;
    this.late = [];
    const onStep = this.options.onStep;
    const common = {
      onEvent: (event: automation.EngineEvent) => {
        events.push(event);
        // Progress, as the local engine reports it: each step as its event arrives.
        if (onStep)
          for (const step of stepsOf([event], dryRun, command === "refresh"))
            onStep(step, { command, preview: dryRun });
      },
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
      } else {
        const destroy = { ...common, runProgram: options.runProgram, excludeProtected: options.excludeProtected };
        await (dryRun ? stack.previewDestroy(destroy) : stack.destroy(destroy));
      }
      const lost = this.late.length > 0 && !aborter.signal.aborted ? lateCallsError(this.late) : undefined;
      return { dryRun, events, output: output.join(""), interrupted: aborter.signal.aborted, ...lost };
    } catch (error) {
      const failure = error instanceof Error ? error : new Error(String(error));
      // Interrupted (SIGINT): the CLI fails with "update canceled"; the result says `interrupted`, as the local
      // engine's does, without that error.
      if (aborter.signal.aborted) return { dryRun, events, output: output.join(""), interrupted: true };
      return { dryRun, events, output: output.join(""), error: failure, interrupted: false };
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
    // The state after the command: its outputs are the result's (a preview's are what the program registered).
    if (command !== "preview") this.lastState = await this.state();
    return {
      command,
      // An `up` whose preview failed ends with that preview: its steps are read as a preview's.
      steps: stepsOf(last.events, last.dryRun, command === "refresh"),
      diagnostics,
      warnings: diagnostics.filter((d) => d.severity === "warning").map((d) => d.message),
      outputs:
        command === "preview" ? previewOutputs(last.events) : stackOutputs(this.lastState ?? emptySnapshot(), false),
      ...(last.error ? { error: last.error } : {}),
      interrupted: last.interrupted,
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
  /** Cancelled by `interrupt()`. */
  interrupted: boolean;
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
function stepsOf(events: Events, preview: boolean, refresh = false): StepRecord[] {
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
function diagnosticsOf(events: Events): Diagnostic[] {
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

/** The root stack's outputs in a state, as `pulumi stack output` shows them (a secret as "[secret]"). */
function stackOutputs(state: Snapshot, showSecrets: boolean): Record<string, unknown> {
  const show = (value: Value): unknown => {
    if (isSecret(value)) return showSecrets ? show(value.value) : "[secret]";
    if (Array.isArray(value)) return value.map(show);
    if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, show(v)]));
    return value;
  };
  const root = state.resources.find((resource) => resource.type === ROOT_STACK_TYPE);
  return show(root?.outputs ?? {}) as Record<string, unknown>;
}

/** A resource of `pulumi stack export` (apitype.ResourceV3: fields empty or false are left out). */
interface ExportedResource {
  urn: string;
  type: string;
  custom?: boolean;
  id?: string;
  inputs?: Props;
  outputs?: Props;
  parent?: string;
  provider?: string;
  dependencies?: string[];
  propertyDependencies?: Record<string, string[]>;
  protect?: boolean;
  retainOnDelete?: boolean;
  additionalSecretOutputs?: string[];
  ignoreChanges?: string[];
  replaceOnChanges?: string[];
  replacementTrigger?: Value;
  initErrors?: string[];
  pendingReplacement?: boolean;
  delete?: boolean;
}

/** `pulumi stack export`'s deployment (apitype.DeploymentV3), the parts a `Snapshot` holds. */
interface ExportedDeployment {
  resources?: ExportedResource[];
  pending_operations?: { resource: ExportedResource; type: string }[];
}

/** A deployment exported with `--show-secrets`, as the local engine's `Snapshot`. */
export function snapshotOf(deployment: ExportedDeployment | undefined): Snapshot {
  return {
    resources: (deployment?.resources ?? []).map(resourceStateOf),
    pendingOperations: (deployment?.pending_operations ?? []).map((operation): PendingOperation => ({
      type: operation.type as PendingOperation["type"],
      resource: resourceStateOf(operation.resource),
    })),
  };
}

function resourceStateOf(exported: ExportedResource): ResourceState {
  return {
    urn: exported.urn,
    type: exported.type,
    custom: exported.custom ?? false,
    id: exported.id ?? "",
    inputs: wrapSecrets(exported.inputs ?? {}) as Props,
    outputs: wrapSecrets(exported.outputs ?? {}) as Props,
    ...(exported.parent ? { parent: exported.parent } : {}),
    ...(exported.provider ? { provider: exported.provider } : {}),
    dependencies: exported.dependencies ?? [],
    propertyDependencies: exported.propertyDependencies ?? {},
    protect: exported.protect ?? false,
    retainOnDelete: exported.retainOnDelete ?? false,
    additionalSecretOutputs: exported.additionalSecretOutputs ?? [],
    ignoreChanges: exported.ignoreChanges ?? [],
    replaceOnChanges: exported.replaceOnChanges ?? [],
    ...(exported.replacementTrigger !== undefined
      ? { replacementTrigger: wrapSecrets(exported.replacementTrigger) }
      : {}),
    ...(exported.initErrors && exported.initErrors.length > 0 ? { initErrors: exported.initErrors } : {}),
    ...(exported.pendingReplacement ? { pendingReplacement: true } : {}),
    ...(exported.delete ? { delete: true } : {}),
  };
}

/**
 * The CLI's secrets, shown (`{ <sig>: <secret sig>, plaintext: "<the value's JSON>" }`: pkg/resource/stack/
 * deployment.go DeserializePropertyValue), as the local engine wraps them (`{ <sig>: <secret sig>, value }`:
 * values.ts).
 */
function wrapSecrets(value: Value): Value {
  if (isObject(value) && value[SIG_KEY] === SECRET_SIG && typeof value.plaintext === "string") {
    return { [SIG_KEY]: SECRET_SIG, value: wrapSecrets(JSON.parse(value.plaintext) as Value) };
  }
  if (Array.isArray(value)) return value.map(wrapSecrets);
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, wrapSecrets(v)]));
  return value;
}

/** A command that succeeded while its program's calls met a closed monitor: what it did not record. */
function lateCallsError(late: string[]): { error: Error } {
  return {
    error: new Error(
      `the command succeeded, but the engine's resource monitor had closed before the program sent ${late.join(", ")}: ` +
        "the state may not hold them",
    ),
  };
}

/** gRPC's status codes for a call the server will not take because it is going away (grpc-js `status`). */
const MONITOR_GONE = new Set([1 /* CANCELLED */, 14 /* UNAVAILABLE */]);

type Callback = (error: { code?: number } | null, reply?: unknown) => void;

interface LateCallsMonitor {
  registerResourceOutputs(request: unknown, callback: Callback): void;
  invoke(request: { getTok(): string }, callback: Callback): void;
  /** Set once the monitor's calls are wrapped: where a call that met a closed monitor is noted now. */
  noteLate?: (call: string) => void;
}

/**
 * When a command fails, the engine ends the run and closes its resource monitor while an inline program may still be
 * resolving its stack outputs, or an invoke they wait on. @pulumi/pulumi (v3.248.0, runtime/resource.ts
 * `registerResourceOutputs`, runtime/invoke.ts) then rejects a promise no one holds, after the Automation API's
 * language server has stopped catching the program's errors (automation/server.ts), and the rejection fails the test
 * run that drove the command (pulumi/pulumi#10744 fixed the same for registerResource only). Such a call is answered
 * as done (an invoke with no result), as the SDK's own comment on that error asks ("don't emit an error"), and noted
 * with `note`: the command that ran it reports a failure if it did not fail already (`CliStack.run`), so that outputs
 * lost by a command that succeeded are not hidden. Called inside the program, where the SDK's settings hold this
 * run's monitor.
 */
async function answerLateCalls(note: (call: string) => void): Promise<void> {
  const settings = await import("@pulumi/pulumi/runtime/settings");
  const monitor = settings.getMonitor() as unknown as LateCallsMonitor | undefined;
  if (!monitor) return;
  const wrapped = monitor.noteLate !== undefined;
  monitor.noteLate = note;
  if (wrapped) return;
  const { InvokeResponse } = await import("@pulumi/pulumi/proto/provider_pb");
  const gone = (error: { code?: number } | null) => error?.code !== undefined && MONITOR_GONE.has(error.code);
  const sendOutputs = monitor.registerResourceOutputs.bind(monitor);
  monitor.registerResourceOutputs = (request, callback) =>
    sendOutputs(request, (error, reply) => {
      if (!gone(error)) return callback(error, reply);
      monitor.noteLate?.("its stack outputs");
      callback(null, reply);
    });
  const sendInvoke = monitor.invoke.bind(monitor);
  monitor.invoke = (request, callback) =>
    sendInvoke(request, (error, reply) => {
      if (!gone(error)) return callback(error, reply);
      monitor.noteLate?.(`an invoke of ${request.getTok()}`);
      callback(null, new InvokeResponse());
    });
}
