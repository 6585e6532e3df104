/**
 * Database as a user's `pulumi up` drives it, through the local engine and the real plugin against the emulator:
 * create with its owner Role (and the no-change check after every up), a rename and a new owner (one PATCH each, the
 * path naming the old name, the id kept), a move to another branch (a replacement), refresh after a rename and a
 * delete on the service, a rename after an unrefreshed rename on the service, a database a child branch inherited
 * (refused before anything is sent), an owner the branch lacks, a lost create response (no duplicate), and a role, a
 * database and a compute on one branch created in one parallel `up` without a single 423.
 */
import { Compute, Database, DatabaseArgs, Role } from "../../provider";
import { LocalStack } from "../../testing";
import { neonWorld, NeonWorld, ok, ops, outputs, requests, writes } from "./world";

let world: NeonWorld;
let stack: LocalStack;
let declared: Partial<DatabaseArgs> & { name: string };
let ownerRole = "app_owner";

beforeAll(async () => {
  world = await neonWorld();
  declared = { name: "appdb" };
  stack = world.stack(() => {
    const projectId = world.projectId;
    const owner = new Role("owner", { projectId, branchId: world.branches.dev, name: ownerRole });
    const db = new Database("db", { projectId, branchId: world.branches.dev, ownerName: owner.name, ...declared });
    return { id: db.id, databaseId: db.databaseId, name: db.name, ownerName: db.ownerName, branchId: db.branchId };
  });
});
afterAll(() => world.stop());

const databasesPath = (branchId = world.branches.dev) => `/projects/${world.projectId}/branches/${branchId}/databases`;
const databasesOn = async (branchId = world.branches.dev) =>
  (await world.api.databases.list(world.projectId, branchId)).map((d) => `${d.name} (${d.owner_name})`).sort();
const dbId = () => String(outputs(stack).id);

/** After an up: a preview of only `same` steps and no request, then a refresh that finds nothing and writes nothing. */
async function expectNoChange(on: LocalStack, names: string[]): Promise<void> {
  const preview = ok(await on.preview());
  expect(ops(preview, ...names)).toEqual(names.map((name) => `same ${name}`).sort());
  expect(preview.requests).toEqual([]);
  const refresh = ok(await on.refresh());
  expect(
    refresh.steps
      .filter((s) => names.includes(s.name))
      .map((s) => `${s.name} ${s.found}`)
      .sort(),
  ).toEqual(names.map((name) => `${name} same`).sort());
  expect(writes(refresh)).toEqual([]);
  expect([...preview.warnings, ...refresh.warnings]).toEqual([]);
}

describe("Database through the local engine", () => {
  it("up creates the owner role, then the database; its id is the service's database id", async () => {
    const up = ok(await stack.up());
    expect(ops(up, "owner", "db")).toEqual(["create db", "create owner"]);
    expect(writes(up)).toEqual([
      `POST /projects/${world.projectId}/branches/${world.branches.dev}/roles`,
      `POST ${databasesPath()}`,
    ]);
    const [made] = (await world.api.databases.list(world.projectId, world.branches.dev)).filter(
      (d) => d.name === "appdb",
    );
    expect(outputs(stack)).toMatchObject({
      id: String(made.id),
      databaseId: made.id,
      name: "appdb",
      ownerName: "app_owner",
    });
    await expectNoChange(stack, ["owner", "db"]);
  });

  it("a new name is one PATCH to the old name's path; the id stays", async () => {
    const id = dbId();
    declared = { name: "appdb2" };
    const up = ok(await stack.up());
    expect(ops(up, "owner", "db")).toEqual(["same owner", "update db"]);
    expect(writes(up)).toEqual([`PATCH ${databasesPath()}/appdb`]);
    expect(dbId()).toBe(id);
    expect(await databasesOn()).toEqual(["appdb2 (app_owner)", "neondb (neondb_owner)"]);
    await expectNoChange(stack, ["owner", "db"]);
  });

  it("a new name the branch's other database has: refused naming both and what to do; nothing changes", async () => {
    declared = { name: "neondb" };
    const up = await stack.up();
    expect(up.error?.message).toContain(
      `Database appdb2 of branch ${world.branches.dev} cannot be renamed "neondb": the branch already has a database ` +
        "of that name",
    );
    expect(up.error?.message).toContain("Nothing was changed. Choose another name, or rename or delete that database");
    expect(await databasesOn()).toEqual(["appdb2 (app_owner)", "neondb (neondb_owner)"]);
    declared = { name: "appdb2" };
    await expectNoChange(stack, ["owner", "db"]);
  });

  it("renaming the owner Role: the new role, the database's new owner (one PATCH), then the old role deleted", async () => {
    ownerRole = "app_owner2";
    const up = ok(await stack.up());
    expect(ops(up, "owner", "db")).toEqual([
      "create-replacement owner",
      "delete-replaced owner",
      "replace owner",
      "update db",
    ]);
    const roles = `/projects/${world.projectId}/branches/${world.branches.dev}/roles`;
    expect(writes(up)).toEqual([`POST ${roles}`, `PATCH ${databasesPath()}/appdb2`, `DELETE ${roles}/app_owner`]);
    expect(await databasesOn()).toEqual(["appdb2 (app_owner2)", "neondb (neondb_owner)"]);
    await expectNoChange(stack, ["owner", "db"]);
  });

  it("a new owner is one PATCH", async () => {
    declared = { name: "appdb2", ownerName: "neondb_owner" };
    const up = ok(await stack.up());
    expect(writes(up)).toEqual([`PATCH ${databasesPath()}/appdb2`]);
    expect(await databasesOn()).toEqual(["appdb2 (neondb_owner)", "neondb (neondb_owner)"]);
    await expectNoChange(stack, ["owner", "db"]);
  });

  it("refresh records a rename made on the service; the next up renames it back with one PATCH", async () => {
    await world.api.databases.update(world.projectId, world.branches.dev, "appdb2", { name: "renamed_aside" });
    const refresh = ok(await stack.refresh());
    expect(refresh.steps.find((s) => s.name === "db")).toMatchObject({ found: "update" });
    expect(stack.state.resources.find((r) => r.urn.endsWith("::db"))?.inputs.name).toBe("renamed_aside");
    const up = ok(await stack.up());
    expect(writes(up)).toEqual([`PATCH ${databasesPath()}/renamed_aside`]);
    expect(await databasesOn()).toEqual(["appdb2 (neondb_owner)", "neondb (neondb_owner)"]);
    await expectNoChange(stack, ["owner", "db"]);
  });

  it("a rename after a rename on the service that no refresh saw finds the database by its id first", async () => {
    await world.api.databases.update(world.projectId, world.branches.dev, "appdb2", { name: "renamed_unseen" });
    declared = { name: "appdb3", ownerName: "neondb_owner" };
    const up = ok(await stack.up());
    expect(
      requests(up)
        .filter((r) => r.method === "PATCH")
        .map((r) => `${r.path} ${r.status}`),
    ).toEqual([`${databasesPath()}/renamed_unseen 200`]);
    expect(await databasesOn()).toEqual(["appdb3 (neondb_owner)", "neondb (neondb_owner)"]);
    await expectNoChange(stack, ["owner", "db"]);
  });

  it("an owner the branch lacks fails naming the role, the branch and the roles it has", async () => {
    declared = { name: "appdb3", ownerName: "ghost" };
    const up = await stack.up();
    declared = { name: "appdb3", ownerName: "neondb_owner" };
    expect(up.error?.message).toContain(
      `branch ${world.branches.dev} of project ${world.projectId} has no role named ghost to own database appdb3`,
    );
    expect(up.error?.message).toContain("its roles: neondb_owner, app_owner2");
    expect(up.error?.message).toContain("Declare the role on that branch with a Role resource");
  });

  it("a new branch replaces the database: the new one first, then the old one deleted", async () => {
    const old = dbId();
    declared = { name: "appdb3", ownerName: "neondb_owner", branchId: world.branches.staging };
    const up = ok(await stack.up());
    expect(ops(up, "db")).toEqual(["create-replacement db", "delete-replaced db", "replace db"]);
    expect(writes(up)).toEqual([`POST ${databasesPath(world.branches.staging)}`, `DELETE ${databasesPath()}/appdb3`]);
    expect(dbId()).not.toBe(old);
    expect(await databasesOn(world.branches.staging)).toContain("appdb3 (neondb_owner)");
    expect(await databasesOn()).toEqual(["neondb (neondb_owner)"]);
    await expectNoChange(stack, ["owner", "db"]);
  });

  it("refresh drops a database deleted on the service, and the next up creates it again", async () => {
    await world.api.databases.delete(world.projectId, world.branches.staging, "appdb3");
    const refresh = ok(await stack.refresh());
    expect(refresh.steps.find((s) => s.name === "db")).toMatchObject({ found: "delete" });
    const up = ok(await stack.up());
    expect(ops(up, "db")).toEqual(["create db"]);
    await expectNoChange(stack, ["owner", "db"]);
  });

  it("a create whose response is lost makes no duplicate: the database is read back by its name", async () => {
    ok(await stack.destroy());
    declared = { name: "appdb" };
    world.emulator.faults.add({ method: "POST", path: /\/databases$/, kind: "ambiguous", times: 1 });
    const up = ok(await stack.up({ skipPreview: true }));
    world.emulator.faults.clear();
    expect(writes(up).filter((w) => w.endsWith("/databases"))).toEqual([`POST ${databasesPath()}`]);
    expect(await databasesOn()).toEqual(["appdb (app_owner2)", "neondb (neondb_owner)"]);
    const [made] = (await world.api.databases.list(world.projectId, world.branches.dev)).filter(
      (d) => d.name === "appdb",
    );
    expect(dbId()).toBe(String(made.id));
    await expectNoChange(stack, ["owner", "db"]);
  });

  it("destroy deletes the database, then its owner", async () => {
    const destroy = ok(await stack.destroy());
    expect(writes(destroy)).toEqual([
      `DELETE ${databasesPath()}/appdb`,
      `DELETE /projects/${world.projectId}/branches/${world.branches.dev}/roles/app_owner2`,
    ]);
    expect(await databasesOn()).toEqual(["neondb (neondb_owner)"]);
  });
});

describe("a child branch", () => {
  let child: string;

  beforeAll(async () => {
    child = (await world.api.branches.create(world.projectId, { parent_id: world.branches.main, name: "kid" })).branch
      .id;
  });

  it("declaring a database it inherited fails before any create, saying to leave it out or choose another name", async () => {
    const inherited = world.stack(() => {
      new Database("neondb", {
        projectId: world.projectId,
        branchId: child,
        name: "neondb",
        ownerName: "neondb_owner",
      });
    });
    const up = await inherited.up();
    expect(up.error?.message).toContain(
      `Branch ${child} of project ${world.projectId} already has a database named neondb: it was inherited from the ` +
        "branch's parent",
    );
    expect(up.error?.message).toMatch(/to manage it \(a project's default database, say\), set adoptId: "\d+"\./);
    expect(up.error?.message).toContain(
      "Else leave it out of the program (it is there, and connections can use it), or choose another name",
    );
    expect(writes(up)).toEqual([]);
  });

  it("a role, a database and a compute on one branch, created in one parallel up: not a single 423", async () => {
    const together = world.stack(
      () => {
        const projectId = world.projectId;
        const role = new Role("r", { projectId, branchId: child, name: "worker" });
        new Database("d", { projectId, branchId: child, name: "jobs", ownerName: role.name });
        new Role("r2", { projectId, branchId: child, name: "reader" });
        new Compute("c", { projectId, branchId: child });
      },
      { parallel: 8 },
    );
    const up = ok(await together.up({ skipPreview: true }));
    expect(ops(up, "r", "r2", "d", "c")).toEqual(["create c", "create d", "create r", "create r2"]);
    expect(requests(up).filter((r) => r.status === 423)).toEqual([]);
    expect(await databasesOn(child)).toEqual(["jobs (worker)", "neondb (neondb_owner)"]);
    await expectNoChange(together, ["r", "r2", "d", "c"]);
    const destroy = ok(await together.destroy({ skipPreview: true }));
    expect(requests(destroy).filter((r) => r.status === 423)).toEqual([]);
  });
});

describe("lost creates settled inside the project lock", () => {
  it("a role's and a database's lost create answers are read back and their operations waited for: one of each, not a single 423", async () => {
    // Operations long enough that a change sent before the lost create's operations end would meet 423; on main,
    // whose compute makes every role and database change an operation (emulator/routes/roles.ts, configApplied).
    const slow = await neonWorld({ emulator: { operationDurationMs: 200 } });
    try {
      const branchId = slow.branches.main;
      expect(await slow.api.endpoints.listForBranch(slow.projectId, branchId)).not.toEqual([]);
      const lossy = slow.stack(() => {
        const projectId = slow.projectId;
        const role = new Role("lost-role", { projectId, branchId, name: "lost_owner" });
        const db = new Database("lost-db", { projectId, branchId, name: "lostdb", ownerName: role.name });
        new Compute("after", { projectId, branchId, type: "read_only" }, { dependsOn: [db] });
        return { password: role.password };
      });
      slow.emulator.faults.add({ method: "POST", path: /\/roles$/, kind: "ambiguous", times: 1 });
      slow.emulator.faults.add({ method: "POST", path: /\/databases$/, kind: "ambiguous", times: 1 });
      const up = ok(await lossy.up({ skipPreview: true }));
      expect(requests(up).filter((r) => r.status === 423)).toEqual([]);
      const posts = writes(up).filter((w) => w.startsWith("POST"));
      expect(posts.filter((w) => w.endsWith("/roles"))).toHaveLength(1);
      expect(posts.filter((w) => w.endsWith("/databases"))).toHaveLength(1);
      const roles = await slow.api.roles.list(slow.projectId, branchId);
      expect(roles.filter((r) => r.name === "lost_owner")).toHaveLength(1);
      const databases = await slow.api.databases.list(slow.projectId, branchId);
      expect(databases.filter((d) => d.name === "lostdb").map((d) => d.owner_name)).toEqual(["lost_owner"]);
      // The password only the lost answer carried was read back with reveal_password.
      const revealed = await slow.api.roles.revealPassword(slow.projectId, branchId, "lost_owner");
      expect(outputs(lossy).password).toBe(revealed);
      const destroy = ok(await lossy.destroy({ skipPreview: true }));
      expect(requests(destroy).filter((r) => r.status === 423)).toEqual([]);
    } finally {
      await slow.stop();
    }
  });
});
