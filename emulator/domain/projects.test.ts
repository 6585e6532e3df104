import { parseProjectCreate, parseProjectUpdate, type ProjectCreateInput } from "../project-input";
import type { KeyRecord, OrgRole } from "../types";
import { createEndpoint } from "./endpoints";
import { createProject } from "./project-create";
import { defaultsOf, deleteProject, updateProject } from "./projects";
import { revealPassword } from "./roles";
import { settledProject, takeLock } from "./service";
import { T0, testWorld, type TestWorld } from "./test-world";

/** The project rules of domain/ (create, update, delete), called directly: no server, no HTTP (routes/projects.test.ts). */

/** A create as the route parses it from `{project}`. */
const input = (project: Record<string, unknown> = {}): ProjectCreateInput => parseProjectCreate({ project });

/** A second account of the world, `role` in organization org-acme-1, with a personal key. */
function member(w: TestWorld, role: OrgRole): KeyRecord {
  const { store } = w.svc;
  const id = `acct-${role}`;
  store.addAccount({ id, name: role });
  store.joinOrganization({ id: "org-acme-1" }, id, role, T0);
  return store.addKey(id, "console", `secret-${role}`, T0);
}

describe("createProject", () => {
  it("makes what a new project holds: main, a read_write compute, neondb_owner owning neondb, and its operations", () => {
    const w = testWorld();
    const made = createProject(w.svc, w.key, input(), undefined, T0);
    expect(made.project).toMatchObject({
      name: made.project.id, // "the name will be identical to the generated project ID"
      accountId: w.key.accountId,
      regionId: "aws-us-east-2",
      pgVersion: 17,
      historyRetentionSeconds: 86400,
      storePasswords: true,
    });
    expect(made.project.orgId).toBeUndefined();
    expect(made.branch).toMatchObject({ name: "main", isDefault: true, readyAt: T0 + 1000 });
    expect(made.branch.parentId).toBeUndefined();
    expect(made.role).toMatchObject({ name: "neondb_owner", password: expect.stringMatching(/^[A-Za-z0-9]{12}$/) });
    expect(made.database).toMatchObject({ name: "neondb", ownerName: "neondb_owner" });
    expect(made.endpoint).toMatchObject({ type: "read_write", currentState: "init", pendingState: "active" });
    expect(made.endpoint.config).toMatchObject({ autoscaling_limit_min_cu: 0.25, autoscaling_limit_max_cu: 0.25 });
    const ops = made.operations.map((o) => `${o.action}:${o.initialStatus}:${o.endpointId ?? "-"}`);
    expect(ops).toEqual(["create_timeline:running:-", `start_compute:scheduling:${made.endpoint.id}`]);
    // its operations lock the new project until they end (1 s each, one after the other)
    expect(() => takeLock(w.svc, made.project.id, T0 + 1999)).toThrow(expect.objectContaining({ status: 423 }));
    expect(() => takeLock(w.svc, made.project.id, T0 + 2000)).not.toThrow();
    expect(w.svc.store.projectsOf(w.key.accountId).map((p) => p.id)).toContain(made.project.id);
  });

  it("names the default branch, database and role as asked; the role defaults to {database_name}_owner", () => {
    const w = testWorld();
    const shop = createProject(
      w.svc,
      w.key,
      input({ branch: { name: "trunk", database_name: "shop" } }),
      undefined,
      T0,
    );
    expect([shop.branch.name, shop.database.name, shop.role.name, shop.database.ownerName]).toEqual([
      "trunk",
      "shop",
      "shop_owner",
      "shop_owner",
    ]);
    const app = createProject(w.svc, w.key, input({ branch: { role_name: "app" } }), undefined, T0);
    expect([app.database.name, app.role.name]).toEqual(["neondb", "app"]);
  });

  it("the compute takes default_endpoint_settings; the Free plan refuses sizes above 2 CU and fixes autosuspend", () => {
    const w = testWorld();
    const defaults = { autoscaling_limit_min_cu: 1, autoscaling_limit_max_cu: 3, suspend_timeout_seconds: 600 };
    const made = createProject(w.svc, w.key, input({ default_endpoint_settings: defaults }), "paid", T0);
    expect(made.endpoint.config).toMatchObject(defaults);
    const free = input({ default_endpoint_settings: { ...defaults, autoscaling_limit_max_cu: 4 } });
    expect(() => createProject(w.svc, w.key, free, "free", T0)).toThrow(
      expect.objectContaining({
        status: 400,
        message: expect.stringMatching(/^project\.default_endpoint_settings\.autoscaling_limit_max_cu: 4 exceeds/),
      }),
    );
    const small = { ...defaults, autoscaling_limit_max_cu: 2 };
    const fixed = createProject(w.svc, w.key, input({ default_endpoint_settings: small }), "free", T0);
    expect(fixed.project.defaultEndpointSettings?.suspend_timeout_seconds).toBe(0);
    expect(fixed.endpoint.config.suspend_timeout_seconds).toBe(0);
  });

  it("belongs to org_id for a member, 404 for a non-member; an organization key's org; a scoped key none", () => {
    const w = testWorld();
    const m = member(w, "member");
    const inOrg = createProject(w.svc, m, input({ org_id: "org-acme-1" }), undefined, T0);
    expect(inOrg.project).toMatchObject({ orgId: "org-acme-1", accountId: m.accountId });
    expect(() => createProject(w.svc, w.key, input({ org_id: "org-acme-1" }), undefined, T0)).toThrow(
      expect.objectContaining({ status: 404, message: "account is not a member of the organization org-acme-1" }),
    );
    const orgKey = w.svc.store.addKey(m.accountId, "org", "secret-org", T0, { orgId: "org-acme-1" });
    expect(createProject(w.svc, orgKey, input(), undefined, T0).project.orgId).toBe("org-acme-1");
    expect(() => createProject(w.svc, orgKey, input({ org_id: "org-other-2" }), undefined, T0)).toThrow(
      expect.objectContaining({ status: 403 }),
    );
    const scoped = w.svc.store.addKey(m.accountId, "ci", "secret-ci", T0, {
      orgId: "org-acme-1",
      projectId: inOrg.project.id,
    });
    expect(() => createProject(w.svc, scoped, input(), undefined, T0)).toThrow(
      expect.objectContaining({ status: 403 }),
    );
  });

  it("store_passwords false: its roles' passwords are not revealed (412)", () => {
    const w = testWorld();
    const made = createProject(w.svc, w.key, input({ store_passwords: false }), undefined, T0);
    expect(() => revealPassword(w.svc, made.branch, made.role.name, T0)).toThrow(
      expect.objectContaining({ status: 412, message: "Storing passwords is disabled" }),
    );
    const main = w.branch("main");
    expect(revealPassword(w.svc, main, "neondb_owner", T0)).toEqual(expect.any(String)); // the other project's: stored
  });
});

describe("updateProject", () => {
  it("new default settings leave the existing computes as they are; computes made afterwards take them", () => {
    const w = testWorld();
    const primary = w.svc.store.endpointsOf(w.project.id, w.branch("main").id)[0];
    const before = { ...primary.config };
    const defaults = { autoscaling_limit_min_cu: 2, autoscaling_limit_max_cu: 4, suspend_timeout_seconds: 3600 };
    const parsed = parseProjectUpdate(
      { project: { name: "renamed", default_endpoint_settings: defaults } },
      defaultsOf(w.project),
    );
    const { project, operations } = updateProject(w.svc, w.project, parsed, undefined, T0);
    expect(operations).toEqual([]);
    expect(project).toMatchObject({ name: "renamed", defaultEndpointSettings: defaults, updatedAt: T0 });
    expect(primary.config).toEqual(before); // kislerdm/terraform-provider-neon#234: no resize of the primary
    const dev = { branchId: w.branch("dev").id, type: "read_write" as const, config: {} };
    expect(createEndpoint(w.svc, w.project, dev, undefined, T0).endpoint.config).toMatchObject(defaults);
  });

  it("enabling logical replication suspends the running computes; turning it off answers 422", () => {
    const w = testWorld();
    const primary = w.svc.store.endpointsOf(w.project.id, w.branch("main").id)[0];
    const on = parseProjectUpdate(
      { project: { settings: { enable_logical_replication: true } } },
      defaultsOf(w.project),
    );
    const { operations } = updateProject(w.svc, w.project, on, undefined, T0);
    expect(operations.map((o) => `${o.action}:${o.endpointId}`)).toEqual([`suspend_compute:${primary.id}`]);
    w.svc.lifecycle.settle(primary, T0 + 1000);
    expect(primary.currentState).toBe("idle");
    const off = parseProjectUpdate(
      { project: { settings: { enable_logical_replication: false } } },
      defaultsOf(w.project),
    );
    expect(() => updateProject(w.svc, w.project, off, undefined, T0 + 1000)).toThrow(
      expect.objectContaining({ status: 422, message: expect.stringMatching(/cannot be disabled/) }),
    );
    // enabled again: nothing to do
    expect(updateProject(w.svc, w.project, on, undefined, T0 + 1000).operations).toEqual([]);
  });

  it("takes the project lock after its own checks (423 while an operation runs)", () => {
    const w = testWorld();
    const on = parseProjectUpdate(
      { project: { settings: { enable_logical_replication: true } } },
      defaultsOf(w.project),
    );
    updateProject(w.svc, w.project, on, undefined, T0);
    const rename = parseProjectUpdate({ project: { name: "late" } }, defaultsOf(w.project));
    expect(() => updateProject(w.svc, w.project, rename, undefined, T0 + 1)).toThrow(
      expect.objectContaining({ status: 423 }),
    );
    expect(w.project.name).not.toBe("late");
  });
});

describe("deleteProject", () => {
  it("removes the project and everything in it; every later lookup answers 404", () => {
    const w = testWorld();
    const branches = w.svc.store.branchesOf(w.project.id).map((b) => b.id);
    createEndpoint(w.svc, w.project, { branchId: w.branch("dev").id, type: "read_write", config: {} }, undefined, T0);
    expect(w.svc.store.opsByProject.get(w.project.id)).toHaveLength(1);
    expect(deleteProject(w.svc, w.key, w.project, T0 + 1000)).toBe(w.project);
    const { store } = w.svc;
    expect(store.projects.has(w.project.id)).toBe(false);
    expect(branches.filter((id) => store.branches.has(id))).toEqual([]);
    expect(store.endpointsOf(w.project.id)).toEqual([]);
    expect(branches.flatMap((id) => [...store.rolesOf(id), ...store.databasesOf(id)])).toEqual([]);
    expect([...store.operations.values()].filter((o) => o.projectId === w.project.id)).toEqual([]);
    expect(() => settledProject(w.svc, w.key, w.project.id, T0 + 1000)).toThrow(
      expect.objectContaining({ status: 404, message: "project not found" }),
    );
  });

  it("waits for the project's operations (423), like the other changes", () => {
    const w = testWorld();
    createEndpoint(w.svc, w.project, { branchId: w.branch("dev").id, type: "read_write", config: {} }, undefined, T0);
    expect(() => deleteProject(w.svc, w.key, w.project, T0 + 999)).toThrow(expect.objectContaining({ status: 423 }));
    expect(w.svc.store.projects.has(w.project.id)).toBe(true);
  });

  it("of an organization's project: an admin or an organization key may, a member or a scoped key not (403)", () => {
    const w = testWorld();
    const admin = member(w, "admin");
    const plain = member(w, "member");
    const made = () => createProject(w.svc, admin, input({ org_id: "org-acme-1" }), undefined, T0).project;
    const p = made();
    expect(() => deleteProject(w.svc, plain, p, T0 + 2000)).toThrow(
      expect.objectContaining({ status: 403, message: expect.stringMatching(/only an admin/) }),
    );
    const scoped = w.svc.store.addKey(plain.accountId, "ci", "secret-ci", T0, { orgId: "org-acme-1", projectId: p.id });
    expect(() => deleteProject(w.svc, scoped, p, T0 + 2000)).toThrow(
      expect.objectContaining({ status: 403, message: expect.stringMatching(/cannot delete its project/) }),
    );
    expect(deleteProject(w.svc, admin, p, T0 + 2000).id).toBe(p.id);
    const orgKey = w.svc.store.addKey(plain.accountId, "org", "secret-org", T0, { orgId: "org-acme-1" });
    const q = made();
    expect(deleteProject(w.svc, orgKey, q, T0 + 2000).id).toBe(q.id);
  });
});
