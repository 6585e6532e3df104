/**
 * The real service's rate limits: 700 requests/minute per account and bursts of 40/s per route, as token
 * buckets refilled on the emulator clock (a time-scaled or manual clock refills accordingly). Lets clients
 * prove they back off on 429 before they meet the real limit.
 */
export interface RateLimitOptions {
  perMinute?: number;
  burstPerSecondPerRoute?: number;
}

interface Bucket {
  tokens: number;
  at: number;
}

export class RateLimiter {
  private readonly buckets = new Map<string, Bucket>();
  private readonly perMinute: number;
  private readonly perSecond: number;

  constructor(options: RateLimitOptions = {}) {
    this.perMinute = options.perMinute ?? 700;
    this.perSecond = options.burstPerSecondPerRoute ?? 40;
  }

  /**
   * Takes one token from the account's bucket and one from its route's; returns 0 when allowed, else the
   * seconds until a retry can succeed (nothing is taken then).
   */
  take(accountId: string, route: string, now: number): number {
    const acc = this.refill(accountId, this.perMinute, 60000, now);
    const rt = this.refill(`${accountId} ${route}`, this.perSecond, 1000, now);
    if (acc.tokens >= 1 && rt.tokens >= 1) {
      acc.tokens -= 1;
      rt.tokens -= 1;
      return 0;
    }
    const waitAcc = acc.tokens >= 1 ? 0 : ((1 - acc.tokens) * 60000) / this.perMinute;
    const waitRt = rt.tokens >= 1 ? 0 : ((1 - rt.tokens) * 1000) / this.perSecond;
    return Math.max(1, Math.ceil(Math.max(waitAcc, waitRt) / 1000));
  }

  private refill(key: string, capacity: number, windowMs: number, now: number): Bucket {
    let b = this.buckets.get(key);
    if (!b) {
      b = { tokens: capacity, at: now };
      this.buckets.set(key, b);
      return b;
    }
    if (now > b.at) {
      b.tokens = Math.min(capacity, b.tokens + ((now - b.at) * capacity) / windowMs);
      b.at = now;
    }
    return b;
  }
}
