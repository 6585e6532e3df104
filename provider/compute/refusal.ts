/**
 * What Compute tells the user: the preview's warnings (dropped connections, deprecated inputs, adoption), and a
 * refusal or a 404 of the service explained, after the service's own message and only where the advice fits
 * (shared/refusals.ts). Neon answers 404 alike for a compute or branch deleted outside Pulumi and for a project the key
 * does not reach: only what a read proves is said (shared/lifecycle.ts explainGone; issue 19).
 */
import type { Branch } from "../../client";
import { COMPUTE } from "./declaration";
import { BranchConflictCause, branchConflictMessage } from "./owner-tag";
import { ApiEndpoint, computeLabel, computeOf, ComputePlan } from "./plan";
import * as adoption from "../shared/adoption";
import type { Declaration } from "../shared/declaration";
import { errorKind, found } from "../shared/errors";
import { explainGone } from "../shared/lifecycle";
import { refusalAbout } from "../shared/refusals";
import { client } from "../shared/runtime";
import { isUnknown } from "../shared/unknown";

type Props = Record<string, unknown>;
const ROWS: Declaration["inputs"] = COMPUTE.inputs;

/**
 * The preview's warning for a change that drops (or may drop) a running compute's connections. Only numbers are shown
 * (other values may be secret). Disabling is no restart: the compute stays down until enabled again (OpenAPI: a
 * disabled compute cannot be woken by a connection). Why a change may drop them is its row's `because`.
 */
export function connectionWarning(id: string, olds: Props, news: Props, plan: ComputePlan): string | undefined {
  if (plan.replaces.length > 0) return undefined;
  const label = computeLabel(id, olds);
  const shown = (p: string) =>
    typeof olds[p] === "number" && typeof news[p] === "number" ? `${p} ${olds[p]} -> ${news[p]}` : p;
  const drops = plan.drops.map((p) => (isUnknown(news[p]) ? `${p} (known after apply)` : shown(p)));
  if (plan.drops.includes("disabled")) {
    const others = [...drops.filter((_, i) => plan.drops[i] !== "disabled"), ...plan.mayDrop];
    const also = others.length > 0 ? ` (changing ${others.join(", ")} too)` : "";
    return (
      `${label} will be suspended and stay down: disabled is set to true${also}; its open connections will drop, ` +
      `and it accepts no new ones until disabled is false again.`
    );
  }
  if (drops.length > 0) {
    const maybe = plan.mayDrop.length > 0 ? `; ${plan.mayDrop.join(", ")} too` : "";
    return `${label} will restart if it is running: ${drops.join(", ")}${maybe}; its open connections will drop.`;
  }
  if (plan.mayDrop.length === 0) return undefined;
  const why = plan.mayDrop.map((p) => ROWS[p].because).join("; ");
  return `${label} may restart if it is running: ${plan.mayDrop.join(", ")} changes (${why}); its open connections may drop.`;
}

/** Deprecated inputs in use: the rows with a `deprecation` (api.md, Pooler fields: removal scheduled for 2026-06-20). */
export function deprecationWarnings(news: Props): string[] {
  const used = Object.keys(ROWS).filter((p) => ROWS[p].deprecation && news[p] !== undefined);
  if (used.length === 0) return [];
  const [are, them] = used.length > 1 ? ["are", "them"] : ["is", "it"];
  return [
    `Compute "${String(news.resourceName ?? "")}": ${used.join(" and ")} ${are} ` +
      `deprecated: Neon is removing the pooler settings from its API (scheduled for 2026-06-20), and a service ` +
      `without them may refuse them; pooling is always on through the pooled host (the poolerHost output). Remove ` +
      `${them} from the program.`,
  ];
}

/** Adoption's words for a compute (shared/adoption.ts: Pulumi never deletes a compute the state's `adoptId` names). */
export const ADOPTABLE: adoption.Adoptable = {
  type: "Compute",
  kind: "compute",
  adopting: (news) =>
    `where its sizes, branch, provisioner or Postgres settings differ from the program's, adopting PATCHes them, ` +
    `and a running compute restarts (its open connections drop)` +
    (news.name === undefined ? `; it is renamed pulumi-${String(news.ownerTag)}-… (set name to keep another)` : ""),
};

/** What Check says about `adoptId`. */
export const adoptionWarnings = (olds: Props, news: Props): string[] =>
  adoption.adoptionWarnings(ADOPTABLE, olds, news);

/** Why Delete leaves the compute `id` on the service, or undefined to delete it. */
export const keptOnDelete = (id: string, props: Props): string | undefined =>
  adoption.keptAdopted(ADOPTABLE, id, computeLabel(id, props), props);

/**
 * The preview's warning for a replacement of an adopted compute: it stays on the service. While `adoptId` still names
 * it, the replacement would adopt it again, and adoption refuses what cannot change in place: Diff refuses it.
 */
export function adoptedReplaceWarning(id: string, olds: Props, news: Props, plan: ComputePlan): string | undefined {
  if (plan.replaces.length === 0 || olds.adoptId !== id) return undefined;
  const [label, changed] = [computeLabel(id, olds), plan.replaces.join(", ")];
  if (news.adoptId === id) {
    return (
      `${label} cannot be replaced (${changed} changed) while adoptId names it: the replacement would adopt it ` +
      `again, and adopting refuses what cannot change in place. Remove adoptId and run pulumi up first (it sends ` +
      `nothing); then this change makes a new compute and deletes ${id}.`
    );
  }
  return (
    `${label} is replaced (${changed} changed) by a new compute, and ${id} stays on the service: its state still ` +
    `records adoptId, so Pulumi does not delete it. Delete it in the Neon console afterwards, or remove adoptId in an ` +
    `up of its own before this change.`
  );
}

/** The service's message, then `advice`. */
const advised = (error: unknown, advice: string): Error =>
  new Error(`${(error as Error).message}. ${advice}`, { cause: error });

const POOLER_FIELDS: Record<string, string> = { poolerEnabled: "pooler_enabled", poolerMode: "pooler_mode" };

/** A refusal of a request carrying the deprecated pooler fields: remove them (conditionally, when it is unclear). */
export function poolerRefusal(error: unknown, fields: Props): Error | undefined {
  const sent = Object.keys(POOLER_FIELDS).filter((input) => fields[POOLER_FIELDS[input]] !== undefined);
  const about = sent.length > 0 ? refusalAbout(error, /pooler/i, fields, Object.values(POOLER_FIELDS)) : undefined;
  if (about !== "subject" && about !== "unclear") return undefined;
  const what = sent.join(" and ");
  const remove =
    `remove ${what} from the program: Neon deprecated the pooler settings, and pooling is always available through ` +
    `the pooled host (the poolerHost output)`;
  if (about === "subject")
    return advised(error, `The service no longer accepts the deprecated pooler settings: ${remove}.`);
  const it = sent.length > 1 ? "them" : "it";
  return advised(error, `This request carried the deprecated ${what}; if the refusal is about ${it}, ${remove}.`);
}

/** A refused PATCH: the pooler fields or the move explained; a refusal naming another field keeps its own message. */
export async function explainRefusal(projectId: string, id: string, news: Props, fields: Props, error: unknown) {
  const pooler = poolerRefusal(error, fields);
  if (pooler) return pooler;
  const branchId = fields.branch_id;
  const about = typeof branchId === "string" ? refusalAbout(error, /branch/i, fields, ["branch_id"]) : undefined;
  if (about === "subject") {
    const message = await moveRefusedFor(projectId, id, news, String(branchId), (error as Error).message);
    return new Error(message, { cause: error });
  }
  if (about !== "unclear") return error;
  return advised(error, `If the refusal is about moving compute ${id} to branch ${branchId}: ${MOVE_BY_REPLACEMENT}`);
}

/**
 * A move not made (`branch_id` in an update is deprecated: OpenAPI, "will be removed in a future release"): a primary
 * whose target branch has one hears of that first; else, that a replacement is the way to move.
 */
export async function moveRefusedFor(projectId: string, id: string, news: Props, branchId: string, why: string) {
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

/** The service's 409 does not say which compute holds the branch: look it up, so the message says what to do. */
export async function describeBranchConflict(projectId: string, branchId: string, cause: BranchConflictCause) {
  return branchConflictMessage(branchId, cause, await primaryOf(projectId, branchId));
}

async function primaryOf(projectId: string, branchId: string): Promise<ApiEndpoint | undefined> {
  try {
    const computes = (await client().endpoints.listForBranch(projectId, branchId)) as ApiEndpoint[];
    return computes.find((compute) => compute.type === "read_write");
  } catch {
    return undefined;
  }
}

/** What was being changed: the compute's project, its id (an update), the branch it is to be on, its resource. */
interface Target {
  projectId: string;
  branchId?: string;
  id?: string;
  resourceName?: unknown;
}

export const createTarget = (inputs: Props): Target => ({
  projectId: String(inputs.projectId),
  branchId: typeof inputs.branchId === "string" ? inputs.branchId : undefined,
  resourceName: inputs.resourceName,
});

/** An update's target: a new `branchId` is a move there. */
export const updateTarget = (id: string, olds: Props, news: Props): Target => ({
  projectId: String(olds.projectId),
  id,
  branchId: typeof news.branchId === "string" && news.branchId !== olds.branchId ? news.branchId : undefined,
  resourceName: news.resourceName ?? olds.resourceName,
});

/** A 404: of an update's compute proven gone, says so; else of a branch missing from its project, names it. */
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
  const named = typeof target.resourceName === "string" ? `Compute "${target.resourceName}"` : "Compute";
  const what =
    target.id === undefined
      ? `${named} cannot be created on branch ${target.branchId}`
      : `${computeLabel(target.id, target)} cannot be moved to branch ${target.branchId}`;
  const message =
    `${what}: project ${target.projectId} has no such branch (it may have been deleted outside Pulumi) ` +
    `(${(error as Error).message}). Set the Compute's branchId to a branch of project ${target.projectId}.`;
  return new Error(message, { cause: error });
}

/** A delete the service refused (a protected branch's compute: api.md, Delete), and how to stop managing it instead. */
export function deleteRefused(id: string, props: Props, error: unknown): string {
  return (
    `Neon refused to delete compute ${id} (${(error as Error).message}). Computes of a protected branch cannot be ` +
    `deleted: unprotect branch ${String(props.branchId)} first, or, to keep the compute and only stop managing it, ` +
    `give the resource the option retainOnDelete: true, run pulumi up, then remove it from the program.`
  );
}
