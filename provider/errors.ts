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

  constructor(id: string, properties: Record<string, unknown>, cause: unknown, inputs: Record<string, unknown>) {
    const reason = cause instanceof Error ? cause.message : String(cause);
    super(`${id} exists but is not ready: ${reason}`);
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

/**
 * What to do about a refused key, added to the error of any step. `pulumi refresh` and `pulumi destroy` configure the
 * provider from the configuration saved by the last `pulumi up` (pulumi/pulumi registry.go: providers are loaded from
 * their state), so a key rotated since is refused there although the stack config already holds the new one.
 */
export const AUTH_HINT =
  "If the key was rotated: `pulumi refresh` and `pulumi destroy` use the neon:apiKey saved by the last `pulumi up`; " +
  "run `pulumi up` once with the new key (it changes nothing else), or `pulumi destroy --run-program`. " +
  "NEON_API_KEY is used only when the stack config has no neon:apiKey.";

/**
 * What a key refused for its scope (403) means: the service knows the key, but it does not reach this object. A CI
 * pipeline holding a project-scoped key meets it as soon as a resource lies outside that project.
 */
export const SCOPE_HINT =
  "The key in neon:apiKey is valid but may not do this. A project-scoped API key can use only its own project (its " +
  "branches, computes and operations): it cannot list projects, create projects or API keys, or reach another " +
  "project; an organization key cannot create API keys. Check that the resource's projectId is the key's project, " +
  "or use a key whose scope covers it (an ApiKey is created with a member's personal key).";

/** The status of a client error, or undefined. */
function statusOf(error: unknown): number | undefined {
  return typeof error === "object" && error !== null && "status" in error ? Number(error.status) : undefined;
}

/** Wraps a provider method so that a refused key (401: rotated? 403: outside its scope) says how to recover. */
export function withHints<A extends unknown[], R>(method: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
  return async (...args: A) => {
    try {
      return await method(...args);
    } catch (error) {
      if (errorKind(error) !== "auth") throw error;
      const hint = statusOf(error) === 403 ? SCOPE_HINT : AUTH_HINT;
      throw new Error(`${(error as Error).message}. ${hint}`, { cause: error });
    }
  };
}
