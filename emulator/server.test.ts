import { request } from "node:http";
import { startEmulator, type Emulator } from "./index";
import { emulatorForTests, TestClient } from "./test-client";

/** Routing and the error mapping: every bad request is a 4xx JSON error, never a 5xx. */
describe("server", () => {
  let em: Emulator;
  let c: TestClient;
  emulatorForTests((e, client) => ([em, c] = [e, client]), "all");

  it("echoes X-Request-ID as request_id, and generates one when absent", async () => {
    const res = await c.get("/nope", { headers: { "X-Request-ID": "trace-42" } });
    expect(res.body.request_id).toBe("trace-42");
    expect(res.headers["x-request-id"]).toBe("trace-42");
    const gen = await c.get("/nope");
    expect(gen.body.request_id).toMatch(/^[0-9a-f-]{36}$/);
  });

  it("an unknown path is a 404 JSON error", async () => {
    for (const p of ["/nope", "/projects/a/b/c/d/e/f", "/", "/api_keys/1/x"]) {
      const res = await c.get(p);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: "", message: expect.any(String), request_id: expect.any(String) });
    }
  });

  it("a wrong method is a 405 JSON error with Allow", async () => {
    const res = await c.send("PUT", "/api_keys");
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe("GET, POST");
    expect(res.body.message).toContain("GET, POST");
  });

  it("malformed JSON is 400", async () => {
    const res = await c.send("POST", "/api_keys", { raw: "{nope" });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain("JSON");
  });

  it("an oversized body is 413 and the emulator keeps serving", async () => {
    const res = await c.send("POST", "/api_keys", { raw: Buffer.alloc(2 * 1024 * 1024, 0x61) }).catch(() => undefined);
    if (res) expect(res.status).toBe(413);
    const fresh = new TestClient(em.baseUrl, em.apiKey);
    expect((await fresh.get("/projects")).status).toBe(200);
    fresh.close();
  });

  it("odd paths and encodings are 4xx", async () => {
    for (const p of [
      "/projects/%zz/endpoints",
      "//projects",
      "/projects/%2e%2e/endpoints",
      "/projects/" + "a".repeat(5000),
    ]) {
      const res = await c.get(p);
      expect(res.status).toBeGreaterThanOrEqual(400);
      expect(res.status).toBeLessThan(500);
    }
  });

  it("answers outside /api/v2 with a 404 JSON body", async () => {
    const url = new URL(em.baseUrl);
    const status = await new Promise<number>((resolve, reject) => {
      request({ host: url.hostname, port: url.port, path: "/favicon.ico" }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      })
        .on("error", reject)
        .end();
    });
    expect(status).toBe(404);
  });

  it("keeps a request log and stats", async () => {
    const before = em.stats().requests;
    await c.get("/projects");
    const last = em.requests[em.requests.length - 1];
    expect(last).toMatchObject({ method: "GET", path: "/projects", status: 200 });
    expect(em.stats().requests).toBe(before + 1);
    expect(em.stats().byStatus["200"]).toBeGreaterThan(0);
  });

  it("names the default project's branches with their ids, as the API lists them", async () => {
    expect(Object.keys(em.branches)).toEqual(expect.arrayContaining(["main", "dev", "staging"]));
    const listed = (await c.get(`/projects/${em.projectId}/branches`)).body.branches as { id: string; name: string }[];
    expect(em.branches).toEqual(Object.fromEntries(listed.map((b) => [b.name, b.id])));
    expect(em.branches.dev).toMatch(/^br-[a-z0-9-]+$/);
  });

  it("logs one line per request, never the key", async () => {
    const lines: string[] = [];
    const logged = await startEmulator({ rateLimit: false, log: (l) => lines.push(l) });
    const lc = new TestClient(logged.baseUrl, logged.apiKey);
    await lc.get("/projects");
    await lc.get("/projects", { key: "wrong-key" });
    lc.close();
    await logged.close();
    expect(lines).toHaveLength(2);
    expect(lines.join("\n")).not.toContain(logged.apiKey);
    expect(lines[1]).toContain("401");
  });
});
