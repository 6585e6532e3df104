/**
 * Updating a compute in place: one PATCH of what changed (both sizes together), then, for a new `restartTriggers`
 * value, a restart, but at most one restart per update and none of an idle compute.
 *
 * - A PATCH that restarted the compute (its operations started it again) already did what a trigger asks.
 * - The real service refuses to restart an idle compute (api.md, Restart: "works only on an active compute"); an idle
 *   compute runs nothing, so there is nothing to restart: the trigger is recorded and the update succeeds.
 * - A value the service answers differently than asked (a plan's limit) is recorded in `overridden` and reported once,
 *   so the next `up` does not ask for it again (no permanent diff: outputs.ts).
 * - The PATCH carries only the changed properties; a move (`branch_id`) the service answered without making fails the
 *   update with the compute as the service left it. What a refusal means is explained in refusal.ts, with a branch's one
 *   primary in the way.
 */
import type { Operation } from "../../client";
import { ApiEndpoint, outputsAfter, recordedOutputs, toPatchBody } from "./outputs";
import { Overrides, planComputeChange } from "./plan";
import { describeBranchConflict, explainRefusal, moveRefusedFor } from "./refusal";
import { errorKind } from "../shared/errors";
import { client } from "../shared/runtime";

type Props = Record<string, unknown>;

/** Applies `news` to the compute whose outputs are `olds`; returns the new outputs. */
export async function updateCompute(id: string, olds: Props, news: Props): Promise<Props> {
  const plan = planComputeChange(olds, news);
  // Only the provider's records changed (a removed adoptId, say): nothing to send, nothing to read.
  if (plan.changes && plan.patch.length === 0 && !plan.restartByTrigger) return recordedOutputs(olds, news);
  const projectId = String(olds.projectId);
  let endpoint: ApiEndpoint | undefined;
  let operations: readonly Operation[] = [];
  if (plan.patch.length > 0) ({ endpoint, operations } = await patchCompute(projectId, id, news, plan.patch, olds));
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
 * Sends one PATCH with only `properties` (and the settings `current`, the old outputs, keep beside a changed one:
 * toPatchBody), and answers the compute with the operations it started; a refused branch move names the branch and the
 * compute already there; a refusal says what to do only where it is about the move or the deprecated pooler fields
 * (`explainRefusal`).
 */
export async function patchCompute(
  projectId: string,
  id: string,
  news: Props,
  properties: string[],
  current: Props = {},
): Promise<{ endpoint: ApiEndpoint; operations: readonly Operation[] }> {
  const body = toPatchBody(news, properties, current);
  const branchId = body.endpoint.branch_id;
  const { endpoint, operations } = await client()
    .endpoints.update(projectId, id, body)
    .catch(async (error: unknown) => {
      if (errorKind(error) === "conflict" && branchId) {
        const message = await describeBranchConflict(projectId, String(branchId), { movingId: id });
        throw new Error(message, { cause: error });
      }
      throw await explainRefusal(projectId, id, news, body.endpoint, error);
    });
  if (branchId !== undefined && endpoint.branch_id !== branchId) {
    const stayed = `it stayed on branch ${endpoint.branch_id}; the other changes of this update were applied`;
    throw new MoveNotMade(await moveRefusedFor(projectId, id, news, String(branchId), stayed), endpoint as ApiEndpoint);
  }
  return { endpoint: endpoint as ApiEndpoint, operations };
}

/**
 * A move the service answered without making (it ignored `branch_id`): carries the compute as the service left it,
 * so the update records what was applied (the sizes, say) and the next `up` asks only for the move again.
 */
export class MoveNotMade extends Error {
  constructor(
    message: string,
    readonly endpoint: ApiEndpoint,
  ) {
    super(message);
    this.name = "MoveNotMade";
  }
}
