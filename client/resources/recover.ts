/**
 * Settling a create whose response was lost (kind `ambiguous`: the request may or may not have been applied).
 *
 * The caller knows what its create would have made, by a name unique where it lives, and passes `recover` to find
 * it. The client calls it under the project lock, right after the lost request, so no other change of this process
 * runs in between; what it finds is answered as the create's result, with the operations still running for it, and
 * the lock waits for them as for any change (the next change of the project then meets no 423 of the lost create's).
 * Nothing found, or the read failed: the lost request's error stands (the create's outcome is still unknown), and the
 * caller may read again or send the create again.
 */
import { NeonError } from "../errors";

/** Finds what a create whose response was lost made; undefined when it made nothing. */
export type Recover<T> = () => Promise<T | undefined>;

/**
 * `send`, or, with `recover`, `send` whose lost response is settled: `recover` finds what was made and `answer` turns
 * it into the create's result (the found object and its unfinished operations).
 */
export function settlingLostCreate<T, R>(
  send: () => Promise<R>,
  recover: Recover<T> | undefined,
  answer: (found: T) => Promise<R>,
): () => Promise<R> {
  if (!recover) return send;
  return () =>
    send().catch(async (error: unknown) => {
      if (!(error instanceof NeonError) || error.kind !== "ambiguous") throw error;
      const found = await recover().catch(() => Promise.reject(error));
      if (found === undefined) throw error;
      return answer(found);
    });
}
