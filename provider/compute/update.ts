/**
 * Updating a compute in place: one PATCH of what changed (both sizes together), then, for a new `restartTriggers`
 * value, a restart, but at most one restart per update and none of an idle compute.
 *
 * - A PATCH that restarted the compute (its operations started it again) already did what a trigger asks.
 * - The real service refuses to restart an idle compute (api.md, Restart: "works only on an active compute"); an idle
 *   compute runs nothing, so there is nothing to restart: the trigger is recorded and the update succeeds.
 * - A value the service answers differently than asked (a plan's limit) is recorded in `overridden` and reported once,
 *   so the next `up` does not ask for it again (no permanent diff).
 */
import type { Operation } from "../../sdk";
import { planComputeChange } from "./diff";
import { ApiEndpoint, declaredOf, recordedOutputs, toOutputs } from "./mapping";
import { patchCompute } from "./patch";
import { warn } from "../shared/diagnostics";
import { errorKind } from "../shared/errors";
import { client } from "../shared/runtime";

type Props = Record<string, unknown>;
type Overrides = Record<string, { requested: unknown; service: unknown }>;

/** Applies `news` to the compute whose outputs are `olds`; returns the new outputs. */
export async function updateCompute(id: string, olds: Props, news: Props): Promise<Props> {
  const plan = planComputeChange(olds, news);
  // Only the provider's records changed (a removed adoptId, say): nothing to send, nothing to read.
  if (plan.changes && plan.patch.length === 0 && !plan.restartByTrigger) return recordedOutputs(olds, news);
  const projectId = String(olds.projectId);
  let endpoint: ApiEndpoint | undefined;
  let operations: readonly Operation[] = [];
  if (plan.patch.length > 0) ({ endpoint, operations } = await patchCompute(projectId, id, news, plan.patch));
  if (plan.restartByTrigger && !startedBy(operations)) endpoint = await restartIfRunning(projectId, id, endpoint);
  endpoint ??= (await client().endpoints.get(projectId, id)) as ApiEndpoint;
  return outputsAfter(endpoint, news, plan.patch, olds.overridden as Overrides | undefined);
}

/** True when the operations started the compute again (a restart or a start): it runs the new configuration. */
function startedBy(operations: readonly Operation[]): boolean {
  return operations.some((operation) => operation.action === "start_compute");
}

/** Restarts the compute if it runs; an idle one is left as it is (nothing runs, nothing to restart). */
async function restartIfRunning(projectId: string, id: string, known?: ApiEndpoint): Promise<ApiEndpoint> {
  const current = known ?? ((await client().endpoints.get(projectId, id)) as ApiEndpoint);
  if (!isRunning(current)) return current;
  try {
    return (await client().endpoints.restart(projectId, id)).endpoint as ApiEndpoint;
  } catch (error) {
    // It may have been suspended between the read and the restart: the service then refuses (api.md, Restart).
    if (!["validation", "conflict", "locked"].includes(errorKind(error) ?? "")) throw error;
    const now = (await client().endpoints.get(projectId, id)) as ApiEndpoint;
    if (isRunning(now)) throw error;
    return now;
  }
}

function isRunning(endpoint: ApiEndpoint): boolean {
  return endpoint.current_state === "active" || endpoint.pending_state === "active";
}

/**
 * The outputs after a create or an update, with the provider's records: the inputs the program declared, and the
 * values of `asked` the service set otherwise (reported once; an entry leaves when the service takes the value).
 */
export function outputsAfter(endpoint: ApiEndpoint, news: Props, asked: string[], previous?: Overrides): Props {
  const outputs = toOutputs(endpoint, news);
  const overridden: Overrides = { ...previous };
  const refused = new Set(planComputeChange(outputs, news).patch);
  for (const property of asked) {
    // A value the answer does not report is no override: the service did not say it kept another one.
    if (!refused.has(property) || outputs[property] === undefined) delete overridden[property];
    else if (!(property in overridden)) {
      overridden[property] = { requested: news[property], service: outputs[property] };
      warn(overrideMessage(endpoint.id, news, property, outputs[property]));
    }
  }
  const records: Props = { declared: declaredOf(news) };
  if (Object.keys(overridden).length > 0) records.overridden = overridden;
  return toOutputs(endpoint, { ...news, ...records });
}

function overrideMessage(id: string, news: Props, property: string, service: unknown): string {
  const label = news.resourceName ? `Compute "${String(news.resourceName)}" (${id})` : `Compute ${id}`;
  const value = typeof service === "number" || typeof service === "boolean" ? ` at ${String(service)}` : "";
  return (
    `${label}: the service kept ${property}${value} instead of the value the program asks for (the account's plan ` +
    `may not allow it). This is recorded: the next up will not ask again unless the program's value changes.`
  );
}
