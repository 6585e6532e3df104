/**
 * Databases against the emulator over HTTP: create, list, get, rename, change owner, delete (and a delete of one
 * that is not there, which resolves saying so); names that need encoding in a path; changes under the project lock.
 * And the connection URI of a database and role, pooled or not.
 */
import { Emulator } from "../emulator";
import { NeonClient } from "./client";
import { clientFor, rejection, seen, start } from "./testing.test.helpers";

let emu: Emulator;
let client: NeonClient;
let projectId: string;
let ids: Record<string, string>;

beforeAll(async () => {
  emu = await start();
  client = clientFor(emu);
  projectId = emu.projectId;
  ids = Object.fromEntries((await client.branches.list(projectId)).map((b) => [b.name, b.id]));
  await client.roles.create(projectId, ids.dev, { name: "owner_a" });
  await client.roles.create(projectId, ids.dev, { name: "owner b" });
});
afterAll(() => emu.close());

const done = (ops: { status: string }[]) => ops.every((op) => ["finished", "skipped"].includes(op.status));

describe("databases", () => {
  const name = "app db é";

  it("creates a database owned by a role, resolving once the operations are done", async () => {
    const created = await client.databases.create(projectId, ids.dev, { name, owner_name: "owner_a" });
    expect(created.database).toMatchObject({ name, owner_name: "owner_a", branch_id: ids.dev });
    expect(Number.isInteger(created.database.id)).toBe(true);
    expect(done(created.operations)).toBe(true);
    expect(seen(emu, "POST", `/branches/${ids.dev}/databases`).map((r) => r.status)).toEqual([201]);
  });
  it("lists and gets it (the name encoded as one path segment)", async () => {
    expect((await client.databases.list(projectId, ids.dev)).map((d) => d.name)).toContain(name);
    expect(await client.databases.get(projectId, ids.dev, name)).toMatchObject({ name, owner_name: "owner_a" });
    expect(seen(emu, "GET", `/databases/${encodeURIComponent(name)}`).map((r) => r.status)).toEqual([200]);
  });
  it("changes the owner, then renames", async () => {
    const owned = await client.databases.update(projectId, ids.dev, name, { owner_name: "owner b" });
    expect(owned.database).toMatchObject({ name, owner_name: "owner b" });
    expect(done(owned.operations)).toBe(true);
    const renamed = await client.databases.update(projectId, ids.dev, name, { database: { name: "app_db_2" } });
    expect(renamed.database).toMatchObject({ name: "app_db_2", owner_name: "owner b" });
    expect(await rejection(client.databases.get(projectId, ids.dev, name))).toMatchObject({ kind: "not_found" });
    expect((await client.databases.get(projectId, ids.dev, "app_db_2")).owner_name).toBe("owner b");
  });
  it("an unknown database is kind not_found, for get and update", async () => {
    expect(await rejection(client.databases.get(projectId, ids.dev, "nodb"))).toMatchObject({
      kind: "not_found",
      status: 404,
    });
    const error = await rejection(client.databases.update(projectId, ids.dev, "nodb", { name: "x" }));
    expect(error).toMatchObject({ kind: "not_found", status: 404, method: "PATCH" });
  });
  it("an owner that is no role of the branch is refused (4xx), not ambiguous", async () => {
    const error = await rejection(client.databases.create(projectId, ids.dev, { name: "x", owner_name: "ghost" }));
    expect(error.status).toBeGreaterThanOrEqual(400);
    expect(error.status).toBeLessThan(500);
  });
  it("deletes, resolving once gone; deleting again resolves saying it was not there", async () => {
    const deleted = await client.databases.delete(projectId, ids.dev, "app_db_2");
    expect(deleted.database?.name).toBe("app_db_2");
    expect(done(deleted.operations)).toBe(true);
    expect(await rejection(client.databases.get(projectId, ids.dev, "app_db_2"))).toMatchObject({
      kind: "not_found",
    });
    await expect(client.databases.delete(projectId, ids.dev, "app_db_2")).resolves.toEqual({ operations: [] });
    const statuses = seen(emu, "DELETE", "/databases/app_db_2").map((r) => r.status);
    expect(statuses[0]).toBe(200);
    expect([204, 404]).toContain(statuses[1]);
  });
  it("parallel creates and deletes of one project meet no 423", async () => {
    const names = Array.from({ length: 5 }, (_, i) => `parallel_${i}`);
    const created = await Promise.all(
      names.map((n) => client.databases.create(projectId, ids.dev, { name: n, owner_name: "owner_a" })),
    );
    expect(created.every((c) => done(c.operations))).toBe(true);
    await Promise.all(names.map((n) => client.databases.delete(projectId, ids.dev, n)));
    expect(emu.stats().byStatus["423"] ?? 0).toBe(0);
  });
});

describe("connection URI", () => {
  let password: string;
  beforeAll(async () => {
    password = (await client.roles.create(projectId, ids.main, { name: "app" })).role.password!;
    await client.databases.create(projectId, ids.main, { name: "app db", owner_name: "app" });
  });

  it("is a postgresql URI of the role, its password and the database, on the branch's compute", async () => {
    const uri = await client.projects.connectionUri({
      projectId,
      branch_id: ids.main,
      database_name: "app db",
      role_name: "app",
    });
    const url = new URL(uri);
    expect(url.protocol).toMatch(/^postgres(ql)?:$/);
    expect(decodeURIComponent(url.username)).toBe("app");
    expect(decodeURIComponent(url.password)).toBe(password);
    expect(decodeURIComponent(url.pathname)).toBe("/app db");
    const [endpoint] = await client.endpoints.listForBranch(projectId, ids.main);
    expect(url.hostname).toBe(endpoint.host);
  });
  it("pooled: the -pooler host; the default branch when none is named", async () => {
    const uri = await client.projects.connectionUri({
      projectId,
      database_name: "app db",
      role_name: "app",
      pooled: true,
    });
    expect(new URL(uri).hostname).toMatch(/-pooler\./);
    const request = seen(emu, "GET", `/projects/${projectId}/connection_uri`);
    expect(request.length).toBe(2);
  });
  it("an unknown role or database is refused", async () => {
    const error = await rejection(
      client.projects.connectionUri({ projectId, branch_id: ids.main, database_name: "app db", role_name: "ghost" }),
    );
    expect(error.status).toBeGreaterThanOrEqual(400);
    expect(error.status).toBeLessThan(500);
  });
});
