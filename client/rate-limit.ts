/**
 * The client-side rate limiter, shared by every client of the process that talks to one account. Prevents 429s
 * without slowing a `pulumi up` below what the service allows: the service takes 700 requests a minute per
 * account and bursts of 40 a second per route, so the limiter keeps to sliding windows just under both. A burst
 * of a few hundred requests goes at once, as the service would accept it, and no window ever holds more than
 * the service allows, whatever algorithm the service itself counts with.
 */
import { createHash } from "crypto";
import { definedOnly } from "./options";
import { sleep } from "./cancellation";

export interface RateLimitOptions {
  /** Requests in any window of `accountWindowMs` (default a minute), per account. */
  perMinute?: number;
  /** Requests in any window of `routeWindowMs` (default a second), per route (method and path without ids). */
  perSecondPerRoute?: number;
  /** The account window; 60000 unless the service counts otherwise (or time runs faster, as in a benchmark). */
  accountWindowMs?: number;
  /** The route window; 1000 unless the service counts otherwise. */
  routeWindowMs?: number;
}

/** Under the service's 700/min and 40/s per route, with room for other tools sharing the key. */
export const DEFAULT_RATE_LIMIT: Required<RateLimitOptions> = {
  perMinute: 600,
  perSecondPerRoute: 35,
  accountWindowMs: 60_000,
  routeWindowMs: 1000,
};

/** One sliding window: the times at which the last `max` requests were (or will be) let through. */
export class SlidingWindow {
  private readonly grants: number[] = [];

  constructor(
    readonly max: number,
    readonly windowMs: number,
  ) {}

  /** The earliest time at or after `now` when one more request fits in the window. */
  nextSlot(now: number): number {
    if (this.grants.length < this.max) return now;
    return Math.max(now, this.grants[this.grants.length - this.max] + this.windowMs);
  }

  /** Records a request let through at `at` (never earlier than the ones before it). */
  record(at: number): void {
    this.grants.push(at);
    if (this.grants.length > this.max) this.grants.splice(0, this.grants.length - this.max);
  }
}

/** An account's windows: one per minute for the account, one per second for each route. */
export class RateLimiter {
  private readonly account: SlidingWindow;
  private readonly routes = new Map<string, SlidingWindow>();

  constructor(
    readonly options: Required<RateLimitOptions>,
    private readonly now: () => number = Date.now,
  ) {
    this.account = new SlidingWindow(options.perMinute, options.accountWindowMs);
  }

  /** Milliseconds the caller must wait; its slot is reserved at once (FIFO). */
  reserve(method: string, path: string): number {
    const route = this.route(method, path);
    const now = this.now();
    const at = Math.max(this.account.nextSlot(now), route.nextSlot(now));
    this.account.record(at);
    route.record(at);
    return at - now;
  }

  /** Waits for a slot of this route. */
  async take(method: string, path: string, signal?: AbortSignal): Promise<void> {
    const wait = this.reserve(method, path);
    if (wait > 0) await sleep(wait, signal);
  }

  private route(method: string, path: string): SlidingWindow {
    const key = `${method} ${routeOf(path)}`;
    let window = this.routes.get(key);
    if (!window) {
      window = new SlidingWindow(this.options.perSecondPerRoute, this.options.routeWindowMs);
      this.routes.set(key, window);
    }
    return window;
  }
}

/** The route of a path: every segment after a collection name is an id (`/projects/:id/endpoints/:id`). */
export function routeOf(path: string): string {
  const segments = path.split("?")[0].split("/");
  return segments.map((segment, i) => (i % 2 === 0 && i > 0 ? ":id" : segment)).join("/");
}

const limiters = new Map<string, RateLimiter>();

/** A stable identity of an account at a URL that does not contain the key itself. */
export function accountHash(apiUrl: string, apiKey: string): string {
  return createHash("sha256").update(`${apiUrl}\n${apiKey}`).digest("hex").slice(0, 32);
}

/** The process-wide limiter of one account (created on first use); undefined when limiting is switched off. */
export function sharedLimiter(
  apiUrl: string,
  apiKey: string,
  options: RateLimitOptions | false | undefined,
): RateLimiter | undefined {
  if (options === false) return undefined;
  const resolved = { ...DEFAULT_RATE_LIMIT, ...definedOnly(options) };
  const id = `${accountHash(apiUrl, apiKey)}:${JSON.stringify(resolved)}`;
  let limiter = limiters.get(id);
  if (!limiter) {
    limiter = new RateLimiter(resolved);
    limiters.set(id, limiter);
  }
  return limiter;
}
