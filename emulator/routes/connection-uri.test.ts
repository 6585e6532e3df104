import { emulatorPerTest, primaryEndpoint, type TestWorld } from "../test-client";

/** GET /projects/{id}/connection_uri (OpenAPI getConnectionURI): defaults, the pooled host, and the refusals. */
const boot = emulatorPerTest({ operationDurationMs: 0 });

describe("connection_uri route", () => {
  let w: TestWorld;
  const uri = (q: string) => w.c.get(`/projects/${w.pid}/connection_uri?${q}`);
  const owner = "database_name=neondb&role_name=neondb_owner";
  const password = async (branch: string, role = "neondb_owner") =>
    (await w.c.get(`/projects/${w.pid}/branches/${branch}/roles/${role}/reveal_password`)).body.password as string;

  beforeEach(async () => {
    w = await boot();
  });

  it("defaults to the default branch and its read_write compute: {uri}", async () => {
    const ep = await primaryEndpoint(w.c, w.pid);
    const res = await uri(owner);
    expect(res.status).toBe(200);
    const pw = await password(w.em.branches.main);
    expect(res.body).toEqual({
      uri: `postgresql://neondb_owner:${pw}@${ep.host}/neondb?sslmode=require&channel_binding=require`,
    });
  });

  it("pooled=true uses the -pooler host; pooled=false the compute's", async () => {
    const ep = await primaryEndpoint(w.c, w.pid);
    const pooled = (await uri(`${owner}&pooled=true`)).body.uri as string;
    expect(new URL(pooled).host).toBe(`${ep.id}-pooler.us-east-2.aws.neon.tech`);
    expect(new URL((await uri(`${owner}&pooled=false`)).body.uri).host).toBe(ep.host);
    const bad = await uri(`${owner}&pooled=yes`);
    expect([bad.status, bad.body.message]).toEqual([400, expect.stringContaining("pooled")]);
  });

  it("branch_id and endpoint_id: a branch without a read_write compute is 404; endpoint_id picks its branch; another branch's compute 400", async () => {
    const dev = w.em.branches.dev;
    const none = await uri(`${owner}&branch_id=${dev}`);
    expect([none.status, none.body.message]).toEqual([404, expect.stringContaining("no read_write compute")]);
    const ro = (await w.c.post(`/projects/${w.pid}/endpoints`, { endpoint: { branch_id: dev, type: "read_only" } }))
      .body.endpoint;
    const byEndpoint = await uri(`${owner}&endpoint_id=${ro.id}`);
    expect(byEndpoint.status).toBe(200);
    expect(byEndpoint.body.uri).toContain(`@${ro.host}/`);
    const mismatch = await uri(`${owner}&endpoint_id=${ro.id}&branch_id=${w.em.branches.main}`);
    expect([mismatch.status, mismatch.body.message]).toEqual([400, expect.stringContaining("endpoint_id")]);
    const unknown = await uri(`${owner}&endpoint_id=ep-none-123456`);
    expect([unknown.status, unknown.body.message]).toEqual([404, "endpoint not found"]);
  });

  it("a role's special characters are percent-encoded; its own password is used", async () => {
    const main = w.em.branches.main;
    const role = (await w.c.post(`/projects/${w.pid}/branches/${main}/roles`, { role: { name: "app user" } })).body
      .role;
    const res = await uri(`database_name=neondb&role_name=${encodeURIComponent("app user")}`);
    const parsed = new URL(res.body.uri);
    expect([decodeURIComponent(parsed.username), parsed.password, parsed.pathname]).toEqual([
      "app user",
      role.password,
      "/neondb",
    ]);
  });

  it("refusals: database_name and role_name required (400), unknown ones 404, a no_login role 422", async () => {
    const noDb = await uri("role_name=neondb_owner");
    expect([noDb.status, noDb.body.message]).toEqual([400, "database_name is required"]);
    expect((await uri("database_name=neondb")).body.message).toBe("role_name is required");
    expect((await uri("database_name=nope&role_name=neondb_owner")).body.message).toBe("database not found");
    expect((await uri("database_name=neondb&role_name=nope")).body.message).toBe("role not found");
    expect((await uri(`${owner}&branch_id=BAD_ID`)).status).toBe(400);
    expect((await uri(`${owner}&branch_id=br-none-123456`)).body.message).toBe("branch not found");
    await w.c.post(`/projects/${w.pid}/branches/${w.em.branches.main}/roles`, {
      role: { name: "group", no_login: true },
    });
    expect((await uri("database_name=neondb&role_name=group")).status).toBe(422);
    expect((await w.c.get(`/projects/no-such/connection_uri?${owner}`)).status).toBe(404);
  });

  it("follows a password reset", async () => {
    const main = w.em.branches.main;
    const reset = await w.c.post(`/projects/${w.pid}/branches/${main}/roles/neondb_owner/reset_password`);
    expect(new URL((await uri(owner)).body.uri).password).toBe(reset.body.role.password);
  });
});
