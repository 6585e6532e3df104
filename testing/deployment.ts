/**
 * One deployment: what the engine does for one command (or for the preview half of `up`), in a plugin process of its
 * own (pulumi/pulumi `pkg/engine/deployment.go` newDeployment: a new plugin context per deployment, closed at its end).
 *
 * - update / preview (`pkg/resource/deploy/deployment_executor.go` Execute): the replace targets are checked, the
 *   program runs (registrations.ts), then the deletes (deletes.ts).
 * - refresh (RefreshOnly): Read of every resource in state, then the refresh diff (refresh.ts).
 * - destroy: every resource deleted, dependents first; with `runProgram`, the program's registrations first bring the
 *   provider's configuration up to date (destroyMode).
 * The plugin is configured with the current stack configuration when the default provider was registered in this
 * deployment, and otherwise with the configuration saved in state (`Deployment.EnsureProvider` loads a provider from
 * its old state: registry.go Same), e.g. for a refresh, a destroy, or an update whose program declares nothing left.
 */
import { DeleteProtectedError, runDeletes } from "./deletes";
import { Diagnostics } from "./diagnostics";
import { defaultParallel, Pool } from "./executor";
import { Plugin } from "./plugin";
import { Program } from "./program";
import { ProviderHost } from "./provider";
import { readAll } from "./refresh";
import { Registrations } from "./registrations";
import { SnapshotManager } from "./snapshot";
import { ResourceState, Snapshot } from "./state";
import { Step, StepGenerator } from "./step-generator";
import { applyStep, recordOf, StepRecord } from "./steps";
import { defaultProviderUrn } from "./urn";
import { Props } from "./values";
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
  private registrations?: Registrations;
  private error?: Error;
  private wasInterrupted = false;
  /** A step failed, or the step generator reported an error and went on (what makes the engine say "… failed"). */
  private executionFailed = false;

  constructor(private readonly options: DeploymentOptions) {
    this.prev = structuredClone(options.prev);
    this.snapshot = new SnapshotManager(this.prev);
    this.pool = new Pool(options.parallel ?? defaultParallel());
    this.provider = new ProviderHost({ start: options.startPlugin, config: () => this.providerConfig() });
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
    // deployment_executor.go Execute (and refresh): when the step executor errored (a step failed) or the step
    // generator reported errors and went on (sg.Errored()), the engine ends with its own error, "update failed"
    // ("preview failed" in a preview; a refresh and a destroy say "update" too: reportExecResult). A bail of the step
    // generator (a Check failure) or of the program returns before it: no such line then.
    if (this.executionFailed && !this.wasInterrupted) {
      this.diagnostics.error(`${this.options.preview ? "preview" : "update"} failed`);
    }
    return {
      steps: this.steps,
      diagnostics: this.diagnostics,
      outputs: this.registrations?.outputs ?? {},
      snapshot: this.snapshot.snapshot(),
      error: this.wasInterrupted ? undefined : this.error,
      interrupted: this.wasInterrupted,
    };
  }

  /** The CLI stops dead: nothing more is recorded, the plugin is killed (an interrupted `pulumi up`). */
  async interrupt(): Promise<void> {
    this.wasInterrupted = true;
    this.snapshot.freeze();
    await this.provider.kill();
  }

  private providerConfig(): Props {
    if (this.registrations?.providerRegistered) return this.options.config.providerInputs();
    return this.oldProvider()?.inputs ?? this.options.config.providerInputs();
  }

  private async deploy(): Promise<void> {
    this.checkTargets();
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
    if (this.options.program) {
      this.registrations = new Registrations(this.host(), generator);
      await this.registrations.run(this.options.program);
    }
    // An error reported while a preview went on (a protected replacement) fails it at the end (sg.Errored()).
    const reported = this.diagnostics.list.find((d) => d.severity === "error");
    if (reported) {
      this.executionFailed ||= this.error === undefined;
      this.fail(new Error(reported.message));
    }
    if (this.cancelled()) return;
    const deletes = generator.generateDeletes(this.prev.resources);
    // GenerateDeletes loads the provider of every resource it deletes (EnsureProvider), in a preview too.
    if (deletes.some((step) => "old" in step && step.old.custom && step.old.provider)) await this.provider.ensure();
    const refused = await runDeletes(deletes, {
      run: (step) => this.pool.run(() => this.execute([step])),
      cancelled: () => this.cancelled(),
    });
    if (refused.length > 0) this.fail(refused[0]);
  }

  /** checkTargets(ReplaceTargets): a target that is neither in state nor registrable fails the command first. */
  private checkTargets(): void {
    const known = new Set(this.prev.resources.map((state) => state.urn));
    const missing = [...(this.options.replaceTargets ?? [])].filter((urn) => !known.has(urn));
    if (missing.length === 0) return;
    // deployment_executor.go checkTargets: the hint is added to a target without a `$` (diag errors 2010, 2011).
    const hint = (urn: string) => (urn.includes("$") ? "" : " Did you forget to escape $ in your shell?");
    for (const urn of missing) this.diagnostics.error(`Target '${urn}' could not be found in the stack.${hint(urn)}`);
    throw new Error("one or more targets could not be found in the stack");
  }

  private host() {
    return {
      stack: this.options.stack,
      project: this.options.project,
      preview: this.options.preview,
      destroyMode: this.options.kind === "destroy",
      config: this.options.config,
      snapshot: this.snapshot,
      diagnostics: this.diagnostics,
      oldProvider: () => this.oldProvider(),
      execute: (steps: Step[]) => this.pool.run(() => this.execute(steps)),
      record: (step: StepRecord) => this.record(step),
      cancelled: () => this.cancelled(),
      interrupted: () => this.wasInterrupted,
      fail: (error: unknown) => this.fail(error),
    };
  }

  /**
   * Runs a chain of steps. Before each step the chain stops if the deployment was cancelled (executeChain checks
   * its context before every step): a delete-before-replace whose delete ran stays pending replacement. A step that
   * fails fails the deployment (no --continue-on-error), except a protected delete (deletes.ts).
   */
  private async execute(steps: Step[]): Promise<void> {
    for (const step of steps) {
      if (this.cancelled()) throw new Error("the deployment was cancelled after an earlier error");
      const record = recordOf(step);
      try {
        await applyStep(step, { preview: this.options.preview, provider: this.provider, snapshot: this.snapshot });
        if (!this.wasInterrupted) this.record(record);
      } catch (error) {
        if (this.wasInterrupted) throw error;
        record.error = error instanceof Error ? error.message : String(error);
        this.executionFailed = true;
        this.record(record);
        this.diagnostics.error(record.error, record.urn);
        if (!(error instanceof DeleteProtectedError)) this.fail(error);
        throw error;
      }
    }
  }

  private record(step: StepRecord): void {
    this.steps.push(step);
    this.options.onStep?.(step);
  }

  private cancelled(): boolean {
    return this.error !== undefined || this.wasInterrupted;
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
        this.executionFailed = true;
        this.diagnostics.error(error instanceof Error ? error.message : String(error), urn);
        this.fail(error);
      },
    });
    if (!this.wasInterrupted) for (const record of records) this.record(record);
  }

  /** deployment_executor.go printPendingOperationsWarning. */
  private warnPendingOperations(): void {
    const lines = this.prev.pendingOperations.map((op) => `  * ${op.resource.urn}, interrupted while ${op.type}`);
    this.diagnostics.warning(
      `Attempting to deploy or update resources with ${lines.length} pending operations from previous deployment.\n` +
        `${lines.join("\n")}\nThese resources are in an unknown state because the Pulumi CLI was interrupted while ` +
        "waiting for changes to these resources to complete. You should confirm whether or not the operations " +
        "listed completed successfully by checking the state of the appropriate provider.",
    );
  }

  private fail(error: unknown): void {
    this.error ??= error instanceof Error ? error : new Error(String(error));
  }
}
