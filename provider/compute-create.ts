/**
 * Creating a compute without duplicates or orphans.
 *
 * - A create whose response was lost (kind `ambiguous`) is never resent blindly: the branch's computes are
 *   read, our compute is recognised, and only when it is absent is the create sent again.
 * - A compute that exists but whose start failed or timed out is reported with its id (ResourceInitError),
 *   so the engine keeps it in state and the next `up` repairs it instead of creating another.
 */
import type { Endpoint } from "../sdk";
import { ApiEndpoint, toCreateBody, toOutputs } from "./compute-mapping";
import { planComputeChange } from "./compute-diff";
import { describeBranchConflict, patchCompute } from "./compute-patch";
import { errorKind, ResourceInitError } from "./errors";
import { claimed, findLeftBehind, withOwnerName } from "./compute-owner";
import { client } from "./runtime";

type Props = Record<string, unknown>;

/** How far the service's clock may lag ours when recognising a compute created by a lost request. */
const CLOCK_SKEW_MS = 30_000;

export async function createCompute(inputs: Props, attempt = 1): Promise<ApiEndpoint> {
  const projectId = String(inputs.projectId);
  const leftBehind = attempt === 1 ? await findLeftBehind(inputs) : undefined;
  if (leftBehind) return adoptExisting(leftBehind as ApiEndpoint, inputs);
  const sentAt = Date.now();
  try {
    const recover = () => findOwnCompute(inputs, sentAt);
    const { endpoint } = await client().endpoints.create(projectId, toCreateBody(withOwnerName(inputs)), { recover });
    claimed.add(endpoint.id);
    return endpoint as ApiEndpoint;
  } catch (error) {
    return failedCreate(inputs, error, attempt);
  }
}

/**
 * A create failed. If the compute exists (the client names it in `resourceId` when waiting failed), report it
 * with its id so the engine keeps it; if the outcome was unknown and the read found nothing, it was never made,
 * so sending again is safe.
 */
async function failedCreate(inputs: Props, error: unknown, attempt: number): Promise<ApiEndpoint> {
  const projectId = String(inputs.projectId);
  const kind = errorKind(error);
  if (kind === "conflict" && (inputs.type ?? "read_write") === "read_write") {
    throw new Error(await describeBranchConflict(projectId, String(inputs.branchId)), { cause: error });
  }
  const createdId = (error as { resourceId?: string }).resourceId;
  if (createdId) {
    claimed.add(createdId);
    throw new ResourceInitError(createdId, await currentOutputs(projectId, createdId, inputs), error, inputs);
  }
  if (kind === "ambiguous" && attempt < 3) return createCompute(inputs, attempt + 1);
  throw error;
}

/**
 * The compute's outputs as it is now; when it cannot be read, the inputs with the service's defaults filled in
 * (a missing `type` would otherwise read as a change of type, and the next `up` would replace the compute).
 */
async function currentOutputs(projectId: string, id: string, inputs: Props): Promise<Props> {
  try {
    return toOutputs((await client().endpoints.get(projectId, id)) as ApiEndpoint, inputs);
  } catch {
    return unreadOutputs(id, inputs);
  }
}

/** Outputs for a compute that exists but could not be read: never different from `inputs` in what replaces. */
export function unreadOutputs(id: string, inputs: Props): Props {
  return { ...inputs, type: inputs.type ?? "read_write", endpointId: id };
}

/** The compute a lost create made: on the branch, of our type and sizes, created since we sent, not claimed. */
async function findOwnCompute(inputs: Props, sentAt: number): Promise<Endpoint | undefined> {
  const computes = await client().endpoints.listForBranch(String(inputs.projectId), String(inputs.branchId));
  const body: Record<string, unknown> = toCreateBody(withOwnerName(inputs)).endpoint;
  return computes
    .filter((c) => !claimed.has(c.id) && Date.parse(String(c.created_at)) >= sentAt - CLOCK_SKEW_MS)
    .filter((c) =>
      Object.entries(body).every(
        ([field, value]) => field === "settings" || (c as Record<string, unknown>)[field] === value,
      ),
    )
    .sort((a, b) => Date.parse(String(a.created_at)) - Date.parse(String(b.created_at)))[0];
}

/**
 * Takes an existing compute under management (Pulumi's import cannot reach a dynamic provider): reads it,
 * refuses what cannot change in place, and PATCHes what differs from the program.
 */
export async function adoptCompute(inputs: Props): Promise<ApiEndpoint> {
  const existing = await getForAdoption(String(inputs.projectId), String(inputs.adoptId));
  return adoptExisting(existing, inputs);
}

/** Refuses what cannot change in place, claims the compute, and PATCHes what differs from the program. */
async function adoptExisting(existing: ApiEndpoint, inputs: Props): Promise<ApiEndpoint> {
  const current = toOutputs(existing, inputs);
  const plan = planComputeChange(current, inputs);
  if (plan.replaces.length > 0) {
    const why = plan.replaces.map((p) => `${p} is ${String(current[p])} but the program says ${String(inputs[p])}`);
    throw new Error(
      `adoptId: compute ${existing.id} cannot be adopted as declared: ${why.join("; ")} (these cannot change in place)`,
    );
  }
  claimed.add(existing.id);
  const projectId = String(inputs.projectId);
  return plan.patch.length > 0 ? patchCompute(projectId, existing.id, inputs, plan.patch) : existing;
}

async function getForAdoption(projectId: string, id: string): Promise<ApiEndpoint> {
  try {
    return (await client().endpoints.get(projectId, id)) as ApiEndpoint;
  } catch (error) {
    if (errorKind(error) === "not_found") {
      throw new Error(`adoptId: compute ${id} does not exist in project ${projectId}`, { cause: error });
    }
    throw error;
  }
}
