/**
 * One deployment: what the engine does for one command (or for the preview half of `up`), in a plugin process of its
 * own (pulumi/pulumi `pkg/engine/deployment.go` newDeployment: a new plugin context per deployment, closed at its end).
 *
 * - update / preview (`pkg/resource/deploy/deployment_executor.go` Execute): the program runs; each registration is
 *   checked and diffed one at a time, its steps run in parallel; then the deletes, scheduled in antichains.
 * - refresh (RefreshOnly): Read of every resource in state, then the refresh diff.
 * - destroy: every resource deleted, dependents first; with `runProgram`, the program's registrations first bring the
 *   provider's configuration up to date (destroyMode).
 * The default provider is configured with the current stack configuration when the program runs, and with the
 * configuration saved in state (its inputs) when it does not (refresh, destroy: `Deployment.EnsureProvider`).
 */
import { randomUUID } from "crypto";
import { Diagnostics } from "./diagnostics";
import { defaultParallel, Pool, scheduleDeletes } from "./executor";
import { Goal } from "./goal";
import { Plugin } from "./plugin";
import { Program, Registered, runProgram } from "./program";
import { ProviderHost } from "./provider";
import { readAll } from "./refresh";
import { SnapshotManager } from "./snapshot";
import { ResourceState, Snapshot } from "./state";
import { CheckFailedError, Step, StepGenerator } from "./step-generator";
import { applyStep, recordOf, StepRecord } from "./steps";
import { defaultProviderUrn, makeUrn, NODEJS_DYNAMIC_PACKAGE, ROOT_STACK_TYPE, typeOf } from "./urn";
import { deepEquals, isSecret, Props, UNKNOWN } from "./values";
import { StackConfig } from "./config";

export interface DeploymentOptions {
  kind: "update" | "refresh" | "destroy";
  preview: boolean;
  stack: string;
  project: string;
  /** The previous snapshot; the deployment works on its own copy. */
  prev: Snapshot;
  config: StackConfig;
  program?: Program;
  startPlugin: () => Promise<Plugin>;
  parallel?: number;
  replaceTargets?: ReadonlySet<string>;
  /** Called as each step finishes (progress). */
  onStep?: (step: StepRecord) => void;
}

export interface DeploymentResult {
  steps: StepRecord[];
  diagnostics: Diagnostics;
  /** The stack's outputs as registered (secrets wrapped, unknowns in a preview). */
  outputs: Props;
  snapshot: Snapshot;
  error?: Error;
  interrupted: boolean;
}

export class Deployment {
  readonly diagnostics = new Diagnostics();
  readonly steps: StepRecord[] = [];
  private readonly prev: Snapshot;
  private readonly snapshot: SnapshotManager;
  private readonly provider: ProviderHost;
  private readonly pool: Pool;
  private error?: Error;
  private interrupted = false;
  private outputs: Props = {};
  private providerRef?: Promise<string>;

  constructor(private readonly options: DeploymentOptions) {
    this.prev = structuredClone(options.prev);
    this.snapshot = new SnapshotManager(this.prev);
    this.pool = new Pool(options.parallel ?? defaultParallel());
    const programRuns = options.kind === "update" || options.program !== undefined;
    const config = programRuns ? options.config.providerInputs() : (this.oldProvider()?.inputs ?? {});
    this.provider = new ProviderHost({ start: options.startPlugin, config });
  }

  async run(): Promise<DeploymentResult> {
    try {
      if (this.options.kind === "refresh") await this.refresh();
      else await this.deploy();
    } catch (error) {
      this.fail(error);
    } finally {
      await this.provider.close();
      this.diagnostics.addPluginOutput(await this.provider.output());
    }
    return {
      steps: this.steps,
      diagnostics: this.diagnostics,
      outputs: this.outputs,
      snapshot: this.snapshot.snapshot(),
      error: this.interrupted ? undefined : this.error,
      interrupted: this.interrupted,
    };
  }

  /** The CLI stops dead: nothing more is recorded, the plugin is killed (an interrupted `pulumi up`). */
  async interrupt(): Promise<void> {
    this.interrupted = true;
    this.snapshot.freeze();
    await this.provider.kill();
  }

  private async deploy(): Promise<void> {
    if (!this.options.preview && this.prev.pendingOperations.length > 0) this.warnPendingOperations();
    const generator = new StepGenerator({
      stack: this.options.stack,
      project: this.options.project,
      preview: this.options.preview,
      provider: this.provider,
      olds: this.prev.resources,
      replaceTargets: this.options.replaceTargets ?? new Set(),
      diagnostics: this.diagnostics,
      mode: this.options.kind === "destroy" ? "destroy" : "update",
    });
    if (this.options.program) await this.runProgram(generator, this.options.program);
    // An error reported while a preview went on (a protected replacement) fails it at the end (sg.Errored()).
    const reported = this.diagnostics.list.find((d) => d.severity === "error");
    if (reported) this.fail(new Error(reported.message));
    if (this.cancelled()) return;
    const deletes = generator.generateDeletes(this.prev.resources);
    // GenerateDeletes loads the provider of every resource it deletes (EnsureProvider), in a preview too.
    if (deletes.some((step) => "old" in step && step.old.custom && step.old.provider)) await this.provider.ensure();
    for (const antichain of scheduleDeletes(deletes)) {
      await Promise.all(antichain.map((step) => this.pool.run(() => this.execute([step]))));
      if (this.cancelled()) return;
    }
  }

  private async runProgram(generator: StepGenerator, program: Program): Promise<void> {
    let generating: Promise<unknown> = Promise.resolve();
    const register = async (goal: Goal): Promise<Registered> => {
      const urn = makeUrn(this.options.stack, this.options.project, goal.parent, goal.type, goal.name);
      // After a failure the engine stops taking registrations. It shuts the monitor down (the SDK then ends the
      // program); here the program is told "skipped" and ends on its own. No step runs either way.
      if (this.cancelled()) return { urn, id: "", outputs: {}, result: "skip" };
      let steps: Step[] = [];
      try {
        if (goal.custom) generator.providerRef = await this.ensureProvider(generator);
        // Check and Diff of one registration at a time (the step generator is a single loop).
        const generated = generating.then(() => this.generate(generator, goal));
        generating = generated.catch(() => undefined);
        steps = (await generated).steps;
        await this.pool.run(() => this.execute(steps));
        return { ...this.registered(urn, steps), result: "success" };
      } catch {
        return { ...this.registered(urn, steps), result: this.interrupted ? "skip" : "fail" };
      }
    };
    // RegisterResourceOutputs: a component's outputs (the stack's are the program's exports).
    const registerOutputs = (urn: string, outputs: Props) => {
      if (typeOf(urn) === ROOT_STACK_TYPE) this.outputs = outputs;
      if (!this.options.preview) this.snapshot.setOutputs(urn, outputs);
    };
    const { config, secretKeys } = this.options.config.forProgram();
    await runProgram(program, {
      project: this.options.project,
      stack: this.options.stack,
      preview: this.options.preview,
      config,
      secretKeys,
      register,
      registerOutputs,
    }).catch((error) => this.fail(error));
  }

  private record(step: StepRecord): void {
    this.steps.push(step);
    this.options.onStep?.(step);
  }

  private cancelled(): boolean {
    return this.error !== undefined || this.interrupted;
  }

  private async generate(generator: StepGenerator, goal: Goal) {
    if (this.cancelled()) throw new Error("the deployment was cancelled after an earlier error");
    try {
      return await generator.generate(goal);
    } catch (error) {
      if (error instanceof CheckFailedError) this.reportCheckFailures(error, goal);
      this.fail(error);
      throw error;
    }
  }

  /** Runs a chain of steps; a step that fails fails the deployment (no --continue-on-error). */
  private async execute(steps: Step[]): Promise<void> {
    if (this.cancelled()) throw new Error("the deployment was cancelled after an earlier error");
    for (const step of steps) {
      const record = recordOf(step);
      try {
        await applyStep(step, { preview: this.options.preview, provider: this.provider, snapshot: this.snapshot });
        if (!this.interrupted) this.record(record);
      } catch (error) {
        if (this.interrupted) throw error;
        record.error = error instanceof Error ? error.message : String(error);
        this.record(record);
        this.diagnostics.error(record.error, record.urn);
        this.fail(error);
        throw error;
      }
    }
  }

  /** What the program gets back for a registration (RegisterResourceResponse: the new state's id and outputs). */
  private registered(urn: string, steps: Step[]): Omit<Registered, "result"> {
    const last = steps[steps.length - 1];
    const state = last && "new" in last ? last.new : undefined;
    return { urn, id: state?.id ?? "", outputs: state?.outputs ?? {} };
  }

  /**
   * The default provider of `pulumi-nodejs`, registered on first use with the whole stack configuration
   * (target.go GetPackageConfig: every namespace for a dynamic provider). Unchanged inputs make a same step, changed
   * ones an update (DiffConfig is unimplemented, so the engine compares inputs and never replaces: provider_plugin.go
   * DiffConfig); it keeps its id, so resources keep their provider reference.
   */
  private ensureProvider(generator: StepGenerator): Promise<string> {
    this.providerRef ??= (async () => {
      const urn = defaultProviderUrn(this.options.stack, this.options.project);
      const old = this.oldProvider();
      const inputs = this.options.config.providerInputs();
      const id = old?.id ?? (this.options.preview ? UNKNOWN : randomUUID());
      const state = providerState(urn, id, inputs);
      generator.urns.add(urn);
      generator.operatedOn.add(urn);
      // destroyMode: a provider is brought up to date like any registration, and deleted with the rest.
      if (this.options.kind === "destroy") generator.toDelete.push(state);
      const step: Step = !old
        ? { kind: "create", new: state }
        : deepEquals(old.outputs, inputs)
          ? { kind: "same", old, new: state }
          : { kind: "update", old, new: state, diffs: [] };
      if (step.kind !== "same") this.record(recordOf(step));
      if (!this.options.preview) this.snapshot.produce(state, old);
      return `${urn}::${id}`;
    })();
    return this.providerRef;
  }

  private oldProvider(): ResourceState | undefined {
    const urn = defaultProviderUrn(this.options.stack, this.options.project);
    return this.prev.resources.find((state) => state.urn === urn && !state.delete);
  }

  private async refresh(): Promise<void> {
    const records = await readAll(this.prev.resources, {
      preview: this.options.preview,
      provider: this.provider,
      snapshot: this.snapshot,
      pool: this.pool,
      onError: (error, urn) => {
        this.diagnostics.error(error instanceof Error ? error.message : String(error), urn);
        this.fail(error);
      },
    });
    if (!this.interrupted) for (const record of records) this.record(record);
  }

  private warnPendingOperations(): void {
    const lines = this.prev.pendingOperations.map((op) => `  * ${op.resource.urn}, interrupted while ${op.type}`);
    this.diagnostics.warning(
      `Attempting to deploy or update resources with ${lines.length} pending operations from previous deployment.\n` +
        `${lines.join("\n")}\nThese resources are in an unknown state because the Pulumi CLI was interrupted while ` +
        "waiting for changes to these resources to complete. You should confirm whether or not the operations " +
        "listed completed successfully by checking the state of the appropriate provider.",
    );
  }

  /** issueCheckFailures: `<type> resource '<name>': property <p> value {<v>} has a problem: <reason>`. */
  private reportCheckFailures(error: CheckFailedError, goal: Goal): void {
    for (const failure of error.failures) {
      const value = goal.inputs[failure.property];
      const shown = isSecret(value) ? "[secret]" : (JSON.stringify(value) ?? "<nil>");
      this.diagnostics.error(
        `${goal.type} resource '${goal.name}': property ${failure.property} value {${shown}} has a problem: ${failure.reason}`,
        error.urn,
      );
    }
  }

  private fail(error: unknown): void {
    this.error ??= error instanceof Error ? error : new Error(String(error));
  }
}

function providerState(urn: string, id: string, inputs: Props): ResourceState {
  return {
    urn,
    type: `pulumi:providers:${NODEJS_DYNAMIC_PACKAGE}`,
    custom: true,
    id,
    inputs,
    outputs: inputs,
    dependencies: [],
    propertyDependencies: {},
    protect: false,
    retainOnDelete: false,
    additionalSecretOutputs: [],
    ignoreChanges: [],
    replaceOnChanges: [],
  };
}
