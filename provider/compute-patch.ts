/**
 * PATCH of a compute, and the explanation of what users hit when moving one: a branch holds one primary, and
 * `branch_id` in an update is deprecated (OpenAPI: "will be removed in a future release").
 */
import type { Operation } from "../sdk";
import { ApiEndpoint, toPatchBody } from "./compute-mapping";
import { carriesOwnerTag } from "./compute-owner";
import { poolerRefusal, refusalAbout } from "./compute-refusal";
import { errorKind } from "./errors";
import { client } from "./runtime";

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

/**
 * A refused PATCH, explained where the refusal is plausibly about something the provider can advise on: the
 * deprecated pooler fields (compute-refusal.ts), or the move (`branch_id` is deprecated). A refusal that names another field (a size a Free plan refuses, sent with a move)
 * passes with the service's own message; one that names nothing the provider can tell gets the move advice
 * conditionally, after the service's message.
 */
async function explainRefusal(
  projectId: string,
  id: string,
  news: Props,
  fields: Record<string, unknown>,
  error: unknown,
): Promise<unknown> {
  const pooler = poolerRefusal(error, fields);
  if (pooler) return pooler;
  const branchId = fields.branch_id;
  if (typeof branchId !== "string") return error;
  const about = refusalAbout(error, /branch/i, fields, ["branch_id"]);
  if (about === "subject") {
    return new Error(await moveRefusedFor(projectId, id, news, branchId, (error as Error).message), { cause: error });
  }
  if (about !== "unclear") return error;
  const advice = `If the refusal is about moving compute ${id} to branch ${branchId}: ${MOVE_BY_REPLACEMENT}`;
  return new Error(`${(error as Error).message}. ${advice}`, { cause: error });
}

/** The move error for this compute: for a primary whose target branch has one, the branch conflict comes first. */
async function moveRefusedFor(
  projectId: string,
  id: string,
  news: Props,
  branchId: string,
  why: string,
): Promise<string> {
  const holder = news.type === "read_only" ? undefined : await primaryOf(projectId, branchId);
  if (holder && holder.id !== id) {
    const conflict = branchConflictMessage(branchId, { movingId: id }, holder);
    return `the service did not move compute ${id} (${why}); and even by replacement, ${conflict}`;
  }
  return moveRefused(id, branchId, why);
}

/**
 * A move the service did not make: `branch_id` in an update is deprecated, and once it is removed the service may
 * refuse it or ignore it as an unknown field (the compute then stays where it was). Either way a replacement is the
 * way to move, and the update fails rather than record a compute on a branch it is not on.
 */
function moveRefused(id: string, branchId: string, why: string): string {
  return `the service did not move compute ${id} to branch ${branchId} (${why}). ${MOVE_BY_REPLACEMENT}`;
}

const MOVE_BY_REPLACEMENT =
  "Moving a compute with an update (branch_id) is deprecated by Neon; replace it instead: pulumi up --replace <its " +
  "URN> makes a new compute on the new branch, then deletes this one (no deleteBeforeReplace needed: the new branch " +
  "has no primary); the option replacementTrigger set to the branchId makes later branch changes replacements";

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
  return branchConflictMessage(branchId, cause, await primaryOf(projectId, branchId));
}

/** The branch-conflict message, for a branch whose primary is `holder` (undefined when it could not be read). */
function branchConflictMessage(branchId: string, cause: BranchConflictCause, holder: ApiEndpoint | undefined): string {
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
  if (holder && carriesOwnerTag(holder, cause.creating)) return taggedRemedy(id);
  return (
    `if ${id} belongs to a resource this update removes, Pulumi creates before it deletes: remove that resource in ` +
    `an update of its own first (or run pulumi up --continue-on-error, then again); if nothing manages it, adopt it ` +
    `with adoptId: "${id}"; for a read replica set type: "read_only"`
  );
}

/**
 * The branch's primary carries this resource's tag. The provider cannot see the resource's options, so the advice
 * holds whether or not it already has deleteBeforeReplace (an interrupted `up --replace` of one that has it leaves
 * the compute of the interrupted attempt on the branch: adding the option again would change nothing). Nor can it
 * see the URN: a resource moved under a new parent keeps its tag (project, stack, name), and there the option does
 * nothing (the real engine creates the new URN, then deletes the old one: test/cli/scenarios-replace-parent.test.ts),
 * so the advice for that case is an alias.
 */
function taggedRemedy(id: string): string {
  return (
    `${id} carries this resource's tag (its project, stack and resource names). If this is a replacement (pulumi up ` +
    `--replace, a replacementTrigger: Pulumi creates the new compute before deleting the old one) and ` +
    `the resource does not have the option deleteBeforeReplace: true, ${id} is most likely the compute it replaces: ` +
    `give the resource that option. If the resource was moved under a new parent without an alias, Pulumi sees a new ` +
    `resource, creates it before deleting the old one whatever the options (deleteBeforeReplace does not apply), and ` +
    `${id} is the compute of its old place: give the resource an alias to that place (aliases: [{ parent: <the old ` +
    `parent> }], or pulumi.rootStackResource if it had none) and the compute stays as it is. Otherwise (it has the ` +
    `option, or this is no replacement), ${id} was probably ` +
    `left by an interrupted pulumi up (Pulumi then warned of a pending create): nothing uses it, so delete it (a ` +
    `compute holds no data; its branch does) and run pulumi up again. If neither fits, it may be the primary of ` +
    `another stack with the same project and stack names (another backend or organization): it is not yours, so use ` +
    `another branch`
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
