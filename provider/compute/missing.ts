/**
 * A 404 while changing a compute, explained by reading the service. Neon answers 404 alike for a compute deleted
 * outside Pulumi, for a branch deleted outside Pulumi and for a project the key does not reach, and each needs its own
 * fix: a raw `HTTP 404: endpoint not found`, with advice about keys, left a user with a deleted compute no way forward.
 * Only what a read proves is said: a project that does not answer says so for an update (nothing can be concluded),
 * and keeps a create's 404 (and its advice: hints.ts).
 */
import type { Branch } from "../../client";
import { errorKind, found } from "../shared/errors";
import { explainGone, ProjectObject } from "../shared/lifecycle";
import { client } from "../shared/runtime";
import { COMPUTE } from "./declaration";

type Props = Record<string, unknown>;

/** What was being changed: the compute's project, its id (an update) and the branch it is (to be) on. */
export interface Target {
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

/** How the lifecycle's messages name the compute `id` (shared/lifecycle.ts), from its state (or an update's target). */
export function computeOf(id: string, props: { projectId?: unknown; resourceName?: unknown }): ProjectObject {
  const label = typeof props.resourceName === "string" ? `Compute "${props.resourceName}" (${id})` : `Compute ${id}`;
  return { kind: "compute", label, projectId: String(props.projectId), docs: COMPUTE.docs };
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
