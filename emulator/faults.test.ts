import { startEmulator, type Emulator } from "./index";
import { FaultInjector, mulberry32, parseFaultSpec } from "./faults";
import { emulatorForTests, TestClient, type Body } from "./test-client";

describe("fault injection units", () => {
  it("mulberry32 is deterministic from its seed", () => {
    const a = mulberry32(7);
    const b = mulberry32(7);
    const xs = Array.from({ length: 5 }, () => a());
    expect(Array.from({ length: 5 }, () => b())).toEqual(xs);
    expect(mulberry32(8)()).not.toBe(xs[0]);
  });

  it("the same seed gives the same random faults", () => {
    const run = () => {
      const f = new FaultInjector({ seed: 42, rate: 0.3, kinds: ["500", "reset"] });
      return Array.from({ length: 50 }, () => f.pick("GET", "/projects")?.kind ?? "-").join(",");
    };
    const one = run();
    expect(run()).toBe(one);
    expect(one).toContain("500");
    expect(one).toContain("reset");
  });

  it("parses the CLI spec", () => {
    expect(parseFaultSpec("seed=3,rate=0.5,kinds=500+reset")).toEqual({ seed: 3, rate: 0.5, kinds: ["500", "reset"] });
    expect(() => parseFaultSpec("rate=2")).toThrow(/rate/);
    expect(() => parseFaultSpec("bogus=1")).toThrow(/bogus/);
  });
});

describe("faults over HTTP", () => {
  let em: Emulator;
  let c: TestClient;
  const keyNames = async (): Promise<string[]> => (await c.get("/api_keys")).body.map((k: Body) => k.name);
  emulatorForTests((e, client) => ([em, c] = [e, client]));

  it.each(["500", "502", "503", "423", "429"] as const)(
    "%s answers that status as JSON and changes nothing",
    async (kind) => {
      em.faults.add({ method: "POST", path: "/api_keys", kind });
      const res = await c.post("/api_keys", { key_name: "k" });
      expect(res.status).toBe(Number(kind));
      expect(res.body).toEqual({ code: "", message: expect.any(String), request_id: expect.any(String) });
      expect(await keyNames()).toEqual(["console"]);
      expect(em.faults.injected()).toBe(1);
    },
  );

  it("reset destroys the socket before any response, and changes nothing", async () => {
    em.faults.add({ path: "/api_keys", method: "POST", kind: "reset" });
    await expect(c.post("/api_keys", { key_name: "lost" })).rejects.toThrow(/socket hang up|ECONNRESET/);
    expect(await keyNames()).toEqual(["console"]);
    expect(em.requests.find((r) => r.fault === "reset")?.status).toBe(0);
  });

  it("ambiguous applies the change and then destroys the socket", async () => {
    em.faults.add({ path: "/api_keys", method: "POST", kind: "ambiguous" });
    await expect(c.post("/api_keys", { key_name: "maybe" })).rejects.toThrow(/socket hang up|ECONNRESET/);
    expect(await keyNames()).toEqual(["console", "maybe"]);
  });

  it("524 (a proxy timeout) applies the change, then answers 524: the outcome is unknown to the client", async () => {
    em.faults.add({ path: "/api_keys", method: "POST", kind: "524" });
    const res = await c.post("/api_keys", { key_name: "timed-out" });
    expect(res.status).toBe(524);
    expect(res.body).toEqual({ code: "", message: expect.stringContaining("timeout"), request_id: expect.any(String) });
    expect(res.body.key).toBeUndefined();
    expect(await keyNames()).toEqual(["console", "timed-out"]);
  });

  it("an injected 429 carries no Retry-After unless the emulator was started with retryAfter", async () => {
    em.faults.add({ path: "/projects", kind: "429" });
    expect((await c.get("/projects")).headers["retry-after"]).toBeUndefined();
  });

  it("slow delays the response, then answers normally", async () => {
    em.faults.add({ path: "/projects", kind: "slow", delayMs: 300 });
    const res = await c.get("/projects");
    expect(res.status).toBe(200);
    expect(em.requests.at(-1)).toMatchObject({ path: "/projects", status: 200, fault: "slow" });
  });

  it("scripted rules match method and path (RegExp too), for `times` requests", async () => {
    em.faults.add({ method: "GET", path: /^\/projects$/, kind: "503", times: 2 });
    expect((await c.get("/api_keys")).status).toBe(200);
    expect((await c.get("/projects")).status).toBe(503);
    expect((await c.get("/projects")).status).toBe(503);
    expect((await c.get("/projects")).status).toBe(200);
    em.faults.add({ kind: "500", times: 5 });
    em.faults.clear();
    expect((await c.get("/projects")).status).toBe(200);
  });

  it("random faults at rate 1 hit every request, deterministically by seed", async () => {
    const noisy = await startEmulator({ rateLimit: false, faults: { seed: 5, rate: 1, kinds: ["502"] } });
    const nc = new TestClient(noisy.baseUrl, noisy.apiKey);
    for (let i = 0; i < 5; i++) expect((await nc.get("/projects")).status).toBe(502);
    expect(noisy.faults.injected()).toBe(5);
    nc.close();
    await noisy.close();
  });
});
