/**
 * Retry policy as data and pure functions, wrapped once around the one function that sends a request.
 *
 * Rules learned from bugs:
 * - POST/PATCH/DELETE are not idempotent: resending a create whose response was lost makes a duplicate compute
 *   or a second key nobody saw. Writes are retried only when the service certainly did not act (423, 429, 503, a
 *   connection refused before sending); any other failure after sending is `ambiguous` and never resent.
 * - Fixed intervals (peers: 1 s x 120, 3 s x 5) hammer a locked project in lockstep; full jitter spreads clients.
 * - A budget of attempts ends by luck, not by time: 10 attempts of capped, jittered backoff spent ~23 s, so a project
 *   locked by someone else for a minute failed the step long before the 2-minute budget. Retries end by time;
 *   the attempt cap is only a safety net far above what the time allows.
 * - A 429 without `Retry-After` (the real service documents none) means a per-second or per-minute window is
 *   full: an immediate jittered retry (full jitter may draw 0 ms) meets the same full window. Wait at least a
 *   floor, then back off exponentially above it.
 * - A wrong address (`neon:apiUrl` pointing at nothing) kept `pulumi up` silent for the whole 2-minute budget: a
 *   refused connection or an unknown host gets a couple of quick retries (`unreachableAttempts`), not the budget.
 * - A wait of minutes with nothing in the log looks like a hang: a retry loop that lasts says what it waits for
 *   (`progress`), once after a few seconds, then now and then.
 */
import { isUnreachable } from "./axios-errors";
import { sleep, throwIfAborted } from "./cancellation";
import { NeonError } from "./errors";
import { Progress, reportProgress, seconds } from "./progress";

/** How hard to try. Every number is a cap, so a hopeless request ends in bounded time. */
export interface RetryPolicy {
  /** Total attempts, the first one included: a safety net only; the budget is `maxTotalMs`. */
  maxAttempts: number;
  /** Backoff of the first retry before jitter; doubles per attempt. */
  baseDelayMs: number;
  /** Cap of one backoff. */
  maxDelayMs: number;
  /** The budget: no retry is scheduled whose wait would end later than this after the first attempt started. */
  maxTotalMs: number;
  /** The least wait after a 429 without `Retry-After` (a full per-second window empties within a second). */
  rateLimitFloorMs: number;
  /**
   * Attempts, the first included, after a refused connection or an unknown host (axios-errors.ts `UNREACHABLE_CODES`):
   * enough to ride out a server's restart, few enough that a wrong address fails within a second or two.
   */
  unreachableAttempts: number;
}

/**
 * Defaults close to Neon's own SDK (250 ms base, 10 s cap), with a 2-minute budget for a project someone locks;
 * 1000 attempts would take hours at the capped backoff, so only the budget ends a retry loop.
 */
export const DEFAULT_RETRY_POLICY: RetryPolicy = {
  maxAttempts: 1000,
  baseDelayMs: 250,
  maxDelayMs: 10_000,
  maxTotalMs: 120_000,
  rateLimitFloorMs: 1_000,
  unreachableAttempts: 3,
};

/** Kinds worth a retry: transient, or (`not_ready`, errors.ts `NOT_READY`) a refusal that passes with time. */
const RETRY_KINDS = new Set(["network", "locked", "rate_limit", "server", "not_ready"]);

/** Methods whose replay can change nothing. */
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);
/** Failures that happen before a single byte of the request reached the service. */
const NOT_SENT_CODES = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN"]);
/** Statuses after which a write certainly did not happen (api.md: 423 and 503 are always safe to retry). */
const WRITE_RETRY_STATUSES = new Set([423, 429, 503]);

/** True for a read; writes need a reason to be replayed. */
export function isSafeMethod(method: string): boolean {
  return SAFE_METHODS.has(method.toUpperCase());
}

/** True when a network failure happened before the request was sent. */
export function wasNotSent(error: NeonError): boolean {
  return error.kind === "network" && error.code !== undefined && NOT_SENT_CODES.has(error.code);
}

/** Whether replaying the request after this failure is safe and may help. Prevents duplicate writes. */
export function isRetryable(method: string, error: NeonError): boolean {
  if (!RETRY_KINDS.has(error.kind)) return false;
  if (error.kind === "not_ready") return true; // the service refused: it certainly did not act
  if (isSafeMethod(method)) return error.status === undefined || isRetryableReadStatus(error.status);
  if (error.status !== undefined) return WRITE_RETRY_STATUSES.has(error.status);
  return wasNotSent(error);
}

function isRetryableReadStatus(status: number): boolean {
  return status === 423 || status === 429 || status >= 500;
}

/** Whether a failed write may nevertheless have happened (a reset, a timeout, a 500 after sending). */
export function isOutcomeUnknown(method: string, error: NeonError): boolean {
  if (isSafeMethod(method) || isRetryable(method, error)) return false;
  if (error.status !== undefined) return error.status >= 500;
  return error.kind === "network" && !wasNotSent(error);
}

/** The `ambiguous` error for a write whose outcome is unknown: the caller must read back, not resend. */
export function toAmbiguous(error: NeonError): NeonError {
  const detail = error.status !== undefined ? `HTTP ${error.status}: ${error.apiMessage}` : error.apiMessage;
  const message = `the outcome of ${error.method} ${error.path} is unknown (${detail}); it was not resent: read back before retrying`;
  return error.with({ kind: "ambiguous", message, retryable: false });
}

/** Full-jitter exponential backoff: uniform in [0, min(cap, base * 2^(attempt-1))). `attempt` counts from 1. */
export function backoffMs(attempt: number, policy: RetryPolicy, random: () => number): number {
  const ceiling = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** Math.max(0, attempt - 1));
  return Math.floor(Math.min(Math.max(random(), 0), 0.999999) * ceiling);
}

/** `Retry-After` (delta-seconds or an HTTP date) as milliseconds from `now`; undefined when absent or unreadable. */
export function parseRetryAfter(header: string | undefined, now: number): number | undefined {
  if (header === undefined) return undefined;
  const trimmed = header.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, date - now);
}

/** How long to wait before the next attempt, or undefined to give up. Pure. */
export function nextDelayMs(
  method: string,
  error: NeonError,
  attempt: number,
  elapsedMs: number,
  policy: RetryPolicy,
  random: () => number,
  now: number,
): number | undefined {
  if (!isRetryable(method, error) || attempt >= policy.maxAttempts) return undefined;
  if (isUnreachable(error) && attempt >= policy.unreachableAttempts) return undefined;
  const delay = waitBeforeRetryMs(error, attempt, policy, random, now);
  return elapsedMs + delay > policy.maxTotalMs ? undefined : delay;
}

/**
 * The wait before retry `attempt`: at least `Retry-After` when the service sent one; after a 429 without it, the
 * floor plus the jittered backoff; otherwise the jittered backoff. Pure.
 */
export function waitBeforeRetryMs(
  error: NeonError,
  attempt: number,
  policy: RetryPolicy,
  random: () => number,
  now: number,
): number {
  const backoff = backoffMs(attempt, policy, random);
  const requested = parseRetryAfter(error.retryAfter, now);
  if (requested !== undefined) return Math.max(backoff, requested);
  return error.status === 429 ? policy.rateLimitFloorMs + backoff : backoff;
}

/** What a failure that outlasted the retry budget was waiting for, for its message. */
function stillFailing(error: NeonError): string {
  if (error.kind === "locked") return "the project stayed locked";
  if (error.kind === "rate_limit") return "the rate limit stayed exhausted";
  if (error.kind === "not_ready") return "the branch stayed not ready";
  return "the failure persisted";
}

/** What a retried failure is waiting for, for the progress lines of a long retry loop. */
function waitingFor(error: NeonError): string {
  const status = error.status !== undefined ? ` (HTTP ${error.status})` : "";
  if (error.kind === "locked") return `the project is locked by operations in progress${status}`;
  if (error.kind === "rate_limit") return `the account's rate limit is exhausted${status}`;
  if (error.kind === "not_ready") return `the branch is not ready yet${status}`;
  if (error.kind === "server") return `the service answers errors${status}`;
  return `the network fails (${error.code ?? error.kind})`;
}

/** `POST /projects/p/endpoints: the project is locked …; retrying for up to 120 s (6 s so far)`. */
export function retryingLine(error: NeonError, elapsedMs: number, policy: RetryPolicy): string {
  const where = error.method && error.path ? `${error.method} ${error.path}: ` : "";
  const budget = Number((policy.maxTotalMs / 1000).toFixed(1));
  return `${where}${waitingFor(error)}; retrying for up to ${budget} s (${seconds(elapsedMs)} so far)`;
}

/**
 * The error of a request whose retries ended (by the budget or the safety net): it says what persisted and for
 * how long it was retried, so a user knows it was not a one-off (and what to wait for). An unreachable address
 * is tried a few times only: its error says how often, not a budget it never used.
 */
export function budgetError(error: NeonError, attempts: number, elapsedMs: number, policy: RetryPolicy): NeonError {
  const seconds = (elapsedMs / 1000).toFixed(1);
  if (isUnreachable(error))
    return error.with({ message: `${error.apiMessage}; tried ${attempts} times over ${seconds} s` });
  const budget = `retry budget ${Number((policy.maxTotalMs / 1000).toFixed(1))} s`;
  const message = `${error.apiMessage}; ${stillFailing(error)}: gave up after ${attempts} attempts over ${seconds} s (${budget})`;
  return error.with({ message });
}

/** The error a caller gets once retrying stopped: writes with an unknown outcome become `ambiguous`. */
export function finalError(method: string, error: NeonError): NeonError {
  return isOutcomeUnknown(method, error) ? toAmbiguous(error) : error;
}

/** One run of `withRetry`. */
export interface RetryRun {
  method: string;
  policy: RetryPolicy;
  random: () => number;
  signal?: AbortSignal;
  onRetry?: (error: NeonError, attempt: number, delayMs: number) => void;
  /** Where a retry loop that lasts says what it waits for (progress.ts: after ~5 s, then every ~30 s). */
  progress?: Progress;
}

/** Runs `attempt` until it succeeds or the policy says stop; `attempt` must throw NeonError. */
export async function withRetry<T>(run: RetryRun, attempt: (n: number) => Promise<T>): Promise<T> {
  const started = Date.now();
  let latest: NeonError | undefined;
  let stopReporting: (() => void) | undefined;
  try {
    for (let n = 1; ; n++) {
      throwIfAborted(run.signal);
      try {
        return await attempt(n);
      } catch (thrown) {
        const error = (latest = thrown as NeonError);
        const now = Date.now();
        const delay = nextDelayMs(run.method, error, n, now - started, run.policy, run.random, now);
        if (delay === undefined) throw gaveUp(run, error, n, now - started);
        run.onRetry?.(error, n, delay);
        stopReporting ??= reportProgress(run.progress, started, (ms) => retryingLine(latest ?? error, ms, run.policy));
        await sleep(delay, run.signal);
      }
    }
  } finally {
    stopReporting?.();
  }
}

/** The error thrown when retrying stopped: ambiguous writes as such, retried failures with their budget. */
function gaveUp(run: RetryRun, error: NeonError, attempts: number, elapsedMs: number): NeonError {
  if (attempts > 1 && isRetryable(run.method, error)) return budgetError(error, attempts, elapsedMs, run.policy);
  return finalError(run.method, error);
}
