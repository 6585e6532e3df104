import { rateLimitFromEnv } from "./runtime";

describe("NEON_RATE_LIMIT", () => {
  it("reads a per-minute and a per-route-second limit, or off", () => {
    expect(rateLimitFromEnv(undefined)).toBeUndefined();
    expect(rateLimitFromEnv("off")).toBe(false);
    expect(rateLimitFromEnv("300/min, 20/s")).toEqual({
      perMinute: 300,
      accountWindowMs: 60_000,
      perSecondPerRoute: 20,
      routeWindowMs: 1000,
    });
    expect(rateLimitFromEnv("600/15s,35/250ms")).toMatchObject({ accountWindowMs: 15_000, routeWindowMs: 250 });
  });

  it("refuses anything else, naming the variable and the format", () => {
    expect(() => rateLimitFromEnv("fast")).toThrow(
      'NEON_RATE_LIMIT must be "off" or "<count>/<window>,<count>/<window>"',
    );
    expect(() => rateLimitFromEnv("600/min")).toThrow("NEON_RATE_LIMIT");
    expect(() => rateLimitFromEnv("0/min,5/s")).toThrow("NEON_RATE_LIMIT");
  });
});
