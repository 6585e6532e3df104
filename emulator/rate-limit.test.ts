import { startEmulator } from "./index";
import { RateLimiter } from "./rate-limit";
import { TestClient } from "./test-client";

describe("RateLimiter", () => {
  it("allows a burst of 40/s per route, then refills with time", () => {
    const rl = new RateLimiter();
    for (let i = 0; i < 40; i++) expect(rl.take("a", "GET /projects", 0)).toBe(0);
    expect(rl.take("a", "GET /projects", 0)).toBeGreaterThan(0);
    expect(rl.take("a", "GET /api_keys", 0)).toBe(0); // another route has its own bucket
    expect(rl.take("b", "GET /projects", 0)).toBe(0); // another account too
    expect(rl.take("a", "GET /projects", 25)).toBe(0); // one token back after 1/40 s
  });

  it("caps an account at 700/minute across routes", () => {
    const rl = new RateLimiter();
    let allowed = 0;
    for (let i = 0; i < 800; i++) if (rl.take("a", `GET /r${i % 40}`, 0) === 0) allowed++;
    expect(allowed).toBe(700);
    expect(rl.take("a", "GET /other", 0)).toBeGreaterThan(0);
    expect(rl.take("a", "GET /other", Math.ceil(60_000 / 700))).toBe(0);
  });
});

describe("rate limit over HTTP", () => {
  it("answers 429 JSON over the route burst (no Retry-After, as the real service), and recovers", async () => {
    const em = await startEmulator({ manualClock: true });
    const c = new TestClient(em.baseUrl, em.apiKey);
    const statuses: number[] = [];
    for (let i = 0; i < 41; i++) statuses.push((await c.get("/projects")).status);
    expect(statuses.slice(0, 40).every((s) => s === 200)).toBe(true);
    const limited = await c.get("/projects");
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ code: "", message: expect.any(String), request_id: expect.any(String) });
    expect(limited.headers["retry-after"]).toBeUndefined();
    expect((await c.get("/api_keys")).status).toBe(200);
    em.clock.advance(1_000);
    expect((await c.get("/projects")).status).toBe(200);
    c.close();
    await em.close();
  });

  it("retryAfter: true sends Retry-After (seconds until a retry can succeed)", async () => {
    const em = await startEmulator({ manualClock: true, retryAfter: true });
    const c = new TestClient(em.baseUrl, em.apiKey);
    for (let i = 0; i < 40; i++) await c.get("/projects");
    const limited = await c.get("/projects");
    expect(limited.status).toBe(429);
    expect(Number(limited.headers["retry-after"])).toBeGreaterThanOrEqual(1);
    c.close();
    await em.close();
  });

  it("honours a custom per-minute limit, and rateLimit: false switches it off", async () => {
    const strict = await startEmulator({ manualClock: true, rateLimit: { perMinute: 5 } });
    const sc = new TestClient(strict.baseUrl, strict.apiKey);
    const s: number[] = [];
    for (let i = 0; i < 6; i++) s.push((await sc.get("/api_keys")).status);
    expect(s).toEqual([200, 200, 200, 200, 200, 429]);
    sc.close();
    await strict.close();
    const off = await startEmulator({ manualClock: true, rateLimit: false });
    const oc = new TestClient(off.baseUrl, off.apiKey);
    for (let i = 0; i < 100; i++) expect((await oc.get("/projects")).status).toBe(200);
    oc.close();
    await off.close();
  });
});
