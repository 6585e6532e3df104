/**
 * What a refusal of a compute write (HTTP 400 or 422) is about, judged from the service's own message without relying
 * on its wording, so that advice is given only where it fits. A request that moves a compute and resizes it at once
 * can be refused for the size (a Free plan's limit): advice about the move would hide the real reason. Every message
 * built here starts with the service's. A move refused or ignored (`branch_id` in an update is deprecated: OpenAPI,
 * "will be removed in a future release") is explained here too: a replacement is the way to move.
 *
 * A branch holds one primary (read_write) compute: when creating or moving a primary meets the one already there (the
 * service's 409), the message says which compute holds the branch and what to do, judged by whose tag it carries.
 */
import type { ApiEndpoint } from "./outputs";
import { carriesOwnerTag } from "./owner";
import { errorKind } from "../shared/errors";
import { client } from "../shared/runtime";

type Props = Record<string, unknown>;

/** `subject`: the message mentions it; `other`: it names another field the request carried; `unclear`: neither. */
export type RefusalSubject = "subject" | "other" | "unclear";

/** Fields whose names are too common in messages to say what a refusal is about. */
const GENERIC_FIELDS = new Set(["name", "type"]);

/**
 * What a refusal is about, or undefined when `error` is no refusal. `subject` is what the message mentions when it is
 * about the subject (/branch/i, /pooler/i: loose, since the wording is unknown); `own` are the subject's fields.
 */
export function refusalAbout(
  error: unknown,
  subject: RegExp,
  fields: Record<string, unknown>,
  own: readonly string[],
): RefusalSubject | undefined {
  if (errorKind(error) !== "validation") return undefined;
  const message = serviceMessage(error);
  if (subject.test(message)) return "subject";
  const others = Object.keys(fields).filter((field) => !own.includes(field) && !GENERIC_FIELDS.has(field));
  return others.some((field) => new RegExp(`\\b${field}\\b`).test(message)) ? "other" : "unclear";
}

/** The service's own message of a client error (its `apiMessage`), else the error's message. */
export function serviceMessage(error: unknown): string {
  const api = (error as { apiMessage?: unknown } | undefined)?.apiMessage;
  return typeof api === "string" ? api : error instanceof Error ? error.message : String(error);
}

/** The deprecated pooler fields: input → the field of the request. */
const POOLER_FIELDS: ReadonlyArray<readonly [string, string]> = [
  ["poolerEnabled", "pooler_enabled"],
  ["poolerMode", "pooler_mode"],
];

/**
 * A refusal of a request that carried the deprecated pooler fields, with what to do. Neon deprecated them (OpenAPI:
 * `pooler_mode` "will be removed after 2026-06-20", `pooler_enabled` without a date); a service that no longer has
 * them may apply them, ignore them or refuse them. The provider sends them only when the program sets them, and when
 * a refusal is about them (its message mentions pooler) says to remove them; when it cannot tell, it says so
 * conditionally. Undefined when the advice does not apply (no refusal, no pooler field sent, another field named).
 */
export function poolerRefusal(error: unknown, fields: Record<string, unknown>): Error | undefined {
  const sent = POOLER_FIELDS.filter(([, field]) => fields[field] !== undefined).map(([input]) => input);
  if (sent.length === 0) return undefined;
  const about = refusalAbout(
    error,
    /pooler/i,
    fields,
    POOLER_FIELDS.map(([, field]) => field),
  );
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
 * deprecated pooler fields (poolerRefusal above), or the move (`branch_id` is deprecated). A refusal that names another field (a size a Free plan refuses, sent with a move)
 * passes with the service's own message; one that names nothing the provider can tell gets the move advice
 * conditionally, after the service's message.
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

/** The move error for this compute: for a primary whose target branch has one, the branch conflict comes first. */
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
  "URN> deletes this one, then makes a new compute on the new branch; the option replacementTrigger set to the " +
  "branchId makes later branch changes replacements";

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
 * The branch's primary carries this resource's tag, and the create still went ahead: the state holds the resource
 * (Check got its old inputs), and either it is the compute this replacement replaces, the program having turned off
 * the Compute class's `deleteBeforeReplace`, or an interrupted replacement made it after deleting the old one (the
 * state then keeps the resource pending replacement). Computes named for the resource that no state is known to hold
 * refuse the create before it is sent (owner.ts).
 */
function taggedRemedy(id: string): string {
  return (
    `${id} carries this resource's tag (its project, stack and resource names). If the resource sets ` +
    `deleteBeforeReplace: false, ${id} is the compute this replacement replaces: remove that option (a branch holds ` +
    `one primary, so the old one must go first). Otherwise an interrupted pulumi up made it: keep it with adoptId: ` +
    `"${id}" (it may be in use), or delete it if nothing uses it, and run pulumi up again`
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
