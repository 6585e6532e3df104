import { LOCKED_MESSAGE } from "../errors";
import { startEmulator } from "../index";
import { emulatorPerTest, primaryEndpoint, type Body, type TestWorld } from "../test-client";

/**
 * Role routes over HTTP (OpenAPI listProjectBranchRoles, createProjectBranchRole, getProjectBranchRole,
 * deleteProjectBranchRole, getProjectBranchRolePassword, resetProjectBranchRolePassword): shapes, name rules,
 * passwords, the operations that reach the computes, the project lock, and what a child branch inherits.
 */
const boot = emulatorPerTest({ operationDurationMs: 0 });

describe("role routes", () => {
  let w: TestWorld;
  const roles = (branch: string) => `/projects/${w.pid}/branches/${branch}/roles`;
  const create = (branch: string, role: Record<string, unknown>) => w.c.post(roles(branch), { role });

  beforeEach(async () => {
    w = await boot();
  });

  it("every branch of the default world has neondb_owner; list and get show no password; reveal_password does", async () => {
    const list = await w.c.get(roles(w.em.branches.main));
    expect(list.status).toBe(200);
    expect(list.body.roles).toEqual([
      {
        branch_id: w.em.branches.main,
        name: "neondb_owner",
        protected: false,
        authentication_method: "password",
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    ]);
    const got = await w.c.get(`${roles(w.em.branches.dev)}/neondb_owner`);
    expect(got.body.role.password).toBeUndefined();
    const main = await w.c.get(`${roles(w.em.branches.main)}/neondb_owner/reveal_password`);
    const dev = await w.c.get(`${roles(w.em.branches.dev)}/neondb_owner/reveal_password`);
    expect(main.body).toEqual({ password: expect.stringMatching(/^[A-Za-z0-9]{12}$/) });
    expect(dev.body.password).toBe(main.body.password); // the children were made from main
  });

  it("create answers 201 {role with its password, operations}: apply_config on a running compute", async () => {
    const res = await create(w.em.branches.main, { name: "app" });
    expect(res.status).toBe(201);
    expect(res.body.role).toMatchObject({ branch_id: w.em.branches.main, name: "app", protected: false });
    expect(res.body.role.password).toMatch(/^[A-Za-z0-9]{12}$/);
    const ep = await primaryEndpoint(w.c, w.pid);
    expect(res.body.operations.map((o: Body) => [o.action, o.status, o.endpoint_id])).toEqual([
      ["apply_config", "running", ep.id],
    ]);
    const revealed = await w.c.get(`${roles(w.em.branches.main)}/app/reveal_password`);
    expect(revealed.body.password).toBe(res.body.role.password);
    expect((await w.c.get(roles(w.em.branches.main))).body.roles.map((r: Body) => r.name)).toEqual([
      "neondb_owner",
      "app",
    ]);
  });

  it("an idle compute gets apply_config and suspend_compute; a branch without computes no operations", async () => {
    w.em.clock.advance(301_000); // the primary autosuspends
    const ep = await primaryEndpoint(w.c, w.pid);
    expect(ep.current_state).toBe("idle");
    const res = await create(w.em.branches.main, { name: "app" });
    expect(res.body.operations.map((o: Body) => [o.action, o.status])).toEqual([
      ["apply_config", "running"],
      ["suspend_compute", "scheduling"],
    ]);
    const bare = await create(w.em.branches.dev, { name: "app" });
    expect([bare.status, bare.body.operations]).toEqual([201, []]);
  });

  it.each([
    [{}, "role.name is required"],
    [{ name: "" }, "role.name"],
    [{ name: 7 }, "role.name"],
    [{ name: "x".repeat(64) }, "cannot exceed 63 bytes"],
    [{ name: "é".repeat(32) }, "64 bytes"],
    [{ name: "pg_reader" }, "names starting with pg_ are reserved"],
    [{ name: "neon_superuser" }, "protected role name"],
    [{ name: "cloud_admin" }, "protected role name"],
    [{ name: "zenith_admin" }, "protected role name"],
    [{ name: "public" }, "protected role name"],
    [{ name: "none" }, "protected role name"],
    [{ name: "ok", no_login: "yes" }, "role.no_login"],
  ])("create %j is 400 (%s), and creates nothing", async (role, message) => {
    const res = await create(w.em.branches.dev, role);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(message);
    expect((await w.c.get(roles(w.em.branches.dev))).body.roles).toHaveLength(1);
  });

  it("names of 63 bytes are accepted; a body without `role` is 400; a name taken is 409", async () => {
    expect((await create(w.em.branches.dev, { name: "x".repeat(63) })).status).toBe(201);
    expect((await create(w.em.branches.dev, { name: "é".repeat(31) })).status).toBe(201);
    expect((await create(w.em.branches.dev, { name: "PG_upper" })).status).toBe(201); // the reserved prefix is pg_
    expect((await w.c.post(roles(w.em.branches.dev), { name: "flat" })).status).toBe(400);
    const taken = await create(w.em.branches.dev, { name: "neondb_owner" });
    expect([taken.status, taken.body.message]).toEqual([409, expect.stringContaining('"neondb_owner" already exists')]);
  });

  it("no_login: no password in the create, authentication_method no_login; reveal and reset refused (422)", async () => {
    const res = await create(w.em.branches.dev, { name: "group", no_login: true });
    expect(res.status).toBe(201);
    expect(res.body.role.password).toBeUndefined();
    expect(res.body.role.authentication_method).toBe("no_login");
    const reveal = await w.c.get(`${roles(w.em.branches.dev)}/group/reveal_password`);
    expect([reveal.status, reveal.body.message]).toEqual([422, expect.stringContaining("no_login")]);
    expect((await w.c.post(`${roles(w.em.branches.dev)}/group/reset_password`)).status).toBe(422);
  });

  it("reset_password answers the role with a new password and operations; reveal then shows it", async () => {
    const before = (await w.c.get(`${roles(w.em.branches.main)}/neondb_owner/reveal_password`)).body.password;
    const res = await w.c.post(`${roles(w.em.branches.main)}/neondb_owner/reset_password`);
    expect(res.status).toBe(200);
    expect(res.body.role.name).toBe("neondb_owner");
    expect(res.body.role.password).not.toBe(before);
    expect(res.body.operations.map((o: Body) => o.action)).toEqual(["apply_config"]);
    const after = (await w.c.get(`${roles(w.em.branches.main)}/neondb_owner/reveal_password`)).body.password;
    expect(after).toBe(res.body.role.password);
    const dev = (await w.c.get(`${roles(w.em.branches.dev)}/neondb_owner/reveal_password`)).body.password;
    expect(dev).toBe(before); // a child's role is its own copy
  });

  it("revealAfterReset old: reveal shows the old password until the reset's operations finish", async () => {
    w = await boot({ manualClock: true, operationDurationMs: 1000, revealAfterReset: "old" });
    const reveal = async () => (await w.c.get(`${roles(w.em.branches.main)}/neondb_owner/reveal_password`)).body;
    const before = (await reveal()).password;
    const res = await w.c.post(`${roles(w.em.branches.main)}/neondb_owner/reset_password`);
    expect(await reveal()).toEqual({ password: before });
    w.em.clock.advance(1000);
    expect(await reveal()).toEqual({ password: res.body.role.password });
  });

  it("storePasswords false: reveal_password answers 412, the project says store_passwords false", async () => {
    w = await boot({ storePasswords: false });
    const res = await w.c.get(`${roles(w.em.branches.main)}/neondb_owner/reveal_password`);
    expect([res.status, res.body.message]).toEqual([412, "Storing passwords is disabled"]);
    expect((await w.c.get(`/projects/${w.pid}`)).body.project.store_passwords).toBe(false);
  });

  it("delete: a role owning a database is refused (422 naming it); else {role, operations}; then 204", async () => {
    const main = w.em.branches.main;
    const owner = await w.c.del(`${roles(main)}/neondb_owner`);
    expect([owner.status, owner.body.message]).toEqual([422, expect.stringContaining("owns database(s) neondb")]);
    await create(main, { name: "app" });
    const res = await w.c.del(`${roles(main)}/app`);
    expect(res.status).toBe(200);
    expect(res.body.role).toMatchObject({ name: "app" });
    expect(res.body.role.password).toBeUndefined();
    expect(res.body.operations.map((o: Body) => o.action)).toEqual(["apply_config"]);
    expect((await w.c.get(`${roles(main)}/app`)).status).toBe(404);
    const again = await w.c.del(`${roles(main)}/app`);
    expect([again.status, again.body]).toEqual([204, undefined]);
    await w.c.del(`/projects/${w.pid}/branches/${main}/databases/neondb`);
    expect((await w.c.del(`${roles(main)}/neondb_owner`)).status).toBe(200);
  });

  it("unknown role: 404 role not found on get, reveal and reset; unknown branch 404", async () => {
    for (const res of [
      await w.c.get(`${roles(w.em.branches.dev)}/ghost`),
      await w.c.get(`${roles(w.em.branches.dev)}/ghost/reveal_password`),
      await w.c.post(`${roles(w.em.branches.dev)}/ghost/reset_password`),
    ]) {
      expect([res.status, res.body.message]).toEqual([404, "role not found"]);
    }
    expect((await w.c.get(roles("br-none-123456"))).body.message).toBe("branch not found");
  });

  it("a role name with characters that need escaping in the path", async () => {
    expect((await create(w.em.branches.dev, { name: "my role/ü" })).status).toBe(201);
    const got = await w.c.get(`${roles(w.em.branches.dev)}/${encodeURIComponent("my role/ü")}`);
    expect(got.body.role.name).toBe("my role/ü");
  });

  it("a new branch inherits the roles with their passwords", async () => {
    const app = (await create(w.em.branches.main, { name: "app" })).body.role;
    const child = (await w.c.post(`/projects/${w.pid}/branches`, { branch: { name: "kid" } })).body.branch;
    const pw = await w.c.get(`${roles(child.id)}/app/reveal_password`);
    expect(pw.body.password).toBe(app.password);
  });

  it("create, delete and reset_password answer 423 while an operation runs, and change nothing", async () => {
    w = await boot({ operationDurationMs: 1000 });
    const main = w.em.branches.main;
    const first = await create(main, { name: "first" });
    expect(first.status).toBe(201); // its apply_config now runs
    const refused = [
      await create(main, { name: "second" }),
      await w.c.del(`${roles(main)}/first`),
      await w.c.post(`${roles(main)}/first/reset_password`),
    ];
    for (const r of refused) expect([r.status, r.body.message]).toEqual([423, LOCKED_MESSAGE]);
    expect((await w.c.get(`${roles(main)}/first/reveal_password`)).body.password).toBe(first.body.role.password);
    w.em.clock.advance(1000);
    expect((await create(main, { name: "second" })).status).toBe(201);
  });

  it("a fixture may declare roles and databases; an unknown owner fails at start", async () => {
    const fixture = {
      accounts: [
        {
          projects: [
            {
              branches: [
                {
                  name: "main",
                  roles: [
                    { name: "alice", password: "Secret123abc" },
                    { name: "readers", no_login: true },
                  ],
                  databases: [{ name: "shop", owner_name: "alice" }],
                },
                { name: "dev" },
              ],
            },
          ],
        },
      ],
    };
    w = await boot({ fixture });
    const dev = w.em.branches.dev;
    expect((await w.c.get(roles(dev))).body.roles.map((r: Body) => r.name)).toEqual(["alice", "readers"]);
    expect((await w.c.get(`${roles(dev)}/alice/reveal_password`)).body.password).toBe("Secret123abc");
    const dbs = (await w.c.get(`/projects/${w.pid}/branches/${dev}/databases`)).body.databases;
    expect(dbs.map((d: Body) => [d.name, d.owner_name])).toEqual([["shop", "alice"]]);
    const bad = {
      accounts: [{ projects: [{ branches: [{ name: "main", databases: [{ name: "x", owner_name: "ghost" }] }] }] }],
    };
    await expect(startEmulator({ fixture: bad })).rejects.toThrow(/fixture branch "main".*owner_name "ghost"/);
    const reserved = { accounts: [{ projects: [{ branches: [{ name: "main", roles: [{ name: "pg_x" }] }] }] }] };
    await expect(startEmulator({ fixture: reserved })).rejects.toThrow(/pg_ are reserved/);
  });
});
