import { accountHash, DEFAULT_RATE_LIMIT, RateLimiter, routeOf, sharedLimiter, SlidingWindow } from "./rate-limit";

describe("SlidingWindow", () => {
  it("lets `max` requests through at once, then the next when the oldest leaves the window", () => {
    const window = new SlidingWindow(3, 1000);
    for (const at of [0, 0, 10]) window.record(window.nextSlot(at));
    expect(window.nextSlot(20)).toBe(1000);
    window.record(1000);
    expect(window.nextSlot(1000)).toBe(1000);
    window.record(1000);
    expect(window.nextSlot(1000)).toBe(1010);
  });
});

describe("RateLimiter", () => {
  it("never lets more than perMinute through in any minute, nor perSecondPerRoute in any second", () => {
    let now = 0;
    const limiter = new RateLimiter({ ...DEFAULT_RATE_LIMIT, perMinute: 100, perSecondPerRoute: 10 }, () => now);
    const grants: number[] = [];
    for (let i = 0; i < 300; i++) {
      const path = i % 2 === 0 ? `/projects/p/operations/op-${i}` : `/projects/p${i}/endpoints`;
      grants.push(now + limiter.reserve("GET", path));
      now += 5;
    }
    for (const start of grants) {
      expect(grants.filter((t) => t >= start && t < start + 60_000).length).toBeLessThanOrEqual(100);
    }
    const first = grants.slice(0, 20);
    expect(first.filter((t) => t < 1000).length).toBe(20); // two routes, 10 each, in the first second
  });

  it("counts a route by its shape, not by its ids", () => {
    expect(routeOf("/projects/abc/endpoints/ep-1")).toBe("/projects/:id/endpoints/:id");
    expect(routeOf("/projects/xyz/endpoints/ep-2/restart")).toBe("/projects/:id/endpoints/:id/restart");
    expect(routeOf("/api_keys")).toBe("/api_keys");
  });
});

describe("sharedLimiter", () => {
  it("is shared by every client of one account, and never keyed by the key itself", () => {
    const a = sharedLimiter("http://x", "secret-key-1", undefined);
    expect(sharedLimiter("http://x", "secret-key-1", {})).toBe(a);
    expect(sharedLimiter("http://x", "secret-key-2", undefined)).not.toBe(a);
    expect(accountHash("http://x", "secret-key-1")).not.toContain("secret");
  });
  it("can be switched off", () => {
    expect(sharedLimiter("http://x", "k", false)).toBeUndefined();
  });
});
