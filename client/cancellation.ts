/**
 * Cancellation by the caller's AbortSignal, for everything that waits (retries, operation waits, the rate limiter):
 * the check before each step and the sleep a signal cuts short, both failing with NeonError kind `cancelled`.
 */
import { NeonError } from "./errors";

/** Throws NeonError kind `cancelled` when the signal has fired. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new NeonError({ kind: "cancelled", message: "cancelled by the caller" });
}

/** A timer that an AbortSignal cuts short (rejecting with kind `cancelled`), so cancellation never waits out a backoff. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new NeonError({ kind: "cancelled", message: "cancelled by the caller" }));
    const onAbort = () => {
      clearTimeout(timer);
      reject(new NeonError({ kind: "cancelled", message: "cancelled by the caller" }));
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}
