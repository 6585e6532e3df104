/**
 * PATCH of a compute, and the explanation of what users hit when moving one: a branch holds one primary, and
 * `branch_id` in an update is deprecated (OpenAPI: "will be removed in a future release").
 */
import type { Operation } from "../sdk";
import { ApiEndpoint, toPatchBody } from "./compute-mapping";
import { carriesOwnerTag } from "./compute-owner";
import { errorKind } from "./errors";
import { client } from "./runtime";

type Props = Record<string, unknown>;

/**
 * Sends one PATCH with only `properties`, and answers the compute with the operations it started; a refused branch
 * move names the branch and the compute already there.
 */
export async function patchCompute(
  projectId: string,
  id: string,
  news: Props,
  properties: string[],
): Promise<{ endpoint: ApiEndpoint; operations: readonly Operation[] }> {
  const body = toPatchBody(news, properties);
  try {
    const { endpoint, operations } = await client().endpoints.update(projectId, id, body);
    return { endpoint: endpoint as ApiEndpoint, operations };
  } catch (error) {
    const branchId = body.endpoint.branch_id;
    if (errorKind(error) === "conflict" && branchId) {
      const message = await describeBranchConflict(projectId, String(branchId), { movingId: id });
      throw new Error(message, { cause: error });
    }
    if (errorKind(error) === "validation" && branchId)
      throw new Error(moveRefused(id, String(branchId), error), { cause: error });
    throw error;
  }
}

/** A move the service refused: branch_id in an update is deprecated, so a replacement is the way to move. */
function moveRefused(id: string, branchId: string, error: unknown): string {
  return (
    `the service refused to move compute ${id} to branch ${branchId} (${(error as Error).message}). Moving a compute ` +
    `with an update (branch_id) is deprecated by Neon; replace it instead: give the resource the option ` +
    `replacementTrigger set to its branchId, so that a new branch means a new compute there (created first, then ` +
    `the old one deleted; for a primary also deleteBeforeReplace: true)`
  );
}

/** What was being done when a branch's one primary was in the way. */
export type BranchConflictCause = { movingId: string } | { creating: Record<string, unknown> };

/**
 * "read_write endpoint already exists" does not say which compute holds the branch: look it up, so the message says
 * what to do. A compute whose name carries the creating resource's tag is either the compute this resource is being
 * replaced from (Pulumi creates the replacement first) or one an interrupted run made for it.
 */
export async function describeBranchConflict(
  projectId: string,
  branchId: string,
  cause: BranchConflictCause,
): Promise<string> {
  const holder = await primaryOf(projectId, branchId);
  const there = holder
    ? `its primary (read_write) compute is ${holder.id}`
    : "it already has a primary (read_write) compute";
  const what =
    "movingId" in cause
      ? `cannot move compute ${cause.movingId} to branch ${branchId}`
      : `cannot create a primary compute on branch ${branchId}`;
  return `${what}: ${there}, and a branch holds only one. To proceed: ${remedy(cause, holder)}.`;
}

function remedy(cause: BranchConflictCause, holder: ApiEndpoint | undefined): string {
  const id = holder?.id ?? "ep-...";
  if ("movingId" in cause) return `move or delete ${id} first, or make this compute type read_only`;
  if (holder && carriesOwnerTag(holder, cause.creating)) {
    return (
      `${id} carries this resource's tag (its project, stack and resource names), so it is one of three: the compute ` +
      `this resource is being replaced from (pulumi up --replace, a replacementTrigger, a new parent: Pulumi creates ` +
      `the new compute before deleting the old one), so give this resource the option deleteBeforeReplace: true; or ` +
      `one an interrupted pulumi up made for it (Pulumi then warned of a pending create): nothing uses it, so delete ` +
      `it (a compute holds no data; its branch does) and run pulumi up again; or the primary of another stack with ` +
      `the same project and stack names (another backend or organization): it is not yours, so use another branch`
    );
  }
  return (
    `if ${id} belongs to a resource this update removes, Pulumi creates before it deletes: remove that resource in ` +
    `an update of its own first (or run pulumi up --continue-on-error, then again); if nothing manages it, adopt it ` +
    `with adoptId: "${id}"; for a read replica set type: "read_only"`
  );
}

async function primaryOf(projectId: string, branchId: string): Promise<ApiEndpoint | undefined> {
  try {
    const computes = (await client().endpoints.listForBranch(projectId, branchId)) as ApiEndpoint[];
    return computes.find((compute) => compute.type === "read_write");
  } catch {
    return undefined;
  }
}
