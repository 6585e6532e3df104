/**
 * The lifecycle every resource shares, written once: a create whose answer was lost is settled, never duplicated
 * (`createSettled`); an object left half-made is recorded as it is (`recordedAsItIs`); a refresh that finds it gone
 * drops it from the state (`readOrGone`), a delete that finds it gone is done (`deleteUnlessGone`), and a change that
 * finds it gone says so and what to do (`explainGone`).
 *
 * Neon answers 404 alike for an object deleted outside Pulumi and for a project the key does not reach (another
 * account's key, an organization or project-scoped key of another organization or project): taking the second for the
 * first would drop from state, or report as destroyed, an object that still exists. So a 404 proves an object gone only
 * once something that answers shows it missing: its project (`projectAnswers`), or the list it lives in, read just now.
 *
 * What is particular to a resource stays a hook beside it: how it reads, creates and deletes its object and finds
 * what a lost create made, how its messages name it and its docs section (a `ProjectObject`), and what it does around
 * a delete (Compute keeps an adopted compute, Branch refuses a protected branch or one with children, Role and
 * Database check identity first, ApiKey proves a revoke by its list).
 */
type Props = Record<string, unknown>;
import type * as pulumi from "@pulumi/pulumi";
import { errorKind, resendWhileUnknown, ResourceInitError } from "./errors";
import { currentSettings, keySetting } from "./settings-advice";
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

/** Creates whose answers were lost, each settled as not made, before the step fails. */
export const CREATE_ATTEMPTS = 3;

/**
 * Sends a create until its outcome is known. A lost answer (kind `ambiguous`) is settled by the client inside the
 * project lock, before any other change of the project (client/resources/recover.ts): the resource's `recover` finds
 * what the create made, by a name unique where it lives, and answers as the create would have. Only when nothing was
 * made does the error reach here, and the create is sent again (`send` gets the attempt's number: Compute names each
 * attempt anew), up to CREATE_ATTEMPTS times: never a duplicate, never another's object taken for its own.
 */
export async function createSettled<T>(send: (attempt: number) => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await send(attempt);
    } catch (error) {
      if (errorKind(error) !== "ambiguous" || attempt >= CREATE_ATTEMPTS) throw error;
    }
  }
}

/** How a half-made object is recorded: read as it is now, or, when it cannot be read, `unread`. */
export interface AsItIs {
  /** Its outputs as the service has it now; undefined when it turns out not to be there (the error then stands). */
  read: () => Promise<Props | undefined>;
  /** The outputs to record when it cannot be read (none: the error stands, and the next read finds the object). */
  unread?: Props;
  /** What the step's error says instead of "<id> exists but is not ready" (the object is ready; a change was not). */
  message?: string;
}

/**
 * An object that exists though its step did not finish (its operations failed or timed out, or part of a change was
 * not made): the error to throw records it with its id, as it is now (ResourceInitError), so that the engine keeps it
 * in state, nothing is orphaned, and the next `up` sends what is still missing.
 */
export async function recordedAsItIs(id: string, inputs: Props, error: unknown, asItIs: AsItIs): Promise<unknown> {
  let outputs: Props | undefined;
  try {
    outputs = await asItIs.read();
  } catch {
    outputs = asItIs.unread;
  }
  return outputs === undefined ? error : new ResourceInitError(id, outputs, error, inputs, asItIs.message);
}

/** The row of docs/troubleshooting.md for an object whose project does not answer either. */
const UNREACHABLE_DOCS = "docs/troubleshooting.md";

/**
 * Resolves when the object's project answers (its branch list), so that a 404 of the object means it is gone; throws
 * otherwise, saying that nothing can be concluded and what to do.
 */
export async function projectAnswers(object: ProjectObject): Promise<void> {
  const missing = await projectMissing(object);
  if (missing !== undefined) throw new Error(unreachableText(object), { cause: missing });
}

/** The 404 of the object's project (its branch list), or undefined when it answers; anything else is thrown. */
export async function projectMissing(object: Pick<ProjectObject, "projectId">): Promise<unknown> {
  try {
    await client().branches.list(object.projectId);
    return undefined;
  } catch (error) {
    if (errorKind(error) !== "not_found") throw error;
    return error;
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

/** What a 404 during a change is checked against, beyond the object's project answering. */
export interface GoneHooks {
  /** Reads whether the object is there after all (none: its project answering proves the 404). */
  present?: () => Promise<boolean>;
  /** The object is there: what else the 404 may mean (Compute: the branch it moves to is missing). */
  otherwise?: (error: unknown) => Promise<unknown>;
  /** What else may be true, said with the gone message (`or it expired`). */
  also?: string;
}

/**
 * The error to report for a change (an update) that got `error`: a 404 of an object proven gone (its project answers,
 * and `present` does not find it) gives the one gone message with what to do; a project that does not answer says
 * that nothing can be concluded; anything else, or a read that fails otherwise, stands as it was.
 */
export async function explainGone(error: unknown, object: ProjectObject, hooks: GoneHooks = {}): Promise<unknown> {
  if (errorKind(error) !== "not_found") return error;
  try {
    if ((await projectMissing(object)) !== undefined) return new Error(unreachableText(object), { cause: error });
    if (hooks.present === undefined || !(await hooks.present()))
      return goneError(object, { cause: error, also: hooks.also });
    return (await hooks.otherwise?.(error)) ?? error;
  } catch {
    return error; // a read that failed otherwise proves nothing
  }
}

/**
 * "<the key's setting> does not reach project p (…): use a key that does". `key` names the setting (default: the
 * plugin's; a function run in the program passes its own, `neon:apiKey`).
 */
export function outOfReach(projectId: string, key = keySetting(currentSettings())): string {
  return (
    `${key} does not reach project ${projectId} (another account's key, or an organization ` +
    `or project-scoped key of another organization or project): use a key that does`
  );
}

/** Neither the object nor its project answers: deleted with its project, or out of the key's reach. */
function unreachableText(object: ProjectObject): string {
  const where = object.branchId === undefined ? "" : ` of branch ${object.branchId}`;
  return (
    `${object.label}${where} was not found, and neither was its project ${object.projectId}, so it is not known ` +
    `whether the ${object.kind} is gone: either the project was deleted (then remove the resource from the state: ` +
    `pulumi state delete <its URN>), or ${outOfReach(object.projectId)}. Nothing was changed (${UNREACHABLE_DOCS}).`
  );
}
