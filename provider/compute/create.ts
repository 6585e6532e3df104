/**
 * Creating a compute without duplicates, orphans, or taking anyone's compute.
 *
 * - Every attempt sends a name unique to it (owner.ts). A create whose response was lost (kind `ambiguous`)
 *   is settled, inside the project lock, by looking for that exact name; only when no attempt's name is on the
 *   branch is the create sent again, with a new name (shared/lifecycle.ts createSettled). A compute of an earlier attempt that turns up after a later
 *   attempt succeeded is provably ours and unused: it is deleted.
 * - Before anything is sent, computes on the branch named for this resource that nobody is known to manage (an
 *   interrupted `up` made them, `pulumi state delete` forgot them) refuse the create, naming them (owner.ts, strays).
 * - A program's own `name` is applied by a PATCH once the compute exists, so that the create itself still carries
 *   the attempt's mark.
 * - A compute that exists but whose start failed or timed out is reported with its id (ResourceInitError), so the
 *   engine keeps it in state and the next `up` repairs it instead of creating another.
 */
import type { Endpoint } from "../../client";
import { ApiEndpoint, toCreateBody, toOutputs } from "./outputs";
import { attemptName, noteSent, refuseStrays } from "./owner";
import { describeBranchConflict, poolerRefusal } from "./refusal";
import { patchCompute } from "./update";
import { createdIdOf, errorKind, ResourceInitError } from "../shared/errors";
import { createSettled, recordedAsItIs } from "../shared/lifecycle";
import { warn } from "../shared/diagnostics";
import { client } from "../shared/runtime";

type Props = Record<string, unknown>;

export async function createCompute(inputs: Props): Promise<ApiEndpoint> {
  await refuseStrays(inputs);
  const projectId = String(inputs.projectId);
  const sent: string[] = [];
  const recover = () => findSent(inputs, sent);
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

/** The compute one of this create's attempts made, found by its unique name (called inside the project lock). */
async function findSent(inputs: Props, sent: string[]): Promise<Endpoint | undefined> {
  const computes = await client().endpoints.listForBranch(String(inputs.projectId), String(inputs.branchId));
  return computes.find((compute) => typeof compute.name === "string" && sent.includes(compute.name));
}

/**
 * An earlier attempt whose response was lost and that the read-back did not find may still have been applied
 * later. Its compute carries that attempt's unique name, so it is ours beyond doubt, and nobody holds its id.
 */
async function deleteEarlierAttempts(inputs: Props, sent: string[], keptId: string): Promise<void> {
  const projectId = String(inputs.projectId);
  try {
    const computes = await client().endpoints.listForBranch(projectId, String(inputs.branchId));
    const strays = computes.filter((c) => c.id !== keptId && typeof c.name === "string" && sent.includes(c.name));
    for (const stray of strays) await client().endpoints.delete(projectId, stray.id);
  } catch {
    warn(
      `compute ${keptId} was created after an attempt whose response was lost; a compute named ` +
        `${sent.slice(0, -1).join(" or ")} on branch ${String(inputs.branchId)}, if there is one, is an unused ` +
        `duplicate made by that attempt: delete it`,
    );
  }
}

/** Applies the program's own `name` (the create sent the attempt's name); a failure keeps the compute in state. */
async function withDeclaredName(endpoint: ApiEndpoint, inputs: Props): Promise<ApiEndpoint> {
  if (inputs.name === undefined || endpoint.name === inputs.name) return endpoint;
  try {
    return (await patchCompute(String(inputs.projectId), endpoint.id, inputs, ["name"])).endpoint;
  } catch (error) {
    throw new ResourceInitError(endpoint.id, toOutputs(endpoint, inputs), error, inputs);
  }
}

/**
 * A create failed. A primary refused because its branch has one gets an explanation naming that compute; a refusal of
 * the deprecated pooler fields says to remove them. If the compute exists (the client names it in `resourceId` when
 * waiting failed), it is reported with its id so the engine keeps it. Anything else stands as it is.
 */
async function failedCreate(inputs: Props, error: unknown): Promise<unknown> {
  const projectId = String(inputs.projectId);
  const pooler = poolerRefusal(error, toCreateBody(inputs).endpoint);
  if (pooler) return pooler;
  if (errorKind(error) === "conflict" && (inputs.type ?? "read_write") === "read_write") {
    return new Error(await describeBranchConflict(projectId, String(inputs.branchId), { creating: inputs }), {
      cause: error,
    });
  }
  const createdId = createdIdOf(error);
  if (createdId === undefined) return error;
  return recordedAsItIs(createdId, inputs, error, {
    read: async () => toOutputs((await client().endpoints.get(projectId, createdId)) as ApiEndpoint, inputs),
    unread: unreadOutputs(createdId, inputs),
  });
}

/**
 * Outputs for a compute that exists but could not be read: the inputs with the service's defaults filled in, never
 * different from `inputs` in what replaces (a missing `type` would read as a change of type, and replace the compute).
 */
export function unreadOutputs(id: string, inputs: Props): Props {
  return { ...inputs, type: inputs.type ?? "read_write", endpointId: id };
}
