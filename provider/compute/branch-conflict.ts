/**
 * A branch holds one primary (read_write) compute: when creating or moving a primary meets the one already there, say
 * which compute holds the branch and what to do, judged by whose tag that compute carries.
 */
import { client } from "../shared/runtime";
import { ApiEndpoint } from "./mapping";
import { carriesOwnerTag } from "./owner";

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
export function branchConflictMessage(
  branchId: string,
  cause: BranchConflictCause,
  holder: ApiEndpoint | undefined,
): string {
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
    `if nothing manages ${id} (pulumi state delete forgot it, say), adopt it: set adoptId: "${id}", run pulumi up, ` +
    `then remove adoptId; if it belongs to a resource this update removes, Pulumi creates before it deletes: remove ` +
    `that resource in an update of its own first (or run pulumi up --continue-on-error, then again); for a read ` +
    `replica set type: "read_only"`
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
    `option, or this is no replacement), no state holds ${id}: an interrupted pulumi up made it (Pulumi then warned ` +
    `of a pending create) or pulumi state delete forgot it, and it may be in use: adopt it (set adoptId: "${id}", run ` +
    `pulumi up, then remove adoptId), or, if nothing uses it, delete it and run pulumi up again. If neither fits, it ` +
    `may be the primary of another stack with the same project and stack names (another backend or organization): ` +
    `it is not yours, so use another branch`
  );
}

export async function primaryOf(projectId: string, branchId: string): Promise<ApiEndpoint | undefined> {
  try {
    const computes = (await client().endpoints.listForBranch(projectId, branchId)) as ApiEndpoint[];
    return computes.find((compute) => compute.type === "read_write");
  } catch {
    return undefined;
  }
}
