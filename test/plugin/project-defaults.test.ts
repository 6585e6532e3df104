/**
 * A Project's default branch, compute, role and database managed as Branch, Compute, Role and Database resources
 * (issue 26, item 4; kislerdm#69, #83, #108: a program that declares them collides with what the project made). Each
 * names the object the project made through the project's outputs (`adoptId: project.defaultBranchId`, …), so it is
 * adopted, not created: the `up` sends the project's POST and nothing for them; the preview after it shows no change;
 * removing them from the program leaves them on the service (they go with the project); and the project's destroy
 * deletes them with it. Through the local engine and the real plugin against the emulator.
 */
import { Branch, Compute, Database, Project, Role } from "../../provider";
import { UNKNOWN } from "../../provider/shared/unknown";
import { neonWorld, NeonWorld, ok, ops, outputs, writes } from "./world";

let world: NeonWorld;
beforeAll(async () => {
  world = await neonWorld();
});
afterAll(() => world.stop());

/** What the program declares besides the project, changed between commands. */
const declared = { defaults: true, databaseName: "appdb", maxCu: 1, projectName: "app" };

function program() {
  const project = new Project("app", {
    name: declared.projectName,
    branch: { name: "main", roleName: "app_owner", databaseName: "appdb" },
    deletionProtection: false,
  });
  const ofProject = {
    projectId: project.projectId,
    projectUri: project.connectionUri,
    projectPassword: project.rolePassword,
    defaultDatabaseId: project.defaultDatabaseId,
    defaultBranchId: project.defaultBranchId,
  };
  if (!declared.defaults) return ofProject;
  const projectId = project.projectId;
  const main = new Branch("main", { projectId, name: "main", adoptId: project.defaultBranchId });
  const compute = new Compute("main-compute", {
    projectId,
    branchId: main.branchId,
    adoptId: project.defaultComputeId,
    autoscalingLimitMinCu: 0.25,
    autoscalingLimitMaxCu: declared.maxCu,
  });
  const owner = new Role("owner", {
    projectId,
    branchId: main.branchId,
    name: "app_owner",
    adoptId: project.defaultRoleId,
  });
  const database = new Database("appdb", {
    projectId,
    branchId: main.branchId,
    name: declared.databaseName,
    ownerName: owner.name,
    adoptId: project.defaultDatabaseId,
  });
  return {
    ...ofProject,
    branchId: main.branchId,
    computeId: compute.id,
    password: owner.password,
    databaseId: database.id,
  };
}

const RESOURCES = ["main", "main-compute", "owner", "appdb"];

describe("a project's default objects, declared by reference to its outputs", () => {
  const stack = () => (made ??= world.stack(program));
  let made: ReturnType<NeonWorld["stack"]> | undefined;

  it("are adopted, not created: the up sends the project's create and the one PATCH of what differs", async () => {
    const up = ok(await stack().up());
    expect(ops(up, "app", ...RESOURCES).sort()).toEqual(["app", ...RESOURCES].map((name) => `create ${name}`).sort());
    const out = outputs(stack());
    // Only the compute's size differs from what the project made (0.25 CU): one PATCH, no other create.
    expect(writes(up)).toEqual(["POST /projects", `PATCH /projects/${out.projectId}/endpoints/${out.computeId}`]);
    const project = await world.api.projects.get(String(out.projectId));
    const [branch] = (await world.api.branches.list(project.id)).filter((b) => b.default);
    expect(out.branchId).toBe(branch.id);
    expect(out.password).toBe(out.projectPassword); // the role's password, read back
    const [database] = await world.api.databases.list(project.id, branch.id);
    expect(out.databaseId).toBe(String(database.id));
    // The preview (the project not made yet) says what adopting does, without the engine's placeholder for an unknown.
    const previewed = (up.preview?.diagnostics ?? []).map((d) => d.message).join("\n");
    expect(previewed).toContain('Branch "main" adopts the branch adoptId names (known after apply)');
    expect(previewed).not.toContain(UNKNOWN);
    expect(up.warnings.join("\n")).toContain(
      `Role app_owner adopts ${project.id}/${branch.id}/app_owner: nothing is created`,
    );

    const preview = ok(await stack().preview());
    expect(ops(preview, "app", ...RESOURCES).every((op) => op.startsWith("same"))).toBe(true);
    expect(preview.requests).toEqual([]);
  });

  it("a rename of the project previews as its update alone, and the up sends its one PATCH", async () => {
    // The dynamic Project's outputs are unknown in the preview of its update (docs/resources.md, "Known limit"), so
    // each adoptId is too; adoptId acts only at creation (a record), so an unknown one changes nothing there.
    declared.projectName = "renamed-app";
    const preview = ok(await stack().preview());
    expect(ops(preview, "app", ...RESOURCES)).toEqual(
      ["update app", ...RESOURCES.map((name) => `same ${name}`)].sort(),
    );
    expect(preview.warnings).toEqual([]);
    expect(preview.requests).toEqual([]);
    const up = ok(await stack().up());
    expect(ops(up, "app", ...RESOURCES)).toEqual(ops(preview, "app", ...RESOURCES));
    expect(writes(up)).toEqual([`PATCH /projects/${outputs(stack()).projectId}`]);
  });

  it("a rename of the default database through its Database resource is one PATCH", async () => {
    declared.databaseName = "renamed";
    const up = ok(await stack().up());
    const { projectId, branchId } = outputs(stack());
    expect(ops(up, ...RESOURCES)).toEqual(["same main", "same main-compute", "same owner", "update appdb"]);
    expect(writes(up)).toEqual([`PATCH /projects/${projectId}/branches/${branchId}/databases/appdb`]);
    expect((await world.api.databases.list(String(projectId), String(branchId))).map((d) => d.name)).toEqual([
      "renamed",
    ]);
  });

  it("after that rename, a project update and a refresh keep the default database's id, and its URI the new name", async () => {
    // The default database's id is its adoptId: were it lost, the Database's adoptId would go, and removing the
    // Database would delete the default database (review finding).
    const { databaseId } = outputs(stack());
    declared.projectName = "app-2";
    ok(await stack().up());
    ok(await stack().refresh());
    const preview = ok(await stack().preview());
    expect(ops(preview, "app", ...RESOURCES).every((op) => op.startsWith("same"))).toBe(true);
    expect(preview.warnings).toEqual([]); // adoptId kept: nothing changes, nothing is said
    const out = outputs(stack());
    expect(out.defaultDatabaseId).toBe(databaseId);
    expect(new URL(String(out.projectUri)).pathname).toBe("/renamed");
  });

  it("a password reset outside Pulumi reaches the project's rolePassword and URI at the refresh", async () => {
    const { projectId, branchId } = outputs(stack());
    const { role } = await world.api.roles.resetPassword(String(projectId), String(branchId), "app_owner");
    const refresh = ok(await stack().refresh());
    expect(writes(refresh)).toEqual([]);
    const up = ok(await stack().up()); // the stack's outputs are the program's: it runs again
    expect(writes(up)).toEqual([]);
    const out = outputs(stack());
    expect(out.projectPassword).toBe(role.password);
    expect(decodeURIComponent(new URL(String(out.projectUri)).password)).toBe(role.password);
    expect(out.password).toBe(role.password); // the Role's refresh reads it too
  });

  it("removing them from the program leaves them on the service, saying so; the project's destroy takes them", async () => {
    const { projectId, branchId, computeId } = outputs(stack());
    declared.defaults = false;
    const up = ok(await stack().up());
    expect(ops(up, ...RESOURCES).sort()).toEqual(RESOURCES.map((name) => `delete ${name}`).sort());
    expect(writes(up)).toEqual([]);
    const said = up.warnings.join("\n");
    for (const kept of [
      `Role app_owner was not deleted`,
      `Database renamed (id`,
      `Compute "main-compute" (${computeId}) was not deleted`,
    ])
      expect(said).toContain(kept);
    const id = String(projectId);
    expect((await world.api.roles.list(id, String(branchId))).map((r) => r.name)).toContain("app_owner");
    expect((await world.api.databases.list(id, String(branchId))).map((d) => d.name)).toEqual(["renamed"]);
    expect((await world.api.endpoints.listForBranch(id, String(branchId))).map((c) => c.id)).toEqual([computeId]);

    const destroy = ok(await stack().destroy());
    expect(writes(destroy)).toEqual([`DELETE /projects/${id}`]);
    expect((await world.api.projects.listAll()).map((p) => p.id)).not.toContain(id);
  });
});

describe("adoptId removed from the default Role only", () => {
  it("the destroy leaves the role, which owns the database its Database left, and deletes the project", async () => {
    const keep = { roleAdoptId: true };
    const stack = world.stack(() => {
      const project = new Project("solo", { deletionProtection: false });
      const { projectId } = project;
      const main = new Branch("main", { projectId, adoptId: project.defaultBranchId });
      const owner = new Role("owner", {
        projectId,
        branchId: main.branchId,
        name: "neondb_owner",
        adoptId: keep.roleAdoptId ? project.defaultRoleId : undefined,
      });
      new Database("db", {
        projectId,
        branchId: main.branchId,
        name: "neondb",
        ownerName: owner.name,
        adoptId: project.defaultDatabaseId,
      });
      return { projectId };
    });
    ok(await stack.up());
    keep.roleAdoptId = false;
    expect(writes(ok(await stack.up()))).toEqual([]); // recorded, nothing sent
    const { projectId } = outputs(stack);
    const destroy = ok(await stack.destroy());
    // The role's DELETE is refused (it owns neondb, left by its Database); the role is left, the project deleted.
    expect(writes(destroy)).toEqual([
      expect.stringMatching(new RegExp(`^DELETE /projects/${projectId}/branches/[^/]+/roles/neondb_owner$`)),
      `DELETE /projects/${projectId}`,
    ]);
    expect(destroy.warnings.join("\n")).toContain("Role neondb_owner of branch br-");
    expect(destroy.warnings.join("\n")).toMatch(/was not deleted: it owns neondb, which its Database resource left/);
  });
});

describe("adoptId of a Role or Database that does not match", () => {
  it("a Role's adoptId must be its own address; a missing one is refused; nothing is sent", async () => {
    const { projectId, branches } = world;
    const wrong = world.stack(() => ({
      id: new Role("r", {
        projectId,
        branchId: branches.main,
        name: "someone",
        adoptId: `${projectId}/${branches.main}/x`,
      }).id,
    }));
    const preview = await wrong.preview();
    expect(preview.error?.message).toContain(
      `adoptId: must be this role's id, "${projectId}/${branches.main}/someone" (<projectId>/<branchId>/<name>: a Project's defaultRoleId)`,
    );
    const missing = world.stack(() => ({
      id: new Role("r", {
        projectId,
        branchId: branches.main,
        name: "ghost",
        adoptId: `${projectId}/${branches.main}/ghost`,
      }).id,
    }));
    const up = await missing.up();
    expect(up.error?.message).toContain(`adoptId: role ${projectId}/${branches.main}/ghost does not exist in project`);
    expect(writes(up)).toEqual([]);
  });

  it("a noLogin change of an adopted Role is refused at preview: its replacement would adopt the same role", async () => {
    const { projectId, branches } = world;
    const declared: { noLogin?: boolean } = {};
    const adopted = world.stack(() => ({
      id: new Role("owner", {
        projectId,
        branchId: branches.main,
        name: "neondb_owner",
        adoptId: `${projectId}/${branches.main}/neondb_owner`,
        ...declared,
      }).id,
    }));
    ok(await adopted.up());
    declared.noLogin = true;
    const preview = await adopted.preview();
    expect(preview.error?.message).toContain(
      `Role neondb_owner (${projectId}/${branches.main}/neondb_owner) is adopted (adoptId): noLogin changed`,
    );
    expect(preview.requests).toEqual([]);
    delete declared.noLogin;
    const destroy = ok(await adopted.destroy());
    expect(writes(destroy)).toEqual([]); // adopted: left on the service
  });

  it("a Database whose adoptId names no database of its branch is refused; nothing is sent", async () => {
    const { projectId, branches } = world;
    const missing = world.stack(() => ({
      id: new Database("d", {
        projectId,
        branchId: branches.main,
        name: "x",
        ownerName: "neondb_owner",
        adoptId: "999999",
      }).id,
    }));
    const up = await missing.up();
    expect(up.error?.message).toContain(`adoptId: database 999999 (on branch ${branches.main}) does not exist`);
    expect(writes(up)).toEqual([]);
  });
});
