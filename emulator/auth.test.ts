import type { Emulator } from "./index";
import { emulatorForTests, primaryEndpoint, TestClient } from "./test-client";

/** Authentication and account isolation. */
describe("authentication", () => {
  let em: Emulator;
  let c: TestClient;
  emulatorForTests((e, client) => ([em, c] = [e, client]));

  it.each([
    ["missing", null],
    ["unknown", "x".repeat(64)],
    ["malformed", "two words"],
  ])("a %s key is 401 with a JSON error body that does not echo it", async (_what, key) => {
    const res = await c.get("/projects", { key });
    expect(res.status).toBe(401);
    expect(res.headers["content-type"]).toBe("application/json");
    expect(res.body).toEqual({ code: "", message: expect.any(String), request_id: expect.any(String) });
    if (key) expect(JSON.stringify(res.body)).not.toContain(key);
  });

  it("a Basic or empty Authorization header is 401", async () => {
    for (const h of ["Basic abc", "Bearer", ""]) {
      const res = await c.get("/projects", { key: null, headers: { Authorization: h } });
      expect(res.status).toBe(401);
    }
  });

  it("revocation applies to the very next request on the same kept-alive connection", async () => {
    const k = (await c.post("/api_keys", { key_name: "short-lived" })).body;
    const victim = new TestClient(em.baseUrl, k.key);
    expect((await victim.get("/projects")).status).toBe(200);
    expect((await c.del(`/api_keys/${k.id}`)).status).toBe(200);
    const after = await victim.get("/projects");
    expect(after.reusedSocket).toBe(true);
    expect(after.status).toBe(401);
    victim.close();
  });

  it("records last_used_at and last_used_from_addr on every use", async () => {
    const k = (await c.post("/api_keys", { key_name: "tracked" })).body;
    em.clock.advance(5_000);
    await c.get("/projects", { key: k.key });
    const item = (await c.get("/api_keys")).body.find((x: { id: number }) => x.id === k.id);
    expect(item.last_used_at).toBe(new Date(em.clock.now()).toISOString());
    expect(item.last_used_from_addr).toBe("127.0.0.1");
  });

  it("another account's compute and project answer 404, and it cannot change them", async () => {
    const ep = await primaryEndpoint(c, em.projectId);
    const other = em.createAccount();
    const oc = new TestClient(em.baseUrl, other.apiKey);
    const path = `/projects/${em.projectId}/endpoints/${ep.id}`;
    expect((await oc.get(path)).status).toBe(404);
    expect((await oc.del(path)).status).toBe(404);
    expect((await oc.get(`/projects/${em.projectId}/endpoints`)).status).toBe(404);
    expect((await oc.get(`/projects/${other.projectId}/endpoints/${ep.id}`)).body.message).toBe("endpoint not found");
    expect((await c.get(path)).status).toBe(200);
    oc.close();
  });
});
