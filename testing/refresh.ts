/**
 * `pulumi refresh`: RefreshStep.Apply of pulumi/pulumi `pkg/resource/deploy/step.go` for every resource in state,
 * in parallel (GenerateRefreshes, executed as one antichain).
 *
 * - Components, providers and objects pending replacement are not read.
 * - Read(id, inputs = old inputs, properties = old outputs); an empty id means the object is gone: it leaves state.
 * - The inputs a Read returns replace the stored ones (else they stay); outputs are re-marked secret as for any step.
 * - Then the refresh diff: Diff(old_inputs = refreshed inputs, olds = refreshed outputs, news = OLD inputs), the diff
 *   a no-change `up` right after would show, inverted (through diffResource, so DIFF_UNKNOWN compares the inputs);
 *   whatever the provider prints there shows during refresh.
 * - The refreshed state takes the old one's place in the snapshot (rebuildBaseState keeps the order).
 */
import { resolveUnknownDiff } from "./diff";
import { Pool } from "./executor";
import { ProviderHost } from "./provider";
import { SnapshotManager } from "./snapshot";
import { ResourceState } from "./state";
import { StepRecord } from "./steps";
import { isProviderType, nameOf } from "./urn";
import { markSecretOutputs } from "./values";

export interface RefreshContext {
  preview: boolean;
  provider: ProviderHost;
  snapshot: SnapshotManager;
  pool: Pool;
  onError(error: unknown, urn: string): void;
}

export async function readAll(olds: ResourceState[], ctx: RefreshContext): Promise<StepRecord[]> {
  const readable = olds.filter((old) => old.custom && !isProviderType(old.type) && !old.pendingReplacement);
  const records = await Promise.all(
    readable.map((old) =>
      ctx.pool.run(async () => {
        try {
          return await refreshOne(old, ctx);
        } catch (error) {
          ctx.onError(error, old.urn);
          return { ...recordOf(old), error: error instanceof Error ? error.message : String(error) };
        }
      }),
    ),
  );
  return records;
}

async function refreshOne(old: ResourceState, ctx: RefreshContext): Promise<StepRecord> {
  const read = await ctx.provider.read(old.urn, old.id, old.inputs, old.outputs);
  if (!read.id) {
    if (!ctx.preview) ctx.snapshot.remove(old);
    return { ...recordOf(old), found: "delete" };
  }
  const state: ResourceState = { ...structuredClone(old), id: read.id, initErrors: undefined };
  state.inputs = read.inputs ?? old.inputs;
  state.outputs = markSecretOutputs(read.outputs, state.inputs, state.additionalSecretOutputs);
  const answer = await ctx.provider.diff(state.urn, state.id, state.inputs, state.outputs, old.inputs);
  const diff = resolveUnknownDiff(answer, state.inputs, old.inputs, old.ignoreChanges);
  if (!ctx.preview) ctx.snapshot.replaceInPlace(old, state);
  return { ...recordOf(old), found: diff.changes === "none" ? "same" : "update" };
}

function recordOf(state: ResourceState): StepRecord {
  return { op: "refresh", urn: state.urn, name: nameOf(state.urn), type: state.type };
}
