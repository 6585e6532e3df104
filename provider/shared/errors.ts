/**
 * Errors the provider raises on top of the client's NeonError.
 */

/**
 * Thrown when an object exists on the service but the step did not finish (its operation failed or timed
 * out). The plugin turns an error carrying `id` into ErrorResourceInitFailed: the engine keeps the object
 * in state with these properties, so nothing is orphaned and the next `up` repairs it.
 *
 * The plugin adds `__provider` to the properties of a successful step only: here it is copied from the
 * step's inputs, or the engine would store a resource whose next Update or Delete cannot load its provider.
 */
export class ResourceInitError extends Error {
  readonly id: string;
  readonly properties: Record<string, unknown>;
  readonly reasons: string[];

  /** `message`: what the step's error says instead of "<id> exists but is not ready" (an object ready, a change not made). */
  constructor(
    id: string,
    properties: Record<string, unknown>,
    cause: unknown,
    inputs: Record<string, unknown>,
    message?: string,
  ) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(message ?? `${id} exists but is not ready: ${reason}`);
    this.name = "ResourceInitError";
    this.id = id;
    this.properties = { ...properties, __provider: inputs.__provider };
    this.reasons = [reason];
  }
}

/** The client error kind, or undefined for anything else. */
export function errorKind(error: unknown): string | undefined {
  return typeof error === "object" && error !== null && "kind" in error ? String(error.kind) : undefined;
}

/** Kinds after which the object may exist although the call failed: reconcile by reading before anything else. */
export const OUTCOME_UNKNOWN = new Set(["ambiguous", "operation_failed", "wait_timeout", "cancelled"]);

/** How many times a write whose outcome stayed unknown is read back and, when it did not happen, sent again. */
export const UNKNOWN_OUTCOME_ATTEMPTS = 4;

/**
 * Sends a removal again while its outcome stays unknown (kind `ambiguous`), up to `UNKNOWN_OUTCOME_ATTEMPTS` times:
 * a run of lost responses must neither fail the step nor leave the object behind. `happened` reads back whether an
 * unknown attempt took effect after all (then nothing is sent again).
 */
export async function resendWhileUnknown(send: () => Promise<void>, happened?: () => Promise<boolean>): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await send();
    } catch (error) {
      if (errorKind(error) !== "ambiguous" || attempt >= UNKNOWN_OUTCOME_ATTEMPTS) throw error;
      if (happened && (await happened())) return;
    }
  }
}

/** What a read answers, or undefined when it answers 404 (anything else is thrown). */
export async function found<T>(request: () => Promise<T>): Promise<T | undefined> {
  try {
    return await request();
  } catch (error) {
    if (errorKind(error) === "not_found") return undefined;
    throw error;
  }
}

/** The id of what a failed create made, when the client names it (`resourceId`: its operations then failed or timed out). */
export function createdIdOf(error: unknown): string | undefined {
  const id = (error as { resourceId?: unknown } | undefined)?.resourceId;
  return typeof id === "string" ? id : undefined;
}
