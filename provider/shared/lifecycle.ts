/**
 * What every resource does with an object that may be gone, written once: a refresh that finds it gone drops it from
 * the state, a delete that finds it gone is done, and a change that finds it gone says so and what to do.
 *
 * Neon answers 404 alike for an object deleted outside Pulumi and for a project the key does not reach (another
 * account's key, an organization or project-scoped key of another organization or project): taking the second for the
 * first would drop from state, or report as destroyed, an object that still exists. So a 404 proves an object gone only
 * once something that answers shows it missing: its project (`projectAnswers`), or the list it lives in, read just now.
 *
 * What is particular to a resource stays a hook beside it: how it reads and deletes its object, how its messages name
 * it and its docs section (a `ProjectObject`), and what it does around a delete (Compute keeps an adopted compute,
 * Branch refuses a protected branch or one with children, Role and Database check identity first, ApiKey proves a
 * revoke by its list).
 */
import type * as pulumi from "@pulumi/pulumi";
import { errorKind, resendWhileUnknown } from "./errors";
import { client } from "./runtime";

/** An object of a project, as the lifecycle's messages name it. */
export interface ProjectObject {
  /** `compute`, `branch`, `role`, `database`. */
  kind: string;
  /** How messages name it: `Compute "db" (ep-…)`, `Role app_user`, `Database shop (id 12)`. */
  label: string;
  projectId: string;
  /** A role's or database's branch: messages place it there. */
  branchId?: string;
  /** The docs section that says the rest (a declaration's `docs`). */
  docs: string;
}

/** Resolves when a 404 of the object (`cause`, when one was thrown) proves it gone; else throws saying why not. */
export type GoneProof = (cause?: unknown) => Promise<void>;

/** The row of docs/troubleshooting.md for an object whose project does not answer either. */
const UNREACHABLE_DOCS = "docs/troubleshooting.md";

/**
 * Resolves when the object's project answers (its branch list), so that a 404 of the object means it is gone; throws
 * otherwise, saying that nothing can be concluded and what to do.
 */
export async function projectAnswers(object: ProjectObject): Promise<void> {
  try {
    await client().branches.list(object.projectId);
  } catch (error) {
    if (errorKind(error) !== "not_found") throw error;
    throw new Error(unreachableText(object), { cause: error });
  }
}

/** The object's list was read just now and answered without it (an identity check, a branch's delete): proof enough. */
export const alreadyProven: GoneProof = async () => undefined;

/** An empty read: the engine drops the resource from the state. */
const GONE: pulumi.dynamic.ReadResult = { id: "", props: {} };

/**
 * Refresh: what `read` answers, or an empty read once the object is proven gone, so that the engine drops it from the
 * state. `read` answers undefined when it proved that itself (its list answered without it); a 404 it throws is
 * proven by `proveGone` (none given: the 404 stands, with its advice).
 */
export async function readOrGone(
  read: () => Promise<pulumi.dynamic.ReadResult | undefined>,
  proveGone?: GoneProof,
): Promise<pulumi.dynamic.ReadResult> {
  try {
    return (await read()) ?? GONE;
  } catch (error) {
    if (proveGone === undefined || errorKind(error) !== "not_found") throw error;
    await proveGone(error);
    return GONE;
  }
}

/**
 * Deletes and waits; an object already gone is fine once `proveGone` proves it. `remove` sends one delete and resolves
 * whether the object was there (false, or a 404 thrown: it was not). A delete whose outcome stays unknown is sent again,
 * a few times (errors.ts `resendWhileUnknown`; `happened` reads back whether an attempt took effect after all), so
 * that a run of lost responses neither fails the step nor leaves the object behind.
 */
export async function deleteUnlessGone(
  remove: () => Promise<boolean>,
  proveGone: GoneProof,
  happened?: () => Promise<boolean>,
): Promise<void> {
  let absent = undefined as { cause?: unknown } | undefined;
  const attempt = async () => {
    absent = undefined;
    try {
      if (!(await remove())) absent = {};
    } catch (error) {
      if (errorKind(error) !== "not_found") throw error;
      absent = { cause: error };
    }
  };
  await resendWhileUnknown(attempt, happened);
  if (absent) await proveGone(absent.cause);
}

/** What a gone object's messages add to "deleted outside Pulumi". */
export interface Gone {
  /** The 404 that showed it: its message is quoted, and it is the error's cause. */
  cause?: unknown;
  /** What else may be true: `or it expired`; `and the role now named … is another one, left untouched`. */
  also?: string;
}

const placeOf = (object: ProjectObject): string =>
  object.branchId === undefined
    ? `in project ${object.projectId}`
    : `on branch ${object.branchId} of project ${object.projectId}`;

/** One sentence: the object no longer exists where its state says; it was deleted outside Pulumi (and what else). */
export function goneText(object: ProjectObject, gone: Gone = {}): string {
  const also = gone.also === undefined ? "" : `, ${gone.also}`;
  const cause = gone.cause === undefined ? "" : ` (${(gone.cause as Error).message})`;
  return `${object.label} no longer exists ${placeOf(object)}: it was deleted outside Pulumi${also}${cause}.`;
}

/**
 * A change that found its object gone: what happened, and what to do (refresh, which removes it from the state, then
 * `up`, which creates it again, or `next`), ending with its docs. `refused`: checked before anything was sent.
 */
export function goneError(object: ProjectObject, gone: Gone & { refused?: boolean; next?: string } = {}): Error {
  const refused = gone.refused ? " Nothing was changed." : "";
  const next = gone.next ?? "`pulumi up` creates it again, or run both at once with `pulumi up --refresh`";
  return new Error(
    `${goneText(object, gone)}${refused} Run \`pulumi refresh\` to remove it from the state, then ${next} ` +
      `(${object.docs}).`,
    gone.cause === undefined ? undefined : { cause: gone.cause },
  );
}

/** Neither the object nor its project answers: deleted with its project, or out of the key's reach. */
function unreachableText(object: ProjectObject): string {
  const where = object.branchId === undefined ? "" : ` of branch ${object.branchId}`;
  return (
    `${object.label}${where} was not found, and neither was its project ${object.projectId}, so it is not known ` +
    `whether the ${object.kind} is gone: either the project was deleted (then remove the resource from the state: ` +
    `pulumi state delete <its URN>), or neon:apiKey does not reach that project (another account's key, or an ` +
    `organization or project-scoped key of another organization or project): use a key that does. Nothing was ` +
    `changed (${UNREACHABLE_DOCS}).`
  );
}
