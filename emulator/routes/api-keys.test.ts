import type { Emulator } from "../index";
import { emulatorForTests, TestClient, type Body } from "../test-client";

/** API keys: create (secret once), list (bare array, never a secret or a revoked key), revoke. */
describe("api_keys routes", () => {
  let em: Emulator;
  let c: TestClient;
  emulatorForTests((e, client) => ([em, c] = [e, client]));

  it("create answers 200 {id, key, name, created_at, created_by}; the 64-character key works", async () => {
    const res = await c.post("/api_keys", { key_name: "ci" });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["created_at", "created_by", "id", "key", "name"]);
    expect(res.body).toMatchObject({ name: "ci", created_by: em.accountId });
    expect(Number.isInteger(res.body.id)).toBe(true);
    expect(res.body.key).toMatch(/^[a-z0-9]{64}$/);
    expect((await c.get("/projects", { key: res.body.key })).status).toBe(200);
  });

  it("list is a bare array with created_by, last_used_at null until used, and never a secret", async () => {
    const created = (await c.post("/api_keys", { key_name: "unused" })).body;
    const res = await c.get("/api_keys");
    expect(Array.isArray(res.body)).toBe(true);
    const item = res.body.find((k: Body) => k.id === created.id);
    expect(item).toEqual({
      id: created.id,
      name: "unused",
      created_at: created.created_at,
      created_by: { id: em.accountId, name: expect.any(String), image: expect.any(String) },
      last_used_at: null,
      last_used_from_addr: "",
    });
    expect(JSON.stringify(res.body)).not.toContain(created.key);
    expect(JSON.stringify(res.body)).not.toContain(em.apiKey);
  });

  it("revoke answers 200 with revoked true; the key is no longer listed nor usable; again is 404", async () => {
    const created = (await c.post("/api_keys", { key_name: "temp" })).body;
    await c.get("/projects", { key: created.key });
    const res = await c.del(`/api_keys/${created.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: created.id, name: "temp", revoked: true, last_used_from_addr: "127.0.0.1" });
    expect(typeof res.body.last_used_at).toBe("string");
    expect((await c.get("/api_keys")).body.map((k: Body) => k.id)).not.toContain(created.id);
    expect((await c.get("/projects", { key: created.key })).status).toBe(401);
    expect((await c.del(`/api_keys/${created.id}`)).status).toBe(404);
  });

  it.each([
    [{}, "key_name"],
    [{ key_name: "" }, "key_name"],
    [{ key_name: "x".repeat(65) }, "key_name"],
    [{ key_name: 5 }, "key_name"],
    [[], "JSON object"],
  ])("create %j is 400 naming %s, and creates no key", async (body, field) => {
    const res = await c.post("/api_keys", body);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(field);
    expect((await c.get("/api_keys")).body).toHaveLength(1);
  });

  it("revoking a non-integer id is 400, an unknown or another account's key 404", async () => {
    expect((await c.del("/api_keys/abc")).status).toBe(400);
    expect((await c.del("/api_keys/999999")).status).toBe(404);
    const other = em.createAccount();
    const theirs = (await c.get("/api_keys", { key: other.apiKey })).body[0];
    expect((await c.del(`/api_keys/${theirs.id}`)).status).toBe(404);
    expect((await c.get("/projects", { key: other.apiKey })).status).toBe(200);
  });
});
