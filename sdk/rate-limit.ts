/**
 * A client-side token bucket, shared by every client of the process that talks to one account. Prevents 429s: the
 * service allows 700 requests/minute per account and bursts of 40/s per route, and a `pulumi up` with many
 * resources builds many clients, each of which would otherwise believe it has the whole budget.
 */
import { createHash } from "crypto";
import { sleep } from "./retry";

/** Sustained rate and burst. */
export interface RateLimitOptions {
  /** Tokens added per second (sustained requests per second). */
  perSecond?: number;
  /** Bucket size (requests that may go at once after a quiet period). */
  burst?: number;
}

/** Under the service's 700/min (about 11.7/s) with room for other tools sharing the key. */
export const DEFAULT_RATE_LIMIT: Required<RateLimitOptions> = { perSecond: 10, burst: 20 };

/** A FIFO token bucket: a caller reserves a token (the balance may go negative) and waits until it is paid for. */
export class TokenBucket {
  private tokens: number;
  private last: number;

  constructor(
    readonly perSecond: number,
    readonly burst: number,
    private readonly now: () => number = Date.now,
  ) {
    this.tokens = burst;
    this.last = now();
  }

  /** Milliseconds the caller must wait for its token; the token is reserved at once. */
  reserve(): number {
    const now = this.now();
    this.tokens = Math.min(this.burst, this.tokens + ((now - this.last) / 1000) * this.perSecond);
    this.last = now;
    this.tokens -= 1;
    return this.tokens >= 0 ? 0 : Math.ceil((-this.tokens / this.perSecond) * 1000);
  }

  /** Waits for a token; a cancelled wait gives its token back. */
  async take(signal?: AbortSignal): Promise<void> {
    const wait = this.reserve();
    if (wait === 0) return;
    try {
      await sleep(wait, signal);
    } catch (error) {
      this.tokens += 1;
      throw error;
    }
  }
}

const buckets = new Map<string, TokenBucket>();

/** A stable identity of an account at a URL that does not contain the key itself. */
export function accountHash(apiUrl: string, apiKey: string): string {
  return createHash("sha256").update(`${apiUrl}\n${apiKey}`).digest("hex").slice(0, 32);
}

/** The process-wide bucket of one account (created on first use); undefined when limiting is switched off. */
export function sharedBucket(
  apiUrl: string,
  apiKey: string,
  options: RateLimitOptions | false | undefined,
): TokenBucket | undefined {
  if (options === false) return undefined;
  const perSecond = options?.perSecond ?? DEFAULT_RATE_LIMIT.perSecond;
  const burst = options?.burst ?? DEFAULT_RATE_LIMIT.burst;
  const id = `${accountHash(apiUrl, apiKey)}:${perSecond}:${burst}`;
  let bucket = buckets.get(id);
  if (!bucket) {
    bucket = new TokenBucket(perSecond, burst);
    buckets.set(id, bucket);
  }
  return bucket;
}
