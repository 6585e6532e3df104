import { configure, configuredByProgram, noteProgramCheck, rateLimitFromEnv, settingsInUse } from "./runtime";

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

/** Issue 19: advice names where the key and the URL in use come from (and only those sources, in resolveConfig's order). */
describe("settingsInUse", () => {
  const config = (values: Record<string, string>) => configure({ get: (key) => values[key] });
  afterEach(() => configure(undefined));

  it("the stack config wins over the environment, which wins over the default", () => {
    config({ "neon:apiUrl": "http://127.0.0.1:4010/api/v2/", "neon:apiKey": "k" });
    expect(settingsInUse({ NEON_API_HOST: "http://elsewhere", NEON_API_KEY: "e" })).toEqual({
      apiUrl: "http://127.0.0.1:4010/api/v2",
      apiUrlFrom: "neon:apiUrl",
      apiKeyFrom: "neon:apiKey",
    });
    config({ apiUrl: "http://the-program's-own", apiKey: "p" });
    expect(settingsInUse({ NEON_API_HOST: " http://elsewhere/api/v2 ", NEON_API_KEY: "e" })).toEqual({
      apiUrl: "http://elsewhere/api/v2",
      apiUrlFrom: "NEON_API_HOST",
      apiKeyFrom: "NEON_API_KEY",
    });
    expect(settingsInUse({ NEON_API_HOST: "", NEON_API_KEY: " " })).toEqual({
      apiUrl: "https://console.neon.tech/api/v2",
      apiUrlFrom: "default",
    });
  });

  it("a process that checked a program's inputs is configured by the program (not from a saved config)", () => {
    expect(configuredByProgram()).toBe(false);
    noteProgramCheck({ apiKey: "a-resource-s-own-key" });
    expect(configuredByProgram()).toBe(true);
  });
});
