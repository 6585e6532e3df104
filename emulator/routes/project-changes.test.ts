import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LOCKED_MESSAGE } from "../errors";
import { emulatorPerTest, type Body, type TestWorld } from "../test-client";

/**
 * Project create, update and delete over HTTP (OpenAPI createProject, updateProject, deleteProject): the documented
 * shapes, the defaults, each refusal naming its field, the keys' rights, the lock, and a state file round trip.
 */
const boot = emulatorPerTest({ operationDurationMs: 1000 });

describe("project create, update and delete", () => {
  let w: TestWorld;
  beforeEach(async () => {
    w = await boot();
  });
  const create = (project: Record<string, unknown> = {}) => w.c.post("/projects", { project });

  describe("POST /projects", () => {
    it("201 {project, connection_uris, roles, databases, operations, branch, endpoints}: what a new project holds", async () => {
      const res = await create({ name: "shop" });
      expect(res.status).toBe(201);
      expect(Object.keys(res.body).sort()).toEqual([
        "branch",
        "connection_uris",
        "databases",
        "endpoints",
        "operations",
        "project",
        "roles",
      ]);
      const { project, branch, endpoints, roles, databases, operations, connection_uris } = res.body;
      expect(project).toMatchObject({
        name: "shop",
        region_id: "aws-us-east-2",
        pg_version: 17,
        store_passwords: true,
      });
      expect(project).toMatchObject({ history_retention_seconds: 86400, owner_id: w.em.accountId });
      expect(branch).toMatchObject({ name: "main", default: true, current_state: "init", pending_state: "ready" });
      expect(endpoints).toHaveLength(1);
      expect(endpoints[0]).toMatchObject({ type: "read_write", current_state: "init", pending_state: "active" });
      expect(roles).toEqual([expect.objectContaining({ name: "neondb_owner", password: expect.any(String) })]);
      expect(databases).toEqual([expect.objectContaining({ name: "neondb", owner_name: "neondb_owner" })]);
      expect(operations.map((o: Body) => `${o.action}:${o.status}`)).toEqual([
        "create_timeline:running",
        "start_compute:scheduling",
      ]);
      const host = endpoints[0].host;
      expect(connection_uris).toEqual([
        {
          connection_uri: `postgresql://neondb_owner:${roles[0].password}@${host}/neondb?sslmode=require&channel_binding=require`,
          connection_parameters: {
            database: "neondb",
            password: roles[0].password,
            role: "neondb_owner",
            host,
            pooler_host: host.replace(/^(ep-[^.]+)/, "$1-pooler"),
          },
        },
      ]);
      const listed = (await w.c.get("/projects?limit=400")).body.projects.map((p: Body) => p.id);
      expect(listed).toContain(project.id);
      expect((await w.c.get(`/projects/${project.id}`)).body.project).toMatchObject({ id: project.id, name: "shop" });
    });

    it("its operations run as every operation does: 423 and branch not ready until they end", async () => {
      const { project, branch } = (await create()).body;
      const compute = { endpoint: { branch_id: branch.id, type: "read_only" } };
      const early = await w.c.post(`/projects/${project.id}/endpoints`, compute);
      expect([early.status, early.body.message]).toEqual([422, "branch not ready yet"]);
      w.em.clock.advance(1000);
      const busy = await w.c.post(`/projects/${project.id}/endpoints`, compute);
      expect([busy.status, busy.body.message]).toEqual([423, LOCKED_MESSAGE]);
      w.em.clock.advance(1000);
      const ep = (await w.c.get(`/projects/${project.id}/endpoints`)).body.endpoints[0];
      expect(ep.current_state).toBe("active");
      expect((await w.c.get(`/projects/${project.id}/branches/${branch.id}`)).body.branch.current_state).toBe("ready");
      expect((await w.c.post(`/projects/${project.id}/endpoints`, compute)).status).toBe(201);
    });

    it.each([
      [undefined, /request body must be a JSON object/],
      [{}, /^project is required/],
      [{ project: "x" }, /^project must be a JSON object/],
      [{ project: { name: "" } }, /^project\.name must be a string of 1\.\.256/],
      [
        { project: { region_id: "mars-1" } },
        /^project\.region_id: "mars-1" is not allowed; allowed values: aws-us-east-1/,
      ],
      [{ project: { pg_version: 13 } }, /^project\.pg_version: 13 is not supported; allowed: 14, 15, 16, 17, 18/],
      [{ project: { pg_version: "17" } }, /^project\.pg_version/],
      [{ project: { history_retention_seconds: 2592001 } }, /^project\.history_retention_seconds must be an integer/],
      [{ project: { default_endpoint_settings: { autoscaling_limit_min_cu: 3.5 } } }, /autoscaling_limit_min_cu: 3.5/],
      [{ project: { default_endpoint_settings: { suspend_timeout_seconds: 30 } } }, /suspend_timeout_seconds: 30/],
      [{ project: { settings: { maintenance_window: { weekdays: [1] } } } }, /maintenance_window\.start_time/],
      [{ project: { settings: { audit_log_level: "loud" } } }, /audit_log_level: "loud".*base, extended, full/],
      [{ project: { branch: { role_name: "pg_app" } } }, /^project\.branch\.role_name: "pg_app" is a protected/],
      [{ project: { branch: { database_name: "postgres" } } }, /^project\.branch\.database_name: "postgres"/],
      [{ project: { store_passwords: "yes" } }, /^project\.store_passwords must be a boolean/],
      [{ project: { org_id: "BAD ORG" } }, /^project\.org_id must be an organization id/],
    ])("%j is a 400 naming the field", async (body, message) => {
      const before = (await w.c.get("/projects?limit=400")).body.projects.length;
      const res = await w.c.post("/projects", body);
      expect([res.status, res.body.message]).toEqual([400, expect.stringMatching(message)]);
      expect((await w.c.get("/projects?limit=400")).body.projects).toHaveLength(before);
    });

    it("the Free plan: default sizes above 2 CU answer 400, the autosuspend delay is fixed at 0", async () => {
      w = await boot({ plan: "free" });
      const big = await create({
        default_endpoint_settings: { autoscaling_limit_min_cu: 1, autoscaling_limit_max_cu: 4 },
      });
      expect([big.status, big.body.message]).toEqual([
        400,
        expect.stringMatching(/exceeds the Free plan's limit of 2 CU/),
      ]);
      const ok = await create({
        default_endpoint_settings: { autoscaling_limit_max_cu: 2, suspend_timeout_seconds: 600 },
      });
      expect(ok.body.project.default_endpoint_settings).toEqual({
        autoscaling_limit_min_cu: 0.25,
        autoscaling_limit_max_cu: 2,
        suspend_timeout_seconds: 0,
      });
      expect(ok.body.endpoints[0]).toMatchObject({ autoscaling_limit_max_cu: 2, suspend_timeout_seconds: 0 });
    });

    it("in an organization the personal key's account belongs to; 404 in one it does not", async () => {
      const { orgId } = w.em.createOrganization({ projects: 0 });
      const res = await create({ org_id: orgId });
      expect([res.status, res.body.project.org_id]).toEqual([201, orgId]);
      expect((await w.c.get(`/projects?org_id=${orgId}`)).body.projects.map((p: Body) => p.id)).toEqual([
        res.body.project.id,
      ]);
      const other = w.em.createAccount();
      const refused = await w.c.post("/projects", { project: { org_id: orgId } }, { key: other.apiKey });
      expect(refused.status).toBe(404);
    });
  });

  describe("PATCH /projects/{id}", () => {
    it("200 {project, operations}: name, history retention, default settings (the computes keep theirs), settings", async () => {
      const p = `/projects/${w.pid}`;
      const defaults = { autoscaling_limit_min_cu: 1, autoscaling_limit_max_cu: 2, suspend_timeout_seconds: 900 };
      const settings = { allowed_ips: { ips: ["203.0.113.0/24"] }, block_public_connections: true };
      const res = await w.c.patch(p, {
        project: { name: "renamed", history_retention_seconds: 0, default_endpoint_settings: defaults, settings },
      });
      expect(res.status).toBe(200);
      expect(res.body.operations).toEqual([]);
      expect(res.body.project).toMatchObject({ name: "renamed", history_retention_seconds: 0 });
      expect(res.body.project.default_endpoint_settings).toEqual(defaults);
      expect(res.body.project.settings).toMatchObject({
        allowed_ips: { ips: ["203.0.113.0/24"], protected_branches_only: false },
        block_public_connections: true,
        enable_logical_replication: false,
      });
      const primary = (await w.c.get(`${p}/endpoints`)).body.endpoints[0];
      expect(primary).toMatchObject({ autoscaling_limit_min_cu: 0.25, autoscaling_limit_max_cu: 0.25 });
      const made = await w.c.post(`${p}/branches`, { branch: { name: "next" }, endpoints: [{ type: "read_write" }] });
      expect(made.body.endpoints[0]).toMatchObject(defaults);
    });

    it.each([["region_id"], ["pg_version"], ["org_id"], ["store_passwords"], ["branch"], ["provisioner"]])(
      "%s is refused (400 naming it): ProjectUpdateRequest does not accept it",
      async (field) => {
        const res = await w.c.patch(`/projects/${w.pid}`, { project: { [field]: "x", name: "not-applied" } });
        expect([res.status, res.body.message]).toEqual([
          400,
          expect.stringMatching(`^project\\.${field}: cannot be changed`),
        ]);
        expect((await w.c.get(`/projects/${w.pid}`)).body.project.name).not.toBe("not-applied");
      },
    );

    it("ignores fields neither request knows; another account's or an unknown project is 404", async () => {
      expect((await w.c.patch(`/projects/${w.pid}`, { project: { colour: "red" } })).status).toBe(200);
      const other = w.em.createAccount();
      expect((await w.c.patch(`/projects/${other.projectId}`, { project: { name: "x" } })).status).toBe(404);
      expect((await w.c.patch("/projects/no-such-project", { project: { name: "x" } })).status).toBe(404);
    });
  });

  describe("DELETE /projects/{id}", () => {
    it("200 {project}; the project and everything in it are gone: every later request for it is 404", async () => {
      const p = `/projects/${w.pid}`;
      const res = await w.c.del(p);
      expect([res.status, Object.keys(res.body), res.body.project.id]).toEqual([200, ["project"], w.pid]);
      for (const path of [
        p,
        `${p}/branches`,
        `${p}/endpoints`,
        `${p}/operations`,
        `${p}/branches/${w.em.branches.main}`,
      ]) {
        const gone = await w.c.get(path);
        expect([path, gone.status, gone.body.message]).toEqual([path, 404, "project not found"]);
      }
      expect((await w.c.del(p)).status).toBe(404);
      expect((await w.c.get("/projects")).body.projects).toEqual([]);
    });

    it("of an organization's project: a member's personal key and a project-scoped key are refused 403", async () => {
      const other = w.em.createAccount();
      const { orgId, projectIds } = w.em.createOrganization({
        members: { [w.em.accountId]: "admin", [other.accountId]: "member" },
      });
      const p = `/projects/${projectIds[0]}`;
      expect((await w.c.del(p, { key: other.apiKey })).status).toBe(403);
      const scoped = (await w.c.post(`/organizations/${orgId}/api_keys`, { key_name: "ci", project_id: projectIds[0] }))
        .body.key;
      expect((await w.c.patch(p, { project: { name: "by-scoped-key" } }, { key: scoped })).status).toBe(200);
      expect((await w.c.del(p, { key: scoped })).status).toBe(403);
      expect((await w.c.del(p)).status).toBe(200);
    });
  });

  it("a state file keeps what a create and an update set", async () => {
    const stateFile = join(mkdtempSync(join(tmpdir(), "neon-emu-")), "s.json");
    w = await boot({ stateFile });
    const made = await create({
      name: "kept",
      region_id: "aws-eu-central-1",
      pg_version: 16,
      store_passwords: false,
      default_endpoint_settings: {
        autoscaling_limit_min_cu: 0.5,
        autoscaling_limit_max_cu: 2,
        pg_settings: { a: "b" },
      },
      branch: { name: "trunk", database_name: "shop" },
    });
    const id = made.body.project.id;
    w.em.clock.advance(2000);
    await w.c.patch(`/projects/${id}`, { project: { settings: { hipaa: true } } });
    const before = (await w.c.get(`/projects/${id}`)).body.project;
    await w.em.close();
    const again = await boot({ stateFile });
    const after = (await again.c.get(`/projects/${id}`)).body.project;
    expect({ ...after, consumption_period_start: 0, consumption_period_end: 0 }).toEqual({
      ...before,
      consumption_period_start: 0,
      consumption_period_end: 0,
    });
    expect(after).toMatchObject({ store_passwords: false, pg_version: 16, region_id: "aws-eu-central-1" });
    expect(after.settings.hipaa).toBe(true);
  });
});
