import { startEmulator, type Emulator } from "../index";
import { TestClient, type Body } from "../test-client";

const REQUIRED = [
  "active_time",
  "id",
  "platform_id",
  "region_id",
  "name",
  "pg_version",
  "proxy_host",
  "branch_logical_size_limit",
  "branch_logical_size_limit_bytes",
  "provisioner",
  "store_passwords",
  "cpu_used_sec",
  "creation_source",
  "created_at",
  "updated_at",
  "owner_id",
];

/** Projects (cursor paging, search, org_id), the shared list, and branches. */
describe("projects and branches routes", () => {
  let em: Emulator;
  let c: TestClient;

  beforeAll(async () => {
    const projects = Array.from({ length: 25 }, (_, i) => ({
      id: `proj-${String(i).padStart(2, "0")}`,
      name: i % 5 ? `app-${i}` : `Billing-${i}`,
      ...(i < 3 ? { org_id: "org-acme-1" } : {}),
    }));
    em = await startEmulator({
      manualClock: true,
      rateLimit: false,
      operationDurationMs: 0,
      fixture: { accounts: [{ projects }] },
    });
    c = new TestClient(em.baseUrl, em.apiKey);
  });
  afterAll(async () => {
    c.close();
    await em.close();
  });

  it("lists {projects, pagination:{cursor}, applications:{}, integrations:{}} with every required field", async () => {
    const res = await c.get("/projects");
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(["applications", "integrations", "pagination", "projects"]);
    expect(res.body.projects).toHaveLength(10); // default limit
    for (const k of REQUIRED) expect(res.body.projects[0]).toHaveProperty(k);
    expect(res.body.applications).toEqual({});
  });

  it("pages with the cursor until a page is shorter than limit, without repeats", async () => {
    const seen: string[] = [];
    let cursor: string | undefined;
    for (;;) {
      const res = await c.get(`/projects?limit=10${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
      seen.push(...res.body.projects.map((p: Body) => p.id));
      cursor = res.body.pagination.cursor;
      expect(cursor?.length).toBeGreaterThan(0);
      if (res.body.projects.length < 10) break;
    }
    expect(seen).toHaveLength(25);
    expect(new Set(seen).size).toBe(25);
  });

  it("filters by search (case-insensitive) and org_id", async () => {
    const s = (await c.get("/projects?search=billing&limit=400")).body.projects.map((p: Body) => p.name);
    expect(s.sort()).toEqual(["Billing-0", "Billing-10", "Billing-15", "Billing-20", "Billing-5"]);
    const o = (await c.get("/projects?org_id=org-acme-1&limit=400")).body.projects;
    expect(o.map((p: Body) => p.id)).toEqual(["proj-00", "proj-01", "proj-02"]);
  });

  it.each(["limit=0", "limit=401", "limit=1.5", "limit=", "cursor=not-a-cursor", "org_id=BAD_ORG"])(
    "%s is 400",
    async (q) => {
      const res = await c.get(`/projects?${q}`);
      expect(res.status).toBe(400);
      expect(res.body.message).toMatch(/limit|cursor|org_id/);
    },
  );

  it("the shared list has the same shape", async () => {
    const res = await c.get("/projects/shared?limit=5");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      projects: [],
      pagination: { cursor: expect.any(String) },
      applications: {},
      integrations: {},
    });
  });

  it("gets one project; another's or an unknown one is 404", async () => {
    expect((await c.get("/projects/proj-03")).body.project.id).toBe("proj-03");
    expect((await c.get("/projects/proj-99")).status).toBe(404);
    const other = em.createAccount();
    expect((await c.get("/projects/proj-03", { key: other.apiKey })).status).toBe(404);
    const theirs = (await c.get("/projects", { key: other.apiKey })).body.projects;
    expect(theirs.map((p: Body) => p.id)).toEqual([other.projectId]);
  });

  it("creates a branch with a compute: 201 {branch, endpoints, operations}, listed afterwards", async () => {
    const res = await c.post("/projects/proj-04/branches", {
      branch: { name: "feature" },
      endpoints: [{ type: "read_write" }],
    });
    expect(res.status).toBe(201);
    expect(res.body.branch).toMatchObject({ name: "feature", project_id: "proj-04", default: false });
    expect(res.body.branch.id).toMatch(/^br-/);
    expect(res.body.endpoints).toHaveLength(1);
    expect(res.body.endpoints[0]).toMatchObject({
      branch_id: res.body.branch.id,
      current_state: "init",
      pending_state: "active",
    });
    expect(res.body.operations.map((o: Body) => o.action)).toEqual(["create_branch", "start_compute"]);
    const list = (await c.get("/projects/proj-04/branches")).body.branches.map((b: Body) => b.name);
    expect(list).toEqual(["feature", "main"]); // newest update first: listProjectBranches sorts by updated_at, desc
    const one = await c.get(`/projects/proj-04/branches/${res.body.branch.id}`);
    expect(one.body.branch.name).toBe("feature");
  });

  it("branch create without a body works; bad input is 400; unknown parent 404", async () => {
    expect((await c.post("/projects/proj-05/branches")).status).toBe(201);
    expect((await c.post("/projects/proj-06/branches", { endpoints: "x" })).status).toBe(400);
    expect((await c.post("/projects/proj-06/branches", { endpoints: [{ type: "rw" }] })).status).toBe(400);
    expect((await c.post("/projects/proj-06/branches", { branch: { parent_id: "br-none-123456" } })).status).toBe(404);
    expect((await c.get("/projects/proj-06/branches/br-none-123456")).status).toBe(404);
  });
});
