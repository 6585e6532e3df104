/**
 * The step generator: what the engine decides to do with each registration, rule by rule from pulumi/pulumi
 * `pkg/resource/deploy/step_generator.go` at v3.248.0 (the version package.json pins). Check and Diff run here, one
 * registration at a time, as they do in the engine; the steps run later, in parallel (step-executor.ts).
 */
import { aliasUrns, Goal } from "./goal";
import { Diagnostics } from "./diagnostics";
import {
  applyReplaceOnChanges,
  DiffLike,
  ignoreChangesWithReport,
  inputDiff,
  isReplace,
  resolveUnknownDiff,
} from "./diff";
import { ProviderHost } from "./provider";
import { ResourceState } from "./state";
import { makeUrn } from "./urn";
import { containsUnknowns, deepEquals, Props, reveal, UNKNOWN, Value } from "./values";

export type Step =
  | { kind: "same"; old: ResourceState; new: ResourceState }
  | { kind: "create"; new: ResourceState }
  | { kind: "update"; old: ResourceState; new: ResourceState; diffs: string[] }
  | { kind: "replace"; old: ResourceState; new: ResourceState; keys: string[] }
  | { kind: "create-replacement"; old: ResourceState; new: ResourceState; keys: string[]; pendingDelete: boolean }
  | { kind: "delete"; old: ResourceState }
  | { kind: "delete-replaced"; old: ResourceState; pendingReplace: boolean }
  | { kind: "remove-pending-replace"; old: ResourceState }
  | { kind: "skip"; new: ResourceState };

/** A Check that refused the inputs; the engine prints each failure and bails ("resource … is invalid"). */
export class CheckFailedError extends Error {
  constructor(
    readonly urn: string,
    readonly failures: { property: string; reason: string }[],
  ) {
    super(`${urn}: ${failures.map((f) => `${f.property}: ${f.reason}`).join("; ")}`);
    this.name = "CheckFailedError";
  }
}

export interface GeneratorOptions {
  stack: string;
  project: string;
  preview: boolean;
  provider: ProviderHost;
  /** The previous snapshot's resources (those pending deletion are skipped as olds, as Deployment.olds does). */
  olds: ResourceState[];
  /** `destroy --run-program`: registrations only bring providers up to date; everything is deleted afterwards. */
  mode: "update" | "destroy";
  /** `pulumi up --replace <urn>` (deployment opts.ReplaceTargets). */
  replaceTargets: ReadonlySet<string>;
  diagnostics: Diagnostics;
}

export class StepGenerator {
  /** URNs registered in this deployment (sg.urns), and the operations decided (sg.sames, sg.creates, …). */
  readonly urns = new Set<string>();
  readonly operatedOn = new Set<string>();
  readonly replaced = new Set<string>();
  /** The provider reference every custom resource gets (the default provider's `<urn>::<id>`), once registered. */
  providerRef = "";
  private readonly deleted = new Set<string>();
  private readonly pendingDeletes = new Set<ResourceState>();
  /** The keys a dependent of a delete-before-replace was replaced for (sg.dependentReplaceKeys). */
  private readonly dependentReplaceKeys = new Map<string, string[]>();
  /** New URN → the old URN it matched through an alias (sg.aliases), and the reverse (sg.aliased). */
  private readonly aliases = new Map<string, string>();
  private readonly aliased = new Map<string, string>();
  private readonly olds = new Map<string, ResourceState>();
  /** destroy mode: the states registered, deleted after the program (sg.toDelete). */
  readonly toDelete: ResourceState[] = [];

  constructor(private readonly options: GeneratorOptions) {
    for (const old of options.olds) if (!old.delete) this.olds.set(old.urn, old);
  }

  /** GenerateSteps for one registration: its URN and the steps that bring it about. */
  async generate(goal: Goal): Promise<{ urn: string; steps: Step[] }> {
    const { stack, project } = this.options;
    const urn = makeUrn(stack, project, goal.parent, goal.type, goal.name);
    if (this.urns.has(urn)) throw new Error(`Duplicate resource URN '${urn}'; try giving it a unique name`);
    this.urns.add(urn);
    const old = this.oldResource(urn, goal);
    const state = newState(urn, goal, goal.custom ? this.providerRef : undefined);
    if (this.options.mode === "destroy") return { urn, steps: this.destroySteps(urn, goal, old, state) };
    return { urn, steps: await this.continueSteps(urn, goal, old, state) };
  }

  /**
   * destroyMode (continueStepsFromRefresh): a custom resource in state is a same (with its old inputs) to delete
   * afterwards, one not in state is a skipped create; nothing is created or updated.
   */
  private destroySteps(urn: string, goal: Goal, old: ResourceState | undefined, state: ResourceState): Step[] {
    if (!old) return [{ kind: "skip", new: state }];
    this.operatedOn.add(urn);
    this.toDelete.push(state);
    if (goal.custom) state.inputs = old.inputs;
    return [{ kind: "same", old, new: state }];
  }

  /** getOldResource: the old state under the URN, else under the first alias that matches one. */
  private oldResource(urn: string, goal: Goal): ResourceState | undefined {
    const where = { ...this.options, parentAliases: this.aliases };
    for (const candidate of [urn, ...aliasUrns(goal, where)]) {
      const old = this.olds.get(candidate);
      if (!old) continue;
      if (candidate !== urn) {
        if (this.urns.has(candidate) || this.aliased.has(candidate)) {
          throw new Error(`Duplicate resource alias '${candidate}' applied to resource with URN '${urn}'`);
        }
        this.aliased.set(candidate, urn);
        this.aliases.set(urn, candidate);
      }
      return old;
    }
    return undefined;
  }

  /** continueStepsFromImport: Check (ignoreChanges applied), then the four cases. */
  private async continueSteps(urn: string, goal: Goal, old: ResourceState | undefined, state: ResourceState) {
    const recreating = old !== undefined && this.deleted.has(urn);
    if (goal.custom) {
      const fresh = recreating || this.isTargetedReplace(urn) || !old;
      const news = old ? this.ignoringChanges(urn, goal, old) : goal.inputs;
      state.inputs = await this.check(urn, fresh ? {} : (old as ResourceState).inputs, fresh ? goal.inputs : news);
    }
    // Case 1: deleted earlier as a dependent of a delete-before-replace; now seen again, so a replacement
    // (sg.replaces[urn] = true, so GenerateDeletes leaves its old state alone; keys: sg.dependentReplaceKeys[urn]).
    if (recreating && old) {
      this.deleted.delete(urn);
      this.replaced.add(urn);
      const keys = this.dependentReplaceKeys.get(urn) ?? [];
      return [
        { kind: "replace", old, new: state, keys },
        { kind: "create-replacement", old, new: state, keys, pendingDelete: false },
      ] satisfies Step[];
    }
    this.operatedOn.add(urn);
    // Case 3: an old state exists: same, update or replace, as the diff says. Case 4: a create.
    if (old) return this.stepsFromDiff(urn, goal, old, state);
    return [{ kind: "create", new: state }] satisfies Step[];
  }

  /** processIgnoreChanges, reporting the paths it could not reset. */
  private ignoringChanges(urn: string, goal: Goal, old: ResourceState): Props {
    const { inputs, invalid } = ignoreChangesWithReport(goal.inputs, old.inputs, goal.ignoreChanges);
    if (invalid.length > 0) {
      const paths = invalid.map((path) => JSON.stringify(path)).join(", ");
      this.options.diagnostics.info(`cannot ignore changes in added or removed elements of the path: ${paths}`, urn);
    }
    return inputs;
  }

  /** Check(olds, news); failures make the registration invalid (issueCheckErrors, then a bail). */
  private async check(urn: string, olds: Props, news: Props): Promise<Props> {
    const checked = await this.options.provider.check(urn, olds, news);
    if (checked.failures.length > 0) throw new CheckFailedError(urn, checked.failures);
    return checked.inputs;
  }

  /** isTargetedReplace: `--replace <urn>` (taint is not modelled). */
  private isTargetedReplace(urn: string): boolean {
    return this.options.replaceTargets.has(urn);
  }

  /** generateStepsFromDiff + continueStepsFromDiff. */
  private async stepsFromDiff(urn: string, goal: Goal, old: ResourceState, state: ResourceState): Promise<Step[]> {
    if (!this.options.preview && containsUnknowns(state.replacementTrigger)) {
      throw new Error(`replacement trigger contains unknowns for ${urn}`);
    }
    const triggerReplace = shouldTriggerReplace(state.replacementTrigger, old.replacementTrigger);
    const raw: DiffLike = triggerReplace
      ? { changes: "some", replaceKeys: [], changedKeys: [] }
      : await this.diff(urn, goal, old, state);
    const hasInitErrors = (old.initErrors?.length ?? 0) > 0;
    const diff = applyReplaceOnChanges(raw, goal.replaceOnChanges, hasInitErrors);
    if (diff.changes === "some" || old.pendingReplacement) {
      // DiffResult.Replace(): a replace key, or a detailed-diff entry replaceOnChanges made a replacement.
      if (isReplace(diff) || triggerReplace || old.pendingReplacement) {
        return this.replaceSteps(urn, goal, old, state, diff.replaceKeys, raw.deleteBeforeReplace ?? false);
      }
      return [{ kind: "update", old, new: state, diffs: inputDiff(old.inputs, state.inputs) }];
    }
    // Unchanged, but the last create or update did not finish: an empty update to carry on.
    if (hasInitErrors) return [{ kind: "update", old, new: state, diffs: [] }];
    return [{ kind: "same", old, new: state }];
  }

  /**
   * diff: a targeted replace blames `id` without asking the provider; a component compares inputs; a custom
   * resource asks the provider (diffResource), and DIFF_UNKNOWN falls back to the engine's own input comparison
   * (ignoreChanges applied, `__provider` included).
   */
  private async diff(urn: string, goal: Goal, old: ResourceState, state: ResourceState): Promise<DiffLike> {
    if (this.isTargetedReplace(urn)) return { changes: "some", replaceKeys: ["id"], changedKeys: [] };
    if (!goal.custom) {
      return { changes: deepEquals(old.inputs, state.inputs) ? "none" : "some", replaceKeys: [], changedKeys: [] };
    }
    const answer = await this.options.provider.diff(urn, old.id, old.inputs, old.outputs, state.inputs);
    return resolveUnknownDiff(answer, old.inputs, state.inputs, goal.ignoreChanges);
  }

  /** The replacement branch of continueStepsFromDiff. */
  private async replaceSteps(
    urn: string,
    goal: Goal,
    old: ResourceState,
    state: ResourceState,
    keys: string[],
    providerSaysDeleteFirst: boolean,
  ): Promise<Step[]> {
    if (state.protect && old.protect) {
      const message =
        `unable to replace resource "${urn}"\nas it is currently marked for protection. To unprotect the resource, ` +
        "remove the `protect` flag from the resource in your Pulumi program and run `pulumi up`";
      // A preview reports the error and goes on, so the user sees the diff that causes it; an update bails.
      if (!this.options.preview) throw new Error(message);
      this.options.diagnostics.error(message, urn);
    }
    this.replaced.add(urn);
    // The replacement recomputes its inputs from the program's, as for a create (not for a targeted replace).
    if (goal.custom && !this.isTargetedReplace(urn)) state.inputs = await this.check(urn, {}, goal.inputs);
    const deleteFirst = goal.deleteBeforeReplace ?? providerSaysDeleteFirst;
    if (!deleteFirst) {
      return [
        { kind: "create-replacement", old, new: state, keys, pendingDelete: true },
        { kind: "replace", old, new: state, keys },
      ];
    }
    const steps: Step[] = [];
    for (const { dependent, keys: dependentKeys } of (await this.dependentReplacements(old)).reverse()) {
      if (this.pendingDeletes.has(dependent)) continue;
      this.dependentReplaceKeys.set(dependent.urn, dependentKeys);
      if (dependent.protect)
        throw new Error(
          `unable to replace resource "${dependent.urn}" as part of replacing "${urn}" as it is currently marked for protection`,
        );
      steps.push({ kind: "delete-replaced", old: dependent, pendingReplace: true });
      this.deleted.add(dependent.urn);
      this.pendingDeletes.add(dependent);
    }
    if (!old.pendingReplacement) steps.push({ kind: "delete-replaced", old, pendingReplace: true });
    steps.push({ kind: "replace", old, new: state, keys });
    steps.push({ kind: "create-replacement", old, new: state, keys, pendingDelete: false });
    return steps;
  }

  /**
   * calculateDependentReplacements: the old resources depending on `root` (not registered yet) whose provider, asked
   * to Diff with every input that depends on a resource being replaced made unknown, answers "replace".
   */
  private async dependentReplacements(root: ResourceState): Promise<{ dependent: ResourceState; keys: string[] }[]> {
    const replacing = new Set([root.urn]);
    const found: { dependent: ResourceState; keys: string[] }[] = [];
    for (const dependent of this.dependingOn(root)) {
      if (!dependent.custom || this.urns.has(dependent.urn)) continue;
      const inputs: Props = {};
      let touched = false;
      for (const [key, value] of Object.entries(dependent.inputs)) {
        const hit = (dependent.propertyDependencies[key] ?? []).some((urn) => replacing.has(urn));
        touched ||= hit;
        inputs[key] = hit ? UNKNOWN : value;
      }
      if (!touched) continue;
      const { urn, id } = dependent;
      const answer = await this.options.provider.diff(urn, id, dependent.inputs, dependent.outputs, inputs);
      const resolved = resolveUnknownDiff(answer, dependent.inputs, inputs, dependent.ignoreChanges);
      const diff = applyReplaceOnChanges(resolved, dependent.replaceOnChanges, false);
      if (isReplace(diff)) {
        found.push({ dependent, keys: diff.replaceKeys });
        replacing.add(dependent.urn);
      }
    }
    return found;
  }

  /**
   * The transitive dependents of `root` among the olds, in dependency order (DependencyGraph.DependingOn with
   * includeChildren false: explicit and property dependencies and the provider count, a parent does not). The engine
   * walks the snapshot in its topological order; this walks until nothing more is reached, whatever the order.
   */
  private dependingOn(root: ResourceState): ResourceState[] {
    const result: ResourceState[] = [];
    const reached = new Set([root.urn]);
    const candidates = this.options.olds.filter((candidate) => candidate !== root && !candidate.delete);
    for (let grew = true; grew;) {
      grew = false;
      for (const candidate of candidates) {
        if (reached.has(candidate.urn) || !edgesOf(candidate).some((urn) => reached.has(urn))) continue;
        reached.add(candidate.urn);
        result.push(candidate);
        grew = true;
      }
    }
    return result;
  }

  /** GenerateDeletes: replaced objects awaiting deletion, and resources the program no longer registers. */
  generateDeletes(olds: ResourceState[]): Step[] {
    const steps: Step[] = this.toDelete.map((state) => ({ kind: "delete", old: state }) as const);
    for (const old of olds) {
      if (old.delete) {
        if (!this.pendingDeletes.has(old)) steps.push({ kind: "delete-replaced", old, pendingReplace: false });
      } else if (!this.isOperatedOn(old.urn)) {
        this.deleted.add(old.urn);
        // A resource deleted by a delete-before-replace whose create never came is only dropped (RemovePendingReplace).
        steps.push(old.pendingReplacement ? { kind: "remove-pending-replace", old } : { kind: "delete", old });
      }
    }
    return steps;
  }

  /**
   * isOperatedOn: registered under its URN, or under the new URN it was aliased to, with a same, update or
   * replacement (`sg.sames[urn] || sg.updates[urn] || sg.replaces[urn] || …`): a dependent of a delete-before-replace
   * registered again (Case 1) is a replacement, so its old state gets no second delete.
   */
  private isOperatedOn(urn: string): boolean {
    const current = this.aliased.get(urn) ?? urn;
    return this.operatedOn.has(current) || this.replaced.has(current);
  }
}

/** What a state depends on apart from its parent: explicit and property dependencies, and its provider. */
function edgesOf(state: ResourceState): string[] {
  const provider = state.provider ? [state.provider.slice(0, state.provider.lastIndexOf("::"))] : [];
  return [...state.dependencies, ...Object.values(state.propertyDependencies).flat(), ...provider];
}

/** The parent, explicit and property dependencies of a state (resource.State.GetAllDependencies). */
export function dependenciesOf(state: ResourceState): string[] {
  const all = [...state.dependencies, ...Object.values(state.propertyDependencies).flat()];
  return state.parent ? [state.parent, ...all] : all;
}

/** shouldTriggerReplace: unknown on either side → replace; null (no trigger) on either side → no; else deep inequality. */
export function shouldTriggerReplace(news: Value, olds: Value): boolean {
  if (containsUnknowns(news) || containsUnknowns(olds)) return true;
  if (news === undefined || news === null || olds === undefined || olds === null) return false;
  return !deepEquals(reveal(news), reveal(olds));
}

/** The new state of a registration before any step (generateSteps: `new := resource.NewState{…}`). */
function newState(urn: string, goal: Goal, provider: string | undefined): ResourceState {
  return {
    urn,
    type: goal.type,
    custom: goal.custom,
    id: "",
    inputs: goal.inputs,
    outputs: {},
    parent: goal.parent,
    provider,
    dependencies: goal.dependencies,
    propertyDependencies: goal.propertyDependencies,
    protect: goal.protect ?? false,
    retainOnDelete: goal.retainOnDelete ?? false,
    additionalSecretOutputs: goal.additionalSecretOutputs,
    ignoreChanges: goal.ignoreChanges,
    replaceOnChanges: goal.replaceOnChanges,
    replacementTrigger: goal.replacementTrigger,
  };
}
