import { startEmulator, type Emulator } from "../index";
import { branchId, primaryEndpoint, TestClient, type Body } from "../test-client";

/** Compute routes: status codes and body shapes of api.md, and their 4xx. */
describe("endpoints routes", () => {
  let em: Emulator;
  let c: TestClient;
  let pid: string;
  let main: string;
  let dev: string;
  const base = (): string => `/projects/${pid}/endpoints`;
  const create = (endpoint: Record<string, unknown>) => c.post(base(), { endpoint });

  beforeEach(async () => {
    em = await startEmulator({ manualClock: true, rateLimit: false, operationDurationMs: 0 });
    c = new TestClient(em.baseUrl, em.apiKey);
    pid = em.projectId;
    main = await branchId(c, pid, "main");
    dev = await branchId(c, pid, "dev");
  });
  afterEach(async () => {
    c.close();
    await em.close();
  });

  it("create answers 201 {endpoint, operations:[start_compute running]} with every required field", async () => {
    const res = await create({
      branch_id: dev,
      type: "read_write",
      autoscaling_limit_min_cu: 0.5,
      autoscaling_limit_max_cu: 4,
    });
    expect(res.status).toBe(201);
    const e = res.body.endpoint;
    expect(e.id).toMatch(/^ep-[a-z]+-[a-z]+-\d{6}$/);
    expect(e.host).toBe(`${e.id}.us-east-2.aws.neon.tech`);
    expect(e).toMatchObject({
      project_id: pid,
      branch_id: dev,
      region_id: "aws-us-east-2",
      type: "read_write",
      autoscaling_limit_min_cu: 0.5,
      autoscaling_limit_max_cu: 4,
      proxy_host: "us-east-2.aws.neon.tech",
      suspend_timeout_seconds: 0,
      provisioner: "k8s-neonvm",
      settings: { pg_settings: {} },
      creation_source: "console",
    });
    for (const k of ["disabled", "passwordless_access", "created_at", "updated_at"]) expect(e).toHaveProperty(k);
    const [op] = res.body.operations;
    expect(res.body.operations).toHaveLength(1);
    expect(op).toMatchObject({
      project_id: pid,
      branch_id: dev,
      endpoint_id: e.id,
      action: "start_compute",
      status: "running",
      failures_count: 0,
    });
    expect(op.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(typeof op.total_duration_ms).toBe("number");
  });

  it("lists {endpoints} for the project and for a branch, and gets {endpoint}", async () => {
    const ro = (await create({ branch_id: main, type: "read_only" })).body.endpoint;
    const all = (await c.get(base())).body.endpoints.map((e: Body) => e.id);
    expect(all).toHaveLength(2);
    expect(all).toContain(ro.id);
    const onDev = await c.get(`/projects/${pid}/branches/${dev}/endpoints`);
    expect(onDev.status).toBe(200);
    expect(onDev.body).toEqual({ endpoints: [] });
    const got = await c.get(`${base()}/${ro.id}`);
    expect(got.status).toBe(200);
    expect(got.body.endpoint).toMatchObject({ id: ro.id, type: "read_only" });
  });

  it("any number of read_only computes per branch, one read_write (409 on create)", async () => {
    expect((await create({ branch_id: main, type: "read_only" })).status).toBe(201);
    expect((await create({ branch_id: main, type: "read_only" })).status).toBe(201);
    const res = await create({ branch_id: main, type: "read_write" });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: "", message: "read_write endpoint already exists" });
    expect(typeof res.body.request_id).toBe("string");
  });

  it("409 on moving a read_write compute to a branch that has one; the compute stays", async () => {
    const other = (await create({ branch_id: dev, type: "read_write" })).body.endpoint;
    const res = await c.patch(`${base()}/${other.id}`, { endpoint: { branch_id: main } });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe("read_write endpoint already exists");
    expect((await c.get(`${base()}/${other.id}`)).body.endpoint.branch_id).toBe(dev);
  });

  it("PATCH changes only the given fields and answers {endpoint, operations}", async () => {
    const ep = await primaryEndpoint(c, pid);
    const res = await c.patch(`${base()}/${ep.id}`, {
      endpoint: { name: "primary", disabled: false, settings: { pg_settings: { work_mem: "64MB" } } },
    });
    expect(res.status).toBe(200);
    expect(res.body.endpoint).toMatchObject({ name: "primary", disabled: false, autoscaling_limit_min_cu: 0.25 });
    expect(res.body.endpoint.settings.pg_settings).toEqual({ work_mem: "64MB" });
    expect(Array.isArray(res.body.operations)).toBe(true);
  });

  it("delete answers 200 {endpoint, operations: [suspend_compute running]}; again 204; a never-seen id 204", async () => {
    const ep = await primaryEndpoint(c, pid);
    const res = await c.del(`${base()}/${ep.id}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ endpoint: expect.objectContaining({ id: ep.id }), operations: [expect.any(Object)] });
    expect(res.body.operations[0]).toMatchObject({ action: "suspend_compute", status: "running", endpoint_id: ep.id });
    const again = await c.del(`${base()}/${ep.id}`);
    expect([again.status, again.body]).toEqual([204, undefined]);
    expect((await c.get(`${base()}/${ep.id}`)).status).toBe(404);
    // OpenAPI: 204 "Returned if the endpoint doesn't exist or has already been deleted"
    const never = await c.del(`${base()}/ep-never-existed-123456`);
    expect([never.status, never.body]).toEqual([204, undefined]);
    expect((await c.del(`/projects/no-such-project/endpoints/${ep.id}`)).status).toBe(404);
  });

  it.each([
    ["POST", "/restart"],
    ["POST", "/start"],
    ["POST", "/suspend"],
    ["GET", ""],
    ["PATCH", ""],
  ])("%s ...endpoints/{unknown}%s is 404 endpoint not found", async (method, suffix) => {
    const res = await c.send(method, `${base()}/ep-nope-123456${suffix}`, {
      body: method === "PATCH" ? { endpoint: {} } : undefined,
    });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe("endpoint not found");
  });

  it("unknown project or branch is 404", async () => {
    expect((await c.get("/projects/no-such-project/endpoints")).body.message).toBe("project not found");
    const res = await create({ branch_id: "br-nope-123456", type: "read_write" });
    expect(res.status).toBe(404);
    expect(res.body.message).toBe("branch not found");
  });

  it.each([
    [{ type: "read_write" }, "endpoint.branch_id"],
    [{ branch_id: "BR_BAD", type: "read_write" }, "endpoint.branch_id"],
    [{ branch_id: "br-x-1", type: "replica" }, "endpoint.type"],
    [{ branch_id: "br-x-1" }, "endpoint.type"],
    [{ branch_id: "br-x-1", type: "read_only", autoscaling_limit_min_cu: 0.3 }, "autoscaling_limit_min_cu"],
    [{ branch_id: "br-x-1", type: "read_only", autoscaling_limit_min_cu: 17 }, "autoscaling_limit_min_cu"],
    [{ branch_id: "br-x-1", type: "read_only", autoscaling_limit_max_cu: "1" }, "autoscaling_limit_max_cu"],
    [
      { branch_id: "br-x-1", type: "read_only", autoscaling_limit_min_cu: 4, autoscaling_limit_max_cu: 2 },
      "autoscaling_limit_min_cu",
    ],
    [
      { branch_id: "br-x-1", type: "read_only", autoscaling_limit_min_cu: 1, autoscaling_limit_max_cu: 10 },
      "autoscaling_limit_max_cu",
    ],
    [
      { branch_id: "br-x-1", type: "read_only", autoscaling_limit_min_cu: 16, autoscaling_limit_max_cu: 18 },
      "autoscaling_limit_max_cu",
    ],
    [{ branch_id: "br-x-1", type: "read_only", suspend_timeout_seconds: 30 }, "suspend_timeout_seconds"],
    [{ branch_id: "br-x-1", type: "read_only", suspend_timeout_seconds: 604801 }, "suspend_timeout_seconds"],
    [{ branch_id: "br-x-1", type: "read_only", suspend_timeout_seconds: 60.5 }, "suspend_timeout_seconds"],
    [{ branch_id: "br-x-1", type: "read_only", provisioner: "docker" }, "endpoint.provisioner"],
    [{ branch_id: "br-x-1", type: "read_only", name: "" }, "endpoint.name"],
    [{ branch_id: "br-x-1", type: "read_only", name: "x".repeat(65) }, "endpoint.name"],
    [{ branch_id: "br-x-1", type: "read_only", region_id: "aws-eu-central-1" }, "endpoint.region_id"],
    [{ branch_id: "br-x-1", type: "read_only", settings: { pg_settings: { a: 1 } } }, "settings.pg_settings.a"],
    [{ branch_id: "br-x-1", type: "read_only", disabled: "no" }, "endpoint.disabled"],
  ])("create %j is 400 naming %s, and creates nothing", async (endpoint, field) => {
    const res = await create(endpoint);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(field);
    expect((await c.get(base())).body.endpoints).toHaveLength(1);
  });

  it("the allowed values are named in the message", async () => {
    const res = await create({ branch_id: dev, type: "read_only", autoscaling_limit_min_cu: 0.3 });
    expect(res.body.message).toContain("0.25, 0.5, integers 1..16, even integers 18..56");
  });

  it("accepts the documented sizes: fixed 56, autoscaling 0.25..8.25 is refused but 8..16 accepted", async () => {
    expect(
      (await create({ branch_id: dev, type: "read_only", autoscaling_limit_min_cu: 56, autoscaling_limit_max_cu: 56 }))
        .status,
    ).toBe(201);
    expect(
      (await create({ branch_id: dev, type: "read_only", autoscaling_limit_min_cu: 8, autoscaling_limit_max_cu: 16 }))
        .status,
    ).toBe(201);
    expect(
      (await create({ branch_id: dev, type: "read_only", autoscaling_limit_min_cu: 0.25, autoscaling_limit_max_cu: 9 }))
        .status,
    ).toBe(400);
  });

  it("type and region_id cannot change on PATCH; unknown fields are ignored", async () => {
    const ep = await primaryEndpoint(c, pid);
    const t = await c.patch(`${base()}/${ep.id}`, { endpoint: { type: "read_only" } });
    expect(t.status).toBe(400);
    expect(t.body.message).toContain("endpoint.type");
    const r = await c.patch(`${base()}/${ep.id}`, { endpoint: { region_id: "aws-eu-central-1" } });
    expect(r.status).toBe(400);
    const u = await c.patch(`${base()}/${ep.id}`, { endpoint: { some_future_field: 1 }, extra: true });
    expect(u.status).toBe(200);
  });

  it("a body without an endpoint object is 400", async () => {
    for (const body of [undefined, {}, [], { endpoint: [] }, { endpoint: "x" }]) {
      const res = await c.post(base(), body);
      expect(res.status).toBe(400);
    }
  });
});
