/**
 * PATCH of a compute: one request with only the changed properties, and a move (`branch_id`) the service answered
 * without making. What a refusal means is explained in refusal.ts; a branch's one primary in the way, in
 * branch-conflict.ts.
 */
import type { Operation } from "../../sdk";
import { errorKind } from "../shared/errors";
import { client } from "../shared/runtime";
import { describeBranchConflict } from "./branch-conflict";
import { ApiEndpoint, toPatchBody } from "./mapping";
import { explainRefusal, moveRefusedFor } from "./refusal";

type Props = Record<string, unknown>;

/**
 * Sends one PATCH with only `properties`, and answers the compute with the operations it started; a refused branch
 * move names the branch and the compute already there; a refusal says what to do only where it is about the move or
 * the deprecated pooler fields (`explainRefusal`).
 */
export async function patchCompute(
  projectId: string,
  id: string,
  news: Props,
  properties: string[],
): Promise<{ endpoint: ApiEndpoint; operations: readonly Operation[] }> {
  const body = toPatchBody(news, properties);
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
