/**
 * What each step does when it runs, from pulumi/pulumi `pkg/resource/deploy/step.go` (Apply of SameStep, CreateStep,
 * UpdateStep, ReplaceStep, DeleteStep, RemovePendingReplaceStep, RefreshStep) and the secret marking the step
 * executor applies to a step's new state (step_executor.go continueExecuteStep).
 */
import { DeleteProtectedError } from "./deletes";
import { InitError, ProviderHost } from "./provider";
import { SnapshotManager } from "./snapshot";
import { ResourceState } from "./state";
import { Step } from "./step-generator";
import { nameOf } from "./urn";
import { markSecretOutputs } from "./values";

export type StepOp = Step["kind"] | "refresh";

/** One step as a command reports it. */
export interface StepRecord {
  op: StepOp;
  urn: string;
  name: string;
  type: string;
  /** replace: the properties the provider (or `--replace`: `id`) blamed. */
  keys?: string[];
  /** update: the inputs that changed, as `pulumi preview --diff` lists them. */
  diffs?: string[];
  /** refresh: what it found on the service. */
  found?: "same" | "update" | "delete";
  error?: string;
}

export interface StepContext {
  preview: boolean;
  provider: ProviderHost;
  snapshot: SnapshotManager;
}

/** Runs one step; the state it leaves is recorded in the snapshot. Throws the step's error after recording it. */
export async function applyStep(step: Step, ctx: StepContext): Promise<void> {
  switch (step.kind) {
    case "same":
      // SameStep: the new inputs are recorded, the id and outputs kept. The executor marks secrets on every step's
      // new state (continueExecuteStep: `step.New() != nil && step.Op() != OpReplace`), a same step's too: an output
      // newly listed in additionalSecretOutputs is encrypted by the next `up` even when nothing else changed.
      step.new.id = step.old.id;
      step.new.outputs = markSecretOutputs(step.old.outputs, step.new.inputs, step.new.additionalSecretOutputs);
      if (!ctx.preview) ctx.snapshot.produce(step.new, step.old);
      return;
    case "create":
    case "create-replacement":
      return create(step.new, ctx, step.kind === "create-replacement" ? step : undefined);
    case "update":
      return update(step.old, step.new, ctx);
    case "replace":
    case "skip":
      return; // ReplaceStep is logical; a skipped create leaves nothing.
    case "delete":
    case "delete-replaced":
      return remove(
        step.old,
        ctx,
        step.kind === "delete-replaced",
        step.kind === "delete-replaced" && step.pendingReplace,
      );
    case "remove-pending-replace":
      if (!ctx.preview) ctx.snapshot.remove(step.old);
      return;
  }
}

/** CreateStep.Apply (also the create of a replacement). */
async function create(
  state: ResourceState,
  ctx: StepContext,
  replacing?: { old: ResourceState; pendingDelete: boolean },
): Promise<void> {
  if (!state.custom) {
    if (!ctx.preview) ctx.snapshot.produce(state, replacing?.old.pendingReplacement ? replacing.old : undefined);
    return;
  }
  const operation = ctx.preview ? undefined : ctx.snapshot.begin("creating", state);
  try {
    const created = await ctx.provider.create(state.urn, state.inputs, ctx.preview);
    state.id = created.id;
    state.outputs = markSecretOutputs(created.outputs, state.inputs, state.additionalSecretOutputs);
    // CreateStep.Apply marks the old object for deletion after the DryRun branch, so in a preview too (on the
    // deployment's own copy of the olds): GenerateDeletes then shows its delete-replaced step, as the CLI's preview
    // of a create-before-delete replacement does.
    if (ctx.preview && replacing?.pendingDelete) replacing.old.delete = true;
  } catch (error) {
    if (!(error instanceof InitError)) throw error;
    // A partial failure: the object exists; it is recorded with the reasons, and the step fails.
    state.id = error.id;
    state.outputs = markSecretOutputs(error.outputs, state.inputs, state.additionalSecretOutputs);
    state.initErrors = error.reasons;
    throw error;
  } finally {
    if (operation) {
      if (state.id) recordCreated(state, ctx, replacing);
      ctx.snapshot.end(operation);
    }
  }
}

/**
 * A created object enters the state. A create-before-delete replacement marks the old one for deletion
 * (`s.old.Delete = true`, even on a partial failure); a delete-before-replace one takes the pending one's place.
 */
function recordCreated(
  state: ResourceState,
  ctx: StepContext,
  replacing?: { old: ResourceState; pendingDelete: boolean },
) {
  if (replacing?.pendingDelete) replacing.old.delete = true;
  ctx.snapshot.produce(state, replacing?.old.pendingReplacement ? replacing.old : undefined);
}

/** UpdateStep.Apply. */
async function update(old: ResourceState, state: ResourceState, ctx: StepContext): Promise<void> {
  state.id = old.id;
  if (!state.custom) {
    if (!ctx.preview) ctx.snapshot.produce(state, old);
    return;
  }
  const operation = ctx.preview ? undefined : ctx.snapshot.begin("updating", state);
  try {
    const outputs = await ctx.provider.update(state.urn, old.id, old.inputs, old.outputs, state.inputs, ctx.preview);
    state.outputs = markSecretOutputs(outputs, state.inputs, state.additionalSecretOutputs);
    if (!ctx.preview) ctx.snapshot.produce(state, old);
  } catch (error) {
    if (!(error instanceof InitError)) throw error;
    // A partially failed update is stored with the OLD inputs and the new outputs (pkg/engine/update.go
    // OnResourceStepPost: "should be old inputs and new outputs").
    state.outputs = markSecretOutputs(error.outputs, state.inputs, state.additionalSecretOutputs);
    state.inputs = old.inputs;
    state.initErrors = error.reasons;
    if (!ctx.preview) ctx.snapshot.produce(state, old);
    throw error;
  } finally {
    if (operation) ctx.snapshot.end(operation);
  }
}

/** DeleteStep.Apply: protect refuses, a preview does nothing, retainOnDelete drops without calling the provider. */
async function remove(
  old: ResourceState,
  ctx: StepContext,
  replacing: boolean,
  pendingReplace: boolean,
): Promise<void> {
  if (!replacing && old.protect) throw new DeleteProtectedError(old.urn);
  if (!ctx.preview && old.custom && !old.retainOnDelete && !isProvider(old)) {
    const operation = ctx.snapshot.begin("deleting", old);
    try {
      await ctx.provider.delete(old.urn, old.id, old.inputs, old.outputs);
    } finally {
      ctx.snapshot.end(operation);
    }
  }
  // A delete-before-replace keeps the object in state, pending its replacement, until the create succeeds. Apply sets
  // `s.old.PendingReplacement` after the DryRun branch, so in a preview too (on the deployment's own copy of the olds).
  if (pendingReplace) old.pendingReplacement = true;
  else if (!ctx.preview) ctx.snapshot.remove(old);
}

function isProvider(state: ResourceState): boolean {
  return state.type.startsWith("pulumi:providers:");
}

/** How a step is reported. */
export function recordOf(step: Step): StepRecord {
  const state = "new" in step ? step.new : step.old;
  const record: StepRecord = { op: step.kind, urn: state.urn, name: nameOf(state.urn), type: state.type };
  if ("keys" in step && step.keys.length > 0) record.keys = step.keys;
  if (step.kind === "update") record.diffs = step.diffs;
  return record;
}
