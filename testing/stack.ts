/**
 * A stack driven the way the Pulumi CLI drives it, without the CLI: `preview`, `up` (a preview, then the update),
 * `refresh` and `destroy`, each a new deployment in new plugin processes (pulumi/pulumi `pkg/engine/deployment.go`;
 * the CLI's `up` and `refresh` run a preview deployment before the real one unless told to skip it), over one state
 * kept between commands as a backend keeps the checkpoint.
 *
 * The same stack runs on the real Pulumi CLI instead with `engine: "cli"` (or `"auto"`, the CLI where one is
 * installed): every command goes to a `CliStack` (cli-stack.ts: the Automation API, an inline program, a file
 * backend), and after each command the state, its export and the outputs are read back, so that `state`,
 * `exportState()`, `outputs()` and `urnOf()` answer synchronously, as on the model.
 */
import { CliStack } from "./cli-stack";
import { findPulumiCli } from "./cli";
import { Diagnostic } from "./diagnostics";
import { Deployment, DeploymentResult } from "./deployment";
import { ConfigInput, StackConfig } from "./config";
import { Plugin } from "./plugin";
import { Program } from "./program";
import { emptySnapshot, SecretsManager, Snapshot } from "./state";
import { StepRecord } from "./steps";
import { nameOf, ROOT_STACK_TYPE, typeOf } from "./urn";
import { isSecret, isObject, Props, UNKNOWN, Value } from "./values";

export interface LocalStackOptions {
  /** The program: a function declaring resources, as `pulumi.runtime.setMocks` programs are written. */
  program: Program;
  /** Default "project". */
  project?: string;
  /** Default "dev". */
  stack?: string;
  /** The whole stack configuration: `"neon:apiKey": { secret: key }`, `"app:region": "eu"`, `dbName: "x"`. */
  config?: Record<string, ConfigInput>;
  /** The program's directory: the plugin runs there and resolves the provider's package from it. */
  cwd?: string;
  /** The CLI's environment, which the plugin inherits. Default: this process's. */
  env?: NodeJS.ProcessEnv;
  /** `--parallel`. Default 4 × CPUs, as the CLI. */
  parallel?: number;
  /** An emulator (or anything with a request log) whose requests each result lists. */
  requestLog?: { requests: readonly unknown[] };
  /** Progress: called as each step of each deployment finishes (`preview` tells the preview's from the update's). */
  onStep?: (step: StepRecord, deployment: { command: Command; preview: boolean }) => void;
  /**
   * What runs the commands: `"model"`, the local model of the engine (seconds per command, no CLI needed); `"cli"`,
   * the real Pulumi CLI through the Automation API (fails when none is installed); `"auto"`, the CLI when
   * `findPulumiCli()` finds one, else the model. Default: `PULUMI_NEON_TESTING_ENGINE` (model, cli or auto) when
   * set, else `"model"`. `stack.engine` says which one runs.
   */
  engine?: EngineChoice;
  /** The CLI's install root (`<root>/bin/pulumi`) for the `"cli"` and `"auto"` engines. Default: `findPulumiCli()`. */
  cliRoot?: string;
}

/** The engine a `LocalStack` runs on: the model of the Pulumi engine, or the real Pulumi CLI. */
export type Engine = "model" | "cli";

/** `LocalStackOptions.engine`: an engine, or `"auto"` (the CLI when one is installed, else the model). */
export type EngineChoice = Engine | "auto";

/** The environment variable that chooses the engine of a `LocalStack` created without `engine`. */
export const ENGINE_VARIABLE = "PULUMI_NEON_TESTING_ENGINE";

export interface CommandOptions {
  /** `pulumi up --replace <urn>`: URNs, or names of resources in state. */
  replace?: string[];
  /** `--skip-preview` (up, refresh, destroy). */
  skipPreview?: boolean;
  /** `destroy --run-program`: the program runs first, so the provider gets the current configuration. */
  runProgram?: boolean;
  /** `destroy --exclude-protected`: through the real CLI only (`CliStack`); the local engine does not model it. */
  excludeProtected?: boolean;
}

export type Command = "preview" | "up" | "refresh" | "destroy";

export interface CommandResult {
  command: Command;
  /** The steps of the command's deployment (for `up`, the update's; its preview's are in `preview`). */
  steps: StepRecord[];
  diagnostics: Diagnostic[];
  /** The warnings among the diagnostics (the provider's restart warnings, the engine's). */
  warnings: string[];
  /**
   * The stack's outputs, secrets shown as "[secret]": for a preview, those the program registered (values unknown
   * until the update as "[unknown]"); for `up`, `refresh` and `destroy`, those the state keeps after the command (a
   * failed `up` keeps the last successful update's; `destroy` leaves none), as `pulumi stack output` prints them.
   */
  outputs: Record<string, unknown>;
  error?: Error;
  /** The command was interrupted (`interrupt()`), as a killed CLI: the state is what it had saved by then. */
  interrupted: boolean;
  /** `up`, `refresh`, `destroy` without skipPreview: what their preview showed. */
  preview?: { steps: StepRecord[]; diagnostics: Diagnostic[] };
  /** The requests the attached request log received during the command. */
  requests: unknown[];
}

export class LocalStack {
  readonly project: string;
  readonly stack: string;
  /** The engine the commands run on: `"model"` or `"cli"` (what `"auto"` chose). */
  readonly engine: Engine;
  program: Program;
  config: StackConfig;
  private snapshot: Snapshot = emptySnapshot();
  private readonly secrets = new SecretsManager();
  private running?: Deployment;
  /** The CLI engine's stack, and its export after the last command (`exportState()`). */
  private readonly cli?: CliStack;
  private exported?: string;

  constructor(private readonly options: LocalStackOptions) {
    this.project = options.project ?? "project";
    this.stack = options.stack ?? "dev";
    this.program = options.program;
    this.config = new StackConfig(this.project, options.config);
    const { engine, cliRoot } = chooseEngine(options.engine, () => options.cliRoot ?? findPulumiCli());
    this.engine = engine;
    if (cliRoot) {
      this.cli = new CliStack({
        ...options,
        // Reassigning `program` between commands reaches the CLI's inline program.
        program: () => this.program(),
        project: this.project,
        stack: this.stack,
        cliRoot,
      });
    }
  }

  /** `pulumi config set` / `rm` (undefined removes). */
  setConfig(changes: Record<string, ConfigInput | undefined>): void {
    this.config = this.config.with(changes);
    this.cli?.setConfig(changes);
  }

  preview(options: CommandOptions = {}): Promise<CommandResult> {
    if (this.cli) return this.onCli("preview", options);
    return this.command("preview", async () => ({ last: await this.deploy("preview", "update", true, options) }));
  }

  up(options: CommandOptions = {}): Promise<CommandResult> {
    if (this.cli) return this.onCli("up", options);
    return this.withPreview("up", "update", options);
  }

  refresh(options: CommandOptions = {}): Promise<CommandResult> {
    if (this.cli) return this.onCli("refresh", options);
    return this.withPreview("refresh", "refresh", options);
  }

  destroy(options: CommandOptions = {}): Promise<CommandResult> {
    if (this.cli) return this.onCli("destroy", options);
    return this.withPreview("destroy", "destroy", options);
  }

  /**
   * Interrupts the running command. The model kills it as an interrupted CLI: its plugin dies, the state keeps its
   * pending operations. The CLI engine sends the CLI SIGINT (Ctrl-C): the steps under way finish and are saved.
   */
  async interrupt(): Promise<void> {
    if (this.cli) return this.cli.interrupt();
    await this.running?.interrupt();
  }

  /**
   * Releases what the stack holds: on the CLI engine, the CLI's stack and its directory (backend, PULUMI_HOME,
   * workspace); on the model, nothing (the state is in memory). Call it when done (after `destroy()`).
   */
  async dispose(): Promise<void> {
    await this.cli?.dispose();
  }

  /**
   * The state (a copy): resources, pending operations. On the CLI engine, `pulumi stack export --show-secrets` as
   * the last command left it, in the same form (secrets wrapped as the model wraps them).
   */
  get state(): Snapshot {
    return structuredClone(this.snapshot);
  }

  /**
   * The state as a backend writes it, every secret encrypted: the model's own serialization, or on the CLI engine
   * `pulumi stack export` after the last command (the CLI's deployment format; `{}` before the first command).
   */
  exportState(): string {
    if (this.cli) return this.exported ?? "{}";
    return this.secrets.serialize(this.snapshot);
  }

  /** `pulumi stack output` (`--show-secrets` with showSecrets). */
  outputs(options: { showSecrets?: boolean } = {}): Record<string, unknown> {
    const root = this.snapshot.resources.find((state) => typeOf(state.urn) === ROOT_STACK_TYPE);
    return present(root?.outputs ?? {}, options.showSecrets ?? false);
  }

  /** The URN of the resource named `name` in state (the one `--replace` wants). */
  urnOf(name: string): string {
    const matches = this.snapshot.resources.filter((state) => nameOf(state.urn) === name && !state.delete);
    if (matches.length !== 1)
      throw new Error(`${matches.length} resources named "${name}" in the state of ${this.stack}`);
    return matches[0].urn;
  }

  /** A `--replace` target: a URN as given, or the URN of the one resource of that name (else as given: not found). */
  private targetUrn(target: string): string {
    if (target.startsWith("urn:")) return target;
    const matches = this.snapshot.resources.filter((state) => nameOf(state.urn) === target && !state.delete);
    return matches.length === 1 ? matches[0].urn : target;
  }

  /**
   * A command on the CLI engine, then the state, the export and the outputs it left read back, so that `state`,
   * `exportState()`, `outputs()` and `urnOf()` answer synchronously. A preview changes no state: after the first
   * command only `up`, `refresh` and `destroy` read it again.
   */
  private async onCli(command: Command, options: CommandOptions): Promise<CommandResult> {
    const cli = this.cli as CliStack;
    // `--replace` targets by name resolve from the state as on the model (a name not in state is passed as given).
    const replace = options.replace?.map((target) => this.targetUrn(target));
    const result = await cli[command]({ ...options, ...(replace ? { replace } : {}) });
    if (command !== "preview" || this.exported === undefined) {
      const [state, exported] = await Promise.all([
        command === "preview" || !cli.lastState ? cli.state() : cli.lastState,
        cli.exportState(),
      ]);
      this.snapshot = state;
      this.exported = exported;
    }
    return result;
  }

  private async withPreview(command: Command, kind: "update" | "refresh" | "destroy", options: CommandOptions) {
    return this.command(command, async () => {
      if (options.skipPreview) return { last: await this.deploy(command, kind, false, options) };
      const preview = await this.deploy(command, kind, true, options);
      // A failed preview stops the command before anything is changed ("error: preview failed").
      if (preview.error || preview.interrupted) return { last: preview };
      return { last: await this.deploy(command, kind, false, options), preview };
    });
  }

  private async deploy(
    command: Command,
    kind: "update" | "refresh" | "destroy",
    preview: boolean,
    options: CommandOptions,
  ) {
    const runsProgram = kind === "update" || (kind === "destroy" && options.runProgram === true);
    const deployment = new Deployment({
      kind,
      preview,
      stack: this.stack,
      project: this.project,
      prev: this.snapshot,
      config: this.config,
      program: runsProgram ? this.program : undefined,
      startPlugin: () =>
        Plugin.start({
          cwd: this.options.cwd ?? process.cwd(),
          project: this.project,
          env: this.options.env,
          pluginConfig: this.config.pluginEnvConfig(),
        }),
      parallel: this.options.parallel,
      onStep: this.options.onStep && ((step) => this.options.onStep?.(step, { command, preview })),
      replaceTargets: new Set((options.replace ?? []).map((target) => this.targetUrn(target))),
    });
    this.running = deployment;
    try {
      const result = await deployment.run();
      if (!preview) this.snapshot = result.snapshot;
      return result;
    } finally {
      this.running = undefined;
    }
  }

  private async command(
    command: Command,
    run: () => Promise<{ last: DeploymentResult; preview?: DeploymentResult }>,
  ): Promise<CommandResult> {
    const log = this.options.requestLog?.requests;
    const mark = log?.length ?? 0;
    const { last, preview } = await run();
    const diagnostics = last.diagnostics.list;
    return {
      command,
      steps: last.steps,
      diagnostics,
      warnings: diagnostics.filter((d) => d.severity === "warning").map((d) => d.message),
      // A preview shows what the program registered; the others leave the state's outputs (a failed up, the last
      // successful update's), which `pulumi stack output` prints.
      outputs: command === "preview" ? present(last.outputs, false) : this.outputs(),
      error: last.error,
      interrupted: last.interrupted,
      ...(preview ? { preview: { steps: preview.steps, diagnostics: preview.diagnostics.list } } : {}),
      requests: log ? log.slice(mark) : [],
    };
  }
}

/**
 * The engine `options.engine` (else PULUMI_NEON_TESTING_ENGINE, else "model") names: "auto" is the CLI when there is
 * one. Throws, saying how to get a CLI, when "cli" is asked for and none is found, and on an unknown name.
 */
function chooseEngine(
  requested: EngineChoice | undefined,
  findCli: () => string | undefined,
): { engine: Engine; cliRoot?: string } {
  const variable = process.env[ENGINE_VARIABLE];
  const choice = requested ?? (variable ? (variable as EngineChoice) : "model");
  const source = requested ? "engine" : ENGINE_VARIABLE;
  if (!["model", "cli", "auto"].includes(choice)) {
    throw new Error(`LocalStack: ${source} is "${choice}"; it must be "model", "cli" or "auto"`);
  }
  if (choice === "model") return { engine: "model" };
  const cliRoot = findCli();
  if (cliRoot) return { engine: "cli", cliRoot };
  if (choice === "auto") return { engine: "model" };
  throw new Error(
    `LocalStack: ${source} is "cli", but no Pulumi CLI was found (${whereLooked()}). In a clone of ` +
      "pulumi-neon-dynamic, `npm run pulumi:install` builds one into .pulumi-cli; elsewhere, install it with " +
      "Pulumi's installer (`curl -fsSL https://get.pulumi.com | sh`) and put its bin directory on PATH, or set " +
      'PULUMI_CLI_ROOT to its install root (the directory holding bin/pulumi). Or use engine "auto", which runs on ' +
      "the model when there is no CLI.",
  );
}

/** Where findPulumiCli looked, for the error of a missing CLI. */
function whereLooked(): string {
  const root = process.env.PULUMI_CLI_ROOT;
  if (root === "") return 'PULUMI_CLI_ROOT is "", which means no CLI';
  if (root !== undefined) return `PULUMI_CLI_ROOT is "${root}", which has no executable bin/pulumi`;
  return "PULUMI_CLI_ROOT is not set, this package has no .pulumi-cli build, and there is no pulumi on PATH";
}

/** Output values as `pulumi stack output` shows them. */
function present(outputs: Props, showSecrets: boolean): Record<string, unknown> {
  const show = (value: Value): unknown => {
    if (isSecret(value)) return showSecrets ? show(value.value) : "[secret]";
    if (value === UNKNOWN) return "[unknown]";
    if (Array.isArray(value)) return value.map(show);
    if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, show(v)]));
    return value;
  };
  return show(outputs) as Record<string, unknown>;
}
