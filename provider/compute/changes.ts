/**
 * Compute's requests: a create, an adoption (`adoptId`) and an update in place (what a refusal means: refusal.ts).
 *
 * - A create never duplicates, orphans or takes anyone's compute: each attempt sends a name unique to it, and a lost
 *   answer is settled by looking for that name (owner-tag.ts; shared/lifecycle.ts createSettled). A program's own
 *   `name` is PATCHed afterwards; a compute that exists but failed to start is reported with its id (ResourceInitError).
 * - Adopting (shared/adoption.ts) refuses what cannot change in place and a compute another state may hold, and
 *   PATCHes what differs; a compute the program does not name gets this resource's tagged name.
 * - An update is one PATCH of what changed, then for a new `restartTriggers` value one restart: none if the PATCH
 *   restarted the compute, none of an idle one (api.md, Restart: "works only on an active compute"). A value the
 *   service answers differently is recorded in `overridden` and reported once (plan.ts outputsAfter).
 */
import type { Endpoint, Operation } from "../../client";
import { attemptName, carriesOwnerTag, heldByAnother, noteSent, refuseStrays } from "./owner-tag";
import {
  ApiEndpoint,
  outputsAfter,
  Overrides,
  planComputeChange,
  recordedOutputs,
  toCreateBody,
  toOutputs,
  toPatchBody,
  unreadOutputs,
} from "./plan";
import { ADOPTABLE, describeBranchConflict, explainRefusal, moveRefusedFor, poolerRefusal } from "./refusal";
import * as adoption from "../shared/adoption";
import { warn } from "../shared/diagnostics";
import { createdIdOf, errorKind, ResourceInitError } from "../shared/errors";
import { createSettled, recordedAsItIs } from "../shared/lifecycle";
import { client } from "../shared/runtime";

type Props = Record<string, unknown>;

/** The compute `id` as the service has it now. */
export const readCompute = async (projectId: string, id: string): Promise<ApiEndpoint> =>
  (await client().endpoints.get(projectId, id)) as ApiEndpoint;

/** The computes on the branch `inputs` name. */
const onBranch = async (inputs: Props): Promise<ApiEndpoint[]> =>
  (await client().endpoints.listForBranch(String(inputs.projectId), String(inputs.branchId))) as ApiEndpoint[];

/** The computes on the branch that carry one of this create's attempt names. */
const madeBy = async (inputs: Props, sent: string[]): Promise<ApiEndpoint[]> =>
  (await onBranch(inputs)).filter((compute) => sent.includes(String(compute.name)));

export async function createCompute(inputs: Props): Promise<ApiEndpoint> {
  await refuseStrays(inputs, () => onBranch(inputs));
  const projectId = String(inputs.projectId);
  const sent: string[] = [];
  // Called inside the project lock: the compute one of this create's attempts made, found by its unique name.
  const recover = async () => (await madeBy(inputs, sent))[0] as Endpoint | undefined;
  const sendOne = async () => {
    const name = attemptName(inputs);
    sent.push(name);
    noteSent(name);
    return (await client().endpoints.create(projectId, toCreateBody({ ...inputs, name }), { recover })).endpoint;
  };
  const endpoint = await createSettled(sendOne).catch(async (error) =>
    Promise.reject(await failedCreate(inputs, error)),
  );
  if (sent.length > 1) await deleteEarlierAttempts(inputs, sent, endpoint.id);
  return withDeclaredName(endpoint as ApiEndpoint, inputs);
}

/** An attempt whose answer was lost may have been applied later: its unique name proves it ours, and unused. */
async function deleteEarlierAttempts(inputs: Props, sent: string[], keptId: string): Promise<void> {
  try {
    const strays = (await madeBy(inputs, sent)).filter((compute) => compute.id !== keptId);
    for (const stray of strays) await client().endpoints.delete(String(inputs.projectId), stray.id);
  } catch {
    warn(
      `compute ${keptId} was created after an attempt whose response was lost; a compute named ` +
        `${sent.slice(0, -1).join(" or ")} on branch ${String(inputs.branchId)}, if there is one, is an unused ` +
        `duplicate made by that attempt: delete it`,
    );
  }
}

/** Applies the program's own `name` (the create sent the attempt's); a failure keeps the compute in state. */
async function withDeclaredName(endpoint: ApiEndpoint, inputs: Props): Promise<ApiEndpoint> {
  if (inputs.name === undefined || endpoint.name === inputs.name) return endpoint;
  try {
    return (await patchCompute(String(inputs.projectId), endpoint.id, inputs, ["name"])).endpoint;
  } catch (error) {
    throw new ResourceInitError(endpoint.id, toOutputs(endpoint, inputs), error, inputs);
  }
}

/** A failed create: the pooler fields or a branch's primary explained; a compute that exists recorded with its id. */
async function failedCreate(inputs: Props, error: unknown): Promise<unknown> {
  const projectId = String(inputs.projectId);
  const pooler = poolerRefusal(error, toCreateBody(inputs).endpoint);
  if (pooler) return pooler;
  if (errorKind(error) === "conflict" && (inputs.type ?? "read_write") === "read_write") {
    const message = await describeBranchConflict(projectId, String(inputs.branchId), { creating: inputs });
    return new Error(message, { cause: error });
  }
  const createdId = createdIdOf(error);
  if (createdId === undefined) return error;
  return recordedAsItIs(createdId, inputs, error, {
    read: async () => toOutputs(await readCompute(projectId, createdId), inputs),
    unread: unreadOutputs(createdId, inputs),
  });
}

/** Takes the compute `inputs.adoptId` under management (again, for a replacement: shared/adoption.ts). */
export async function adoptCompute(inputs: Props): Promise<ApiEndpoint> {
  const [projectId, id] = [String(inputs.projectId), String(inputs.adoptId)];
  const existing = await adoption.readForAdoption(ADOPTABLE, projectId, id, () => readCompute(projectId, id));
  const current = toOutputs(existing, inputs);
  const plan = planComputeChange(current, inputs);
  if (plan.replaces.length > 0) {
    const why = plan.replaces.map((p) => `${p} is ${String(current[p])} on the service`);
    throw adoption.cannotAdopt(ADOPTABLE, existing.id, why.join("; "), "these cannot change in place");
  }
  const another = heldByAnother(existing, inputs);
  if (another) throw new Error(another);
  // A compute this resource already named (a re-adoption) keeps its name.
  const rename = inputs.name === undefined && !carriesOwnerTag(existing, inputs);
  const named = rename ? { ...inputs, name: attemptName(inputs) } : inputs;
  const patch = rename ? [...plan.patch, "name"] : plan.patch;
  // `current`: a PATCH of one setting keeps the other as the compute has it (toPatchBody).
  return patch.length > 0 ? (await patchCompute(projectId, existing.id, named, patch, current)).endpoint : existing;
}

/** Applies `news` to the compute whose outputs are `olds`; returns the new outputs. */
export async function updateCompute(id: string, olds: Props, news: Props): Promise<Props> {
  const plan = planComputeChange(olds, news);
  // Only the provider's records changed (a removed adoptId, say): nothing to send, nothing to read.
  if (plan.changes && plan.patch.length === 0 && !plan.restartByTrigger) return recordedOutputs(olds, news);
  const projectId = String(olds.projectId);
  let endpoint: ApiEndpoint | undefined;
  let operations: readonly Operation[] = [];
  if (plan.patch.length > 0) ({ endpoint, operations } = await patchCompute(projectId, id, news, plan.patch, olds));
  // A PATCH whose operations started the compute again (a restart or a start) runs the new configuration already.
  const started = operations.some((operation) => operation.action === "start_compute");
  if (plan.restartByTrigger && !started) endpoint = await restartIfRunning(projectId, id, endpoint);
  endpoint ??= await readCompute(projectId, id);
  return outputsAfter(endpoint, news, plan.patch, olds.overridden as Overrides | undefined);
}

/** Restarts the compute if it runs; an idle one is left as it is (nothing runs, nothing to restart). */
async function restartIfRunning(projectId: string, id: string, known?: ApiEndpoint): Promise<ApiEndpoint> {
  const isRunning = (endpoint: ApiEndpoint) =>
    endpoint.current_state === "active" || endpoint.pending_state === "active";
  const current = known ?? (await readCompute(projectId, id));
  if (!isRunning(current)) return current;
  try {
    return (await client().endpoints.restart(projectId, id)).endpoint as ApiEndpoint;
  } catch (error) {
    // It may have been suspended between the read and the restart: the service then refuses (api.md, Restart).
    if (!["validation", "conflict", "locked"].includes(errorKind(error) ?? "")) throw error;
    const now = await readCompute(projectId, id);
    if (isRunning(now)) throw error;
    return now;
  }
}

/**
 * One PATCH of `properties` (with the settings `current` keeps: toPatchBody); answers the compute and the operations
 * it started. A move the service refused, or answered without making, fails saying why and how to move instead.
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

/** A move the service answered without making: carries the compute as left, so the update records what was applied. */
export class MoveNotMade extends Error {
  constructor(
    message: string,
    readonly endpoint: ApiEndpoint,
  ) {
    super(message);
    this.name = "MoveNotMade";
  }
}
