/**
 * The program side of an update deployment: each registration is checked and diffed one at a time (the step
 * generator is a single loop), its steps run on the deployment's workers, and the program gets the answer
 * (pulumi/pulumi `pkg/resource/deploy/source_eval.go` RegisterResource, `step_generator.go` GenerateSteps).
 *
 * - Options the engine inherits from the parent goal: `retainOnDelete` (source_eval.go inheritFromParent; the Node.js
 *   SDK inherits `protect` itself).
 * - The default provider of `pulumi-nodejs` is registered on the first custom registration, with the whole stack
 *   configuration (target.go GetPackageConfig); unchanged inputs make a same step, changed ones an update (DiffConfig
 *   is unimplemented, so the engine compares inputs and never replaces: provider_plugin.go DiffConfig).
 * - After a failed step the engine answers nothing more (the monitor shuts down and the language host ends the
 *   program); here later registrations are answered "skipped" so the program ends on its own, and the stack's
 *   outputs it registers then are ignored: the state keeps those of the last successful update.
 */
import { randomUUID } from "crypto";
import { Diagnostics } from "./diagnostics";
import { Goal, unmodelled } from "./goal";
import { Program, Registered, runProgram } from "./program";
import { SnapshotManager } from "./snapshot";
import { StackConfig } from "./config";
import { ResourceState } from "./state";
import { CheckFailedError, Step, StepGenerator } from "./step-generator";
import { recordOf, StepRecord } from "./steps";
import { defaultProviderUrn, makeUrn, NODEJS_DYNAMIC_PACKAGE, ROOT_STACK_TYPE, typeOf } from "./urn";
import { deepEquals, goValue, Props, UNKNOWN } from "./values";

/** What the registrations need of their deployment. */
export interface RegistrationHost {
  stack: string;
  project: string;
  preview: boolean;
  destroyMode: boolean;
  config: StackConfig;
  snapshot: SnapshotManager;
  diagnostics: Diagnostics;
  oldProvider(): ResourceState | undefined;
  /** Runs a chain of steps on a worker; throws the step's error. */
  execute(steps: Step[]): Promise<void>;
  record(step: StepRecord): void;
  cancelled(): boolean;
  interrupted(): boolean;
  fail(error: unknown): void;
}

export class Registrations {
  /** Set once the default provider was registered in this deployment (its configuration is then the current one). */
  providerRegistered = false;
  /** The stack's outputs as the program registered them. */
  outputs: Props = {};
  private providerRef?: Promise<string>;
  private generating: Promise<unknown> = Promise.resolve();
  private readonly goals = new Map<string, Goal>();
  /** Registrations the engine is still working on (their steps may be running). */
  private readonly inflight = new Set<Promise<unknown>>();

  constructor(
    private readonly host: RegistrationHost,
    private readonly generator: StepGenerator,
  ) {}

  /**
   * Runs the program to its end; a program that fails fails the deployment with its error. Steps already running
   * finish either way (deployment_executor.go Execute waits for the step executor before it returns).
   */
  async run(program: Program): Promise<void> {
    const { config, secretKeys } = this.host.config.forProgram();
    await runProgram(program, {
      project: this.host.project,
      stack: this.host.stack,
      preview: this.host.preview,
      config,
      secretKeys,
      register: (goal) => this.register(goal),
      registerOutputs: (urn, outputs) => this.registerOutputs(urn, outputs),
      failed: (error) => this.host.fail(error),
      refuse: (message, urn) => this.refuse(message, urn),
    }).catch((error) => this.host.fail(error));
    await Promise.allSettled([...this.inflight]);
  }

  private register(declared: Goal): Promise<Registered> {
    const registered = this.registerNow(declared);
    this.inflight.add(registered);
    return registered.finally(() => this.inflight.delete(registered));
  }

  private async registerNow(declared: Goal): Promise<Registered> {
    const goal = this.inherited(declared);
    const urn = makeUrn(this.host.stack, this.host.project, goal.parent, goal.type, goal.name);
    this.goals.set(urn, goal);
    if (this.host.cancelled()) return { urn, id: "", outputs: {}, result: "skip" };
    const refusal = unmodelled(goal);
    if (refusal) {
      this.refuse(refusal, urn);
      return { urn, id: "", outputs: {}, result: "fail" };
    }
    let steps: Step[] = [];
    try {
      if (goal.custom) this.generator.providerRef = await this.ensureProvider();
      const generated = this.generating.then(() => this.generate(goal));
      this.generating = generated.catch(() => undefined);
      steps = (await generated).steps;
      await this.host.execute(steps);
      return { ...answer(urn, steps), result: "success" };
    } catch {
      return { ...answer(urn, steps), result: this.host.interrupted() ? "skip" : "fail" };
    }
  }

  /** A request of the program the engine does not model: an error on the resource, and the deployment fails. */
  private refuse(message: string, urn?: string): void {
    if (this.host.cancelled()) return;
    this.host.diagnostics.error(message, urn);
    this.host.fail(new Error(message));
  }

  /** inheritFromParent: an unset `retainOnDelete` takes the parent's. */
  private inherited(goal: Goal): Goal {
    const parent = goal.parent ? this.goals.get(goal.parent) : undefined;
    if (goal.retainOnDelete !== undefined || parent?.retainOnDelete === undefined) return goal;
    return { ...goal, retainOnDelete: parent.retainOnDelete };
  }

  /** RegisterResourceOutputs: a component's outputs (the stack's are the program's exports). */
  private registerOutputs(urn: string, outputs: Props): void {
    if (this.host.cancelled()) return;
    if (typeOf(urn) === ROOT_STACK_TYPE) this.outputs = outputs;
    if (!this.host.preview) this.host.snapshot.setOutputs(urn, outputs);
  }

  private async generate(goal: Goal) {
    if (this.host.cancelled()) throw new Error("the deployment was cancelled after an earlier error");
    try {
      return await this.generator.generate(goal);
    } catch (error) {
      if (error instanceof CheckFailedError) this.reportCheckFailures(error, goal);
      this.host.fail(error);
      throw error;
    }
  }

  /** The default provider, registered once (see the module comment); answers its reference `<urn>::<id>`. */
  private ensureProvider(): Promise<string> {
    this.providerRef ??= (async () => {
      const urn = defaultProviderUrn(this.host.stack, this.host.project);
      const old = this.host.oldProvider();
      const inputs = this.host.config.providerInputs();
      const id = old?.id ?? (this.host.preview ? UNKNOWN : randomUUID());
      const state = providerState(urn, id, inputs);
      this.providerRegistered = true;
      this.generator.urns.add(urn);
      this.generator.operatedOn.add(urn);
      // destroyMode: a provider is brought up to date like any registration, and deleted with the rest.
      if (this.host.destroyMode) this.generator.toDelete.push(state);
      const step: Step = !old
        ? { kind: "create", new: state }
        : deepEquals(old.outputs, inputs)
          ? { kind: "same", old, new: state }
          : { kind: "update", old, new: state, diffs: [] };
      if (step.kind !== "same") this.host.record(recordOf(step));
      if (!this.host.preview) this.host.snapshot.produce(state, old);
      return `${urn}::${id}`;
    })();
    return this.providerRef;
  }

  /**
   * issueCheckFailures: diag.GetResourcePropertyInvalidValueError, "%v resource '%v': property %v value %v has a
   * problem: %v", the value printed with PropertyValue.String() (Go's `{%v}`: a secret's content is printed too).
   */
  private reportCheckFailures(error: CheckFailedError, goal: Goal): void {
    for (const failure of error.failures) {
      const value = goValue(goal.inputs[failure.property]);
      this.host.diagnostics.error(
        `${goal.type} resource '${goal.name}': property ${failure.property} value {${value}} has a problem: ${failure.reason}`,
        error.urn,
      );
    }
  }
}

/**
 * What the program gets back for a registration (RegisterResourceResponse): the new state's id and outputs. A
 * component's outputs come later, through RegisterResourceOutputs: its registration answers none.
 */
function answer(urn: string, steps: Step[]): Omit<Registered, "result"> {
  const last = steps[steps.length - 1];
  const state = last && "new" in last ? last.new : undefined;
  return { urn, id: state?.id ?? "", outputs: state?.custom ? state.outputs : {} };
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
