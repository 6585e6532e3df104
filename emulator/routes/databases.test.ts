import { LOCKED_MESSAGE } from "../errors";
import { emulatorPerTest, type Body, type TestWorld } from "../test-client";

/**
 * Database routes over HTTP (OpenAPI listProjectBranchDatabases, createProjectBranchDatabase, getProjectBranchDatabase,
 * updateProjectBranchDatabase, deleteProjectBranchDatabase): shapes, name rules, owners, operations, the lock.
 */
const boot = emulatorPerTest({ operationDurationMs: 0 });

describe("database routes", () => {
  let w: TestWorld;
  const dbs = (branch: string) => `/projects/${w.pid}/branches/${branch}/databases`;
  const create = (branch: string, database: Record<string, unknown>) => w.c.post(dbs(branch), { database });

  beforeEach(async () => {
    w = await boot();
  });

  it("every branch of the default world has neondb, owned by neondb_owner; list and get", async () => {
    const list = await w.c.get(dbs(w.em.branches.main));
    expect(list.status).toBe(200);
    expect(list.body.databases).toEqual([
      {
        id: expect.any(Number),
        branch_id: w.em.branches.main,
        name: "neondb",
        owner_name: "neondb_owner",
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    ]);
    expect(Number.isInteger(list.body.databases[0].id)).toBe(true);
    const got = await w.c.get(`${dbs(w.em.branches.staging)}/neondb`);
    expect(got.body.database).toMatchObject({ name: "neondb", branch_id: w.em.branches.staging });
    expect(got.body.database.id).not.toBe(list.body.databases[0].id); // a copy, with its own id
  });

  it("create answers 201 {database, operations}; the owner must be a role of the branch (404 `database owner not found`)", async () => {
    const res = await create(w.em.branches.main, { name: "shop", owner_name: "neondb_owner" });
    expect(res.status).toBe(201);
    expect(res.body.database).toMatchObject({
      name: "shop",
      owner_name: "neondb_owner",
      branch_id: w.em.branches.main,
    });
    expect(res.body.operations.map((o: Body) => [o.action, o.status])).toEqual([["apply_config", "running"]]);
    const orphan = await create(w.em.branches.main, { name: "orphan", owner_name: "ghost" });
    expect([orphan.status, orphan.body.message]).toEqual([404, expect.stringMatching(/^database owner not found/)]);
    const taken = await create(w.em.branches.main, { name: "shop", owner_name: "neondb_owner" });
    expect([taken.status, taken.body.message]).toEqual([409, expect.stringContaining('"shop" already exists')]);
    const names = (await w.c.get(dbs(w.em.branches.main))).body.databases.map((d: Body) => d.name);
    expect(names).toEqual(["neondb", "shop"]);
  });

  it.each([
    [{ owner_name: "neondb_owner" }, "database.name is required"],
    [{ name: "x" }, "database.owner_name is required"],
    [{ name: "", owner_name: "neondb_owner" }, "database.name"],
    [{ name: "x", owner_name: "" }, "database.owner_name"],
    [{ name: "x".repeat(64), owner_name: "neondb_owner" }, "cannot exceed 63 bytes"],
    [{ name: "postgres", owner_name: "neondb_owner" }, "protected database name"],
    [{ name: "template0", owner_name: "neondb_owner" }, "protected database name"],
    [{ name: "template1", owner_name: "neondb_owner" }, "protected database name"],
  ])("create %j is 400 (%s), and creates nothing", async (database, message) => {
    const res = await create(w.em.branches.dev, database);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(message);
    expect((await w.c.get(dbs(w.em.branches.dev))).body.databases).toHaveLength(1);
  });

  it("update renames and changes the owner; 409 on a name taken; 404 on an unknown owner; a no-op answers no operations", async () => {
    const main = w.em.branches.main;
    await w.c.post(`/projects/${w.pid}/branches/${main}/roles`, { role: { name: "sally" } });
    await create(main, { name: "other", owner_name: "neondb_owner" });
    const res = await w.c.patch(`${dbs(main)}/neondb`, { database: { name: "app", owner_name: "sally" } });
    expect(res.status).toBe(200);
    expect(res.body.database).toMatchObject({ name: "app", owner_name: "sally" });
    expect(res.body.operations.map((o: Body) => o.action)).toEqual(["apply_config"]);
    expect((await w.c.get(`${dbs(main)}/neondb`)).status).toBe(404);
    expect((await w.c.get(`${dbs(main)}/app`)).body.database.id).toBe(res.body.database.id);
    const taken = await w.c.patch(`${dbs(main)}/app`, { database: { name: "other" } });
    expect(taken.status).toBe(409);
    const ghost = await w.c.patch(`${dbs(main)}/app`, { database: { owner_name: "ghost" } });
    expect([ghost.status, ghost.body.message]).toEqual([404, expect.stringMatching(/^database owner not found/)]);
    const same = await w.c.patch(`${dbs(main)}/app`, { database: { name: "app" } });
    expect([same.status, same.body.operations]).toEqual([200, []]);
    expect((await w.c.patch(`${dbs(main)}/app`, { database: { name: "template1" } })).status).toBe(400);
    expect((await w.c.patch(`${dbs(main)}/app`, {})).status).toBe(400);
    expect((await w.c.patch(`${dbs(main)}/nope`, { database: { name: "x" } })).body.message).toBe("database not found");
    // the new owner now owns a database: it cannot be deleted
    expect((await w.c.del(`/projects/${w.pid}/branches/${main}/roles/sally`)).status).toBe(422);
  });

  it("delete answers {database, operations}; again 204; an unknown database 404 on get", async () => {
    const res = await w.c.del(`${dbs(w.em.branches.main)}/neondb`);
    expect(res.status).toBe(200);
    expect(res.body.database).toMatchObject({ name: "neondb" });
    expect(res.body.operations.map((o: Body) => o.action)).toEqual(["apply_config"]);
    const again = await w.c.del(`${dbs(w.em.branches.main)}/neondb`);
    expect([again.status, again.body]).toEqual([204, undefined]);
    const got = await w.c.get(`${dbs(w.em.branches.main)}/neondb`);
    expect([got.status, got.body.message]).toEqual([404, "database not found"]);
    expect((await w.c.get(dbs("br-none-123456"))).status).toBe(404);
  });

  it("a new branch inherits the databases", async () => {
    await create(w.em.branches.main, { name: "shop", owner_name: "neondb_owner" });
    const child = (await w.c.post(`/projects/${w.pid}/branches`, { branch: { name: "kid" } })).body;
    expect(child.databases.map((d: Body) => d.name)).toEqual(["neondb", "shop"]);
  });

  it("create, update and delete answer 423 while an operation runs, and change nothing", async () => {
    w = await boot({ operationDurationMs: 1000 });
    const main = w.em.branches.main;
    expect((await create(main, { name: "first", owner_name: "neondb_owner" })).status).toBe(201);
    const refused = [
      await create(main, { name: "second", owner_name: "neondb_owner" }),
      await w.c.patch(`${dbs(main)}/first`, { database: { name: "renamed" } }),
      await w.c.del(`${dbs(main)}/first`),
    ];
    for (const r of refused) expect([r.status, r.body.message]).toEqual([423, LOCKED_MESSAGE]);
    expect((await w.c.get(dbs(main))).body.databases.map((d: Body) => d.name)).toEqual(["neondb", "first"]);
    w.em.clock.advance(1000);
    expect((await w.c.del(`${dbs(main)}/first`)).status).toBe(200);
  });
});
