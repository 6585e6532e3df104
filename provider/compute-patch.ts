/**
 * PATCH of a compute, and the explanation of the one conflict users hit: a branch holds one primary.
 */
import { ApiEndpoint, toPatchBody } from "./compute-mapping";
import { errorKind } from "./errors";
import { client } from "./runtime";

type Props = Record<string, unknown>;

/** Sends one PATCH with only `properties`; a refused branch move names the branch and the compute already there. */
export async function patchCompute(
  projectId: string,
  id: string,
  news: Props,
  properties: string[],
): Promise<ApiEndpoint> {
  const body = toPatchBody(news, properties);
  try {
    return (await client().endpoints.update(projectId, id, body)).endpoint as ApiEndpoint;
  } catch (error) {
    if (errorKind(error) === "conflict" && body.endpoint.branch_id) {
      throw new Error(await describeBranchConflict(projectId, String(body.endpoint.branch_id), id), { cause: error });
    }
    throw error;
  }
}

/**
 * "read_write endpoint already exists" does not say which one: look it up so the message says what to do.
 * `movingId` is the compute being moved (undefined for a create).
 */
export async function describeBranchConflict(projectId: string, branchId: string, movingId?: string): Promise<string> {
  const what = movingId
    ? `cannot move compute ${movingId} to branch ${branchId}`
    : `cannot create a primary compute on branch ${branchId}`;
  const holder = await primaryOf(projectId, branchId);
  const there = holder
    ? `its primary (read_write) compute is ${holder}`
    : "it already has a primary (read_write) compute";
  const fix = movingId
    ? `move or delete ${holder ?? "that compute"} first, or make this compute type read_only`
    : `if ${holder ?? "it"} belongs to a resource this update removes, Pulumi creates before it deletes: remove ` +
      `that resource in an update of its own first (or run pulumi up --continue-on-error, then again); ` +
      `if nothing manages it, adopt it with adoptId: "${holder ?? "ep-..."}"; for a read replica set type: "read_only"`;
  return `${what}: ${there}, and a branch holds only one. To proceed: ${fix}.`;
}

async function primaryOf(projectId: string, branchId: string): Promise<string | undefined> {
  try {
    const computes = (await client().endpoints.listForBranch(projectId, branchId)) as ApiEndpoint[];
    return computes.find((compute) => compute.type === "read_write")?.id;
  } catch {
    return undefined;
  }
}
