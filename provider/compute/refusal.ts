/**
 * What Compute tells the user when the service refuses a change, or answers 404 to one.
 *
 * A refusal of a compute write (HTTP 400 or 422) gets advice only where it fits (shared/refusals.ts judges what it is
 * about), and every message built here starts with the service's. A move refused or ignored (`branch_id` in an update
 * is deprecated: OpenAPI, "will be removed in a future release") is explained here too: a replacement is the way to
 * move. A branch holds one primary (read_write) compute: when creating or moving a primary meets the one already there
 * (the service's 409), the message says which compute holds the branch and what to do, judged by whose tag it carries.
 *
 * A 404 while changing a compute is explained by reading the service. Neon answers 404 alike for a compute deleted
 * outside Pulumi, for a branch deleted outside Pulumi and for a project the key does not reach, and each needs its own
 * fix: a raw `HTTP 404: endpoint not found`, with advice about keys, left a user with a deleted compute no way forward.
 * Only what a read proves is said: a project that does not answer says so for an update (nothing can be concluded),
 * and keeps a create's 404 (and its advice: hints.ts).
 */
import type { Branch } from "../../client";
import type { ApiEndpoint } from "./outputs";
import { carriesOwnerTag } from "./owner-tag";
import { computeOf } from "./plan";
import { errorKind, found } from "../shared/errors";
import { explainGone } from "../shared/lifecycle";
import { refusalAbout } from "../shared/refusals";
import { client } from "../shared/runtime";

type Props = Record<string, unknown>;

/** The deprecated pooler fields: input → the field of the request. */
const POOLER_FIELDS: Record<string, string> = { poolerEnabled: "pooler_enabled", poolerMode: "pooler_mode" };

/**
 * A refusal of a request that carried the deprecated pooler fields, with what to do. Neon deprecated them (OpenAPI:
 * `pooler_mode` "will be removed after 2026-06-20", `pooler_enabled` without a date); a service that no longer has
 * them may apply them, ignore them or refuse them. The provider sends them only when the program sets them, and when
 * a refusal is about them (its message mentions pooler) says to remove them; when it cannot tell, it says so
 * conditionally. Undefined when the advice does not apply (no refusal, no pooler field sent, another field named).
 */
export function poolerRefusal(error: unknown, fields: Record<string, unknown>): Error | undefined {
  const sent = Object.keys(POOLER_FIELDS).filter((input) => fields[POOLER_FIELDS[input]] !== undefined);
  if (sent.length === 0) return undefined;
  const about = refusalAbout(error, /pooler/i, fields, Object.values(POOLER_FIELDS));
  if (about !== "subject" && about !== "unclear") return undefined;
  const what = sent.join(" and ");
  const remove =
    `remove ${what} from the program: Neon deprecated the pooler settings, and pooling is always available through ` +
    `the pooled host (the poolerHost output)`;
  const advice =
    about === "subject"
      ? `The service no longer accepts the deprecated pooler settings: ${remove}.`
      : `This request carried the deprecated ${what}; if the refusal is about ${sent.length > 1 ? "them" : "it"}, ${remove}.`;
  return new Error(`${(error as Error).message}. ${advice}`, { cause: error });
}

/**
 * A refused PATCH, explained where the refusal is plausibly about something the provider can advise on: the
 * deprecated pooler fields (poolerRefusal above), or the move (`branch_id` is deprecated). A refusal that names another
 * field (a size a Free plan refuses, sent with a move) passes with the service's own message; one that names nothing
 * the provider can tell gets the move advice conditionally, after the service's message.
 */
export async function explainRefusal(
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

/**
 * The move error for this compute: for a primary whose target branch has one, the branch conflict comes first. Else a
 * move the service did not make: `branch_id` in an update is deprecated, and once it is removed the service may refuse
 * it or ignore it as an unknown field (the compute then stays where it was). Either way a replacement is the way to
 * move, and the update fails rather than record a compute on a branch it is not on.
 */
export async function moveRefusedFor(
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
  return `the service did not move compute ${id} to branch ${branchId} (${why}). ${MOVE_BY_REPLACEMENT}`;
}

const MOVE_BY_REPLACEMENT =
  "Moving a compute with an update (branch_id) is deprecated by Neon; replace it instead: pulumi up --replace <its " +
  "URN> deletes this one, then makes a new compute on the new branch; the option replacementTrigger set to the " +
  "branchId makes later branch changes replacements";

/** What was being done when a branch's one primary was in the way. */
type BranchConflictCause = { movingId: string } | { creating: Record<string, unknown> };

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
    `if nothing manages ${id} (pulumi state delete forgot it, say), adopt it: set adoptId: "${id}", run pulumi up, ` +
    `then remove adoptId; if it belongs to a resource this update removes, Pulumi creates before it deletes: remove ` +
    `that resource in an update of its own first (or run pulumi up --continue-on-error, then again); for a read ` +
    `replica set type: "read_only"`
  );
}

/**
 * The branch's primary carries this resource's tag, and the create still went ahead: the state holds the resource
 * (Check got its old inputs), and either it is the compute this replacement replaces, the program having turned off
 * the Compute class's `deleteBeforeReplace`, or an interrupted replacement made it after deleting the old one (the
 * state then keeps the resource pending replacement). Computes named for the resource that no state is known to hold
 * refuse the create before it is sent (owner-tag.ts).
 */
function taggedRemedy(id: string): string {
  return (
    `${id} carries this resource's tag (its project, stack and resource names). If the resource sets ` +
    `deleteBeforeReplace: false, ${id} is the compute this replacement replaces: remove that option (a branch holds ` +
    `one primary, so the old one must go first). Otherwise an interrupted pulumi up made it: keep it with adoptId: ` +
    `"${id}" (it may be in use), or delete it if nothing uses it, and run pulumi up again`
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

/** What was being changed: the compute's project, its id (an update) and the branch it is (to be) on. */
interface Target {
  projectId: string;
  branchId?: string;
  /** The compute's id, for an update; absent for a create. */
  id?: string;
  /** The Pulumi resource's name (the `resourceName` the Compute class records). */
  resourceName?: unknown;
}

/** The target of a create, from its inputs. */
export const createTarget = (inputs: Props): Target => ({
  projectId: String(inputs.projectId),
  branchId: typeof inputs.branchId === "string" ? inputs.branchId : undefined,
  resourceName: inputs.resourceName,
});

/** The target of an update, from the old outputs and the new inputs: a new `branchId` is a move there. */
export const updateTarget = (id: string, olds: Props, news: Props): Target => ({
  projectId: String(olds.projectId),
  id,
  branchId: typeof news.branchId === "string" && news.branchId !== olds.branchId ? news.branchId : undefined,
  resourceName: news.resourceName ?? olds.resourceName,
});

/**
 * The error to report for `error`: for an update, a 404 of a compute proven gone says so (shared/lifecycle.ts
 * explainGone, whose project check also covers the key's reach); for a create, or a compute still there, a branch
 * missing from its project is named. Anything else, or a read that fails otherwise (no proof of anything), stands.
 */
export async function explainNotFound(error: unknown, target: Target): Promise<unknown> {
  const { id } = target;
  if (id === undefined) return branchMissing(target, error);
  const present = async () => (await found(() => client().endpoints.get(target.projectId, id))) !== undefined;
  return explainGone(error, computeOf(id, target), { present, otherwise: (cause) => branchMissing(target, cause) });
}

/** A 404 of a branch to create the compute on, or to move it to, that its project (answering) does not have. */
async function branchMissing(target: Target, error: unknown): Promise<unknown> {
  if (errorKind(error) !== "not_found" || target.branchId === undefined) return error;
  // The service names what it did not find: a project it did not find is all a read would find out too.
  if (/\bproject\b/i.test((error as { apiMessage?: string }).apiMessage ?? "")) return error;
  try {
    const branches = await found(() => client().branches.list(target.projectId));
    if (branches === undefined || branches.some((branch: Branch) => branch.id === target.branchId)) return error;
  } catch {
    return error; // not a 404: the read proves nothing
  }
  return new Error(branchMissingText(target, error), { cause: error });
}

function label(target: Target): string {
  if (target.id !== undefined) return computeOf(target.id, target).label;
  return typeof target.resourceName === "string" ? `Compute "${target.resourceName}"` : "Compute";
}

/** The branch to create the compute on, or to move it to, is not in its project (deleted outside Pulumi, or a typo). */
function branchMissingText(target: Target, error: unknown): string {
  const what =
    target.id === undefined
      ? `${label(target)} cannot be created on branch ${target.branchId}`
      : `${label(target)} cannot be moved to branch ${target.branchId}`;
  return (
    `${what}: project ${target.projectId} has no such branch (it may have been deleted outside Pulumi) ` +
    `(${(error as Error).message}). Set the Compute's branchId to a branch of project ${target.projectId}.`
  );
}

/**
 * The service refused the delete (it refuses for a compute of a protected branch: api.md, Delete). Says how to let go
 * of the compute without deleting it.
 */
export function deleteRefused(id: string, props: Props, error: unknown): string {
  return (
    `Neon refused to delete compute ${id} (${(error as Error).message}). Computes of a protected branch cannot be ` +
    `deleted: unprotect branch ${String(props.branchId)} first, or, to keep the compute and only stop managing it, ` +
    `give the resource the option retainOnDelete: true, run pulumi up, then remove it from the program.`
  );
}
