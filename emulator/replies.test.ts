import type { Emulator } from "./index";
import { emulatorForTests, TestClient, type Body } from "./test-client";

/** The scripted-reply test device: rewrites the next matching replies after the route ran, then stops. */
describe("scripted replies (a test device)", () => {
  let em: Emulator;
  let c: TestClient;
  emulatorForTests((e, client) => ([em, c] = [e, client]));

  it("rewrites the body of the next matching reply once; the route's change stays", async () => {
    em.replies.rewriteNext({
      method: "POST",
      path: "/api_keys",
      rewrite: ({ status, body }) => ({ status, body: { ...(body as Body), name: "renamed" } }),
    });
    const first = await c.post("/api_keys", { key_name: "k" });
    expect([first.status, first.body.name, typeof first.body.key]).toEqual([200, "renamed", "string"]);
    expect((await c.post("/api_keys", { key_name: "k2" })).body.name).toBe("k2");
    expect((await c.get("/api_keys")).body.map((k: Body) => k.name)).toEqual(["console", "k", "k2"]);
  });

  it("rewrites an error's status for `times` matching requests, leaving others alone", async () => {
    em.replies.rewriteNext({
      path: /^\/projects\/no-such$/,
      times: 2,
      rewrite: ({ body }) => ({ status: 403, body: { ...(body as Body), message: "forbidden" } }),
    });
    for (let i = 0; i < 2; i++) expect((await c.get("/projects/no-such")).status).toBe(403);
    expect((await c.get("/projects/no-such")).status).toBe(404);
    em.replies.rewriteNext({ path: "/projects", rewrite: () => ({ status: 500, body: {} }) });
    em.replies.clear();
    expect((await c.get(`/projects/${em.projectId}`)).status).toBe(200);
  });
});
