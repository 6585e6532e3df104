import { startEmulator, type Emulator } from "./index";
import { LOCKED_MESSAGE } from "./errors";
import { branchId, primaryEndpoint, TestClient, type Body } from "./test-client";

/** Operations that take time, the 423 lock while one is unfinished, and scripted failures. */
describe("operations", () => {
  let em: Emulator;
  let c: TestClient;
  let pid: string;
  let dev: string;
  const opGet = async (id: string): Promise<Body> => (await c.get(`/projects/${pid}/operations/${id}`)).body.operation;
  const createRo = () => c.post(`/projects/${pid}/endpoints`, { endpoint: { branch_id: dev, type: "read_only" } });

  beforeEach(async () => {
    em = await startEmulator({ manualClock: true, rateLimit: false, operationDurationMs: 1000 });
    c = new TestClient(em.baseUrl, em.apiKey);
    pid = em.projectId;
    dev = await branchId(c, pid, "dev");
  });
  afterEach(async () => {
    c.close();
    await em.close();
  });

  it("an operation moves scheduling → running → finished over the configured duration", async () => {
    const ep = await primaryEndpoint(c, pid);
    const res = await c.patch(`/projects/${pid}/endpoints/${ep.id}`, { endpoint: { autoscaling_limit_max_cu: 1 } });
    const [apply, suspend, start] = res.body.operations;
    expect((await opGet(start.id)).status).toBe("scheduling");
    em.clock.advance(1_000);
    expect((await opGet(apply.id)).status).toBe("finished");
    expect((await opGet(suspend.id)).status).toBe("running");
    expect((await opGet(start.id)).status).toBe("scheduling");
    em.clock.advance(1_000);
    expect((await opGet(start.id)).status).toBe("running");
    em.clock.advance(1_000);
    const done = await opGet(start.id);
    expect(done).toMatchObject({ status: "finished", failures_count: 0, action: "start_compute", endpoint_id: ep.id });
    expect(done.total_duration_ms).toBe(3_000);
    expect(Date.parse(done.updated_at)).toBe(em.clock.now());
  });

  it("compute changes answer 423 with the real message while the project has an unfinished operation", async () => {
    const first = await createRo();
    expect(first.status).toBe(201);
    const ep = await primaryEndpoint(c, pid);
    const attempts = [
      () => createRo(),
      () => c.patch(`/projects/${pid}/endpoints/${ep.id}`, { endpoint: { suspend_timeout_seconds: 60 } }),
      () => c.post(`/projects/${pid}/endpoints/${ep.id}/restart`),
      () => c.post(`/projects/${pid}/endpoints/${ep.id}/suspend`),
      () => c.del(`/projects/${pid}/endpoints/${ep.id}`),
    ];
    for (const attempt of attempts) {
      const res = await attempt();
      expect(res.status).toBe(423);
      expect(res.body).toMatchObject({ code: "", message: LOCKED_MESSAGE });
    }
    expect((await c.get(`/projects/${pid}/endpoints`)).body.endpoints).toHaveLength(2);
    em.clock.advance(1_000);
    expect((await createRo()).status).toBe(201);
  });

  it("reads are never locked", async () => {
    await createRo();
    expect((await c.get(`/projects/${pid}/endpoints`)).status).toBe(200);
    expect((await c.get(`/projects/${pid}/operations`)).status).toBe(200);
  });

  it("failNext makes the next matching operation end failed with error and failures_count", async () => {
    em.operations.failNext({ action: "start_compute", error: "compute did not start" });
    const res = await createRo();
    const op = res.body.operations[0];
    expect(op.status).toBe("running");
    em.clock.advance(1_000);
    const failed = await opGet(op.id);
    expect(failed).toMatchObject({ status: "failed", failures_count: 1, error: "compute did not start" });
    expect(failed.retry_at).toBeUndefined(); // not retried: terminal
    const ep = (await c.get(`/projects/${pid}/endpoints/${res.body.endpoint.id}`)).body.endpoint;
    expect(ep.current_state).toBe("idle");
    expect(ep.pending_state).toBeUndefined();
    expect((await createRo()).status).toBe(201); // a failed operation no longer locks the project
    em.clock.advance(1_000);
    expect((await opGet((await c.get(`/projects/${pid}/operations?limit=1`)).body.operations[0].id)).status).toBe(
      "finished",
    );
  });

  it.each(["error", "cancelled"] as const)(
    "failNext({status: %s}) ends the operation so, with its error",
    async (status) => {
      em.operations.failNext({ action: "start_compute", status, error: `injected ${status}` });
      const op = (await createRo()).body.operations[0];
      em.clock.advance(1_000);
      expect(await opGet(op.id)).toMatchObject({ status, failures_count: 1, error: `injected ${status}` });
      expect((await createRo()).status).toBe(201); // it no longer locks the project
    },
  );

  it("skipNext ends an operation `skipped`, which counts as done: the compute reaches its state", async () => {
    em.operations.skipNext({ action: "start_compute" });
    const res = await createRo();
    em.clock.advance(1_000);
    const op = await opGet(res.body.operations[0].id);
    expect(op).toMatchObject({ status: "skipped", failures_count: 0 });
    expect(op.error).toBeUndefined();
    const ep = (await c.get(`/projects/${pid}/endpoints/${res.body.endpoint.id}`)).body.endpoint;
    expect(ep.current_state).toBe("active");
  });

  it("a failed operation the service retries shows failed, failures_count and a future retry_at, then finishes", async () => {
    em.operations.failNext({ action: "start_compute", status: "failed", retries: 2, error: "no capacity" });
    const res = await createRo();
    const id = res.body.operations[0].id;
    const seen: Body[] = [];
    for (let t = 0; t < 5; t++) {
      em.clock.advance(1_000);
      seen.push(await opGet(id));
    }
    expect(seen.map((o) => `${o.status}/${o.failures_count}`)).toEqual([
      "failed/1",
      "running/1",
      "failed/2",
      "running/2",
      "finished/2",
    ]);
    expect(Date.parse(seen[0].retry_at)).toBe(Date.parse(seen[0].updated_at) + 1_000);
    expect(seen[0].error).toBe("no capacity");
    expect(seen[4].retry_at).toBeUndefined();
    expect((await createRo()).status).toBe(201);
  });

  it("while a failed operation awaits its retry the project stays locked; a terminal failed has no retry_at", async () => {
    em.operations.failNext({ action: "start_compute", retries: Infinity });
    const op = (await createRo()).body.operations[0];
    em.clock.advance(24 * 3600 * 1000 + 1_500);
    const retrying = await opGet(op.id);
    expect(retrying.status).toBe("failed");
    expect(Date.parse(retrying.retry_at)).toBeGreaterThan(em.clock.now());
    expect((await createRo()).status).toBe(423);
    expect(() => em.operations.failNext({ status: "finished" as never })).toThrow(/not a failure/);
  });

  it("stickNext keeps an operation running forever, and the project locked", async () => {
    em.operations.stickNext();
    const op = (await createRo()).body.operations[0];
    em.clock.advance(7 * 24 * 3600 * 1000);
    expect((await opGet(op.id)).status).toBe("running");
    expect((await createRo()).status).toBe(423);
  });

  it("lists operations newest first with cursor paging and limit 1..1000", async () => {
    for (let i = 0; i < 3; i++) {
      expect((await createRo()).status).toBe(201);
      em.clock.advance(1_000);
    }
    const all = (await c.get(`/projects/${pid}/operations`)).body.operations;
    expect(all).toHaveLength(3);
    expect(Date.parse(all[0].created_at)).toBeGreaterThan(Date.parse(all[2].created_at));
    const p1 = await c.get(`/projects/${pid}/operations?limit=2`);
    expect(p1.body.operations.map((o: Body) => o.id)).toEqual(all.slice(0, 2).map((o: Body) => o.id));
    expect(p1.body.pagination.cursor).toEqual(expect.any(String));
    const p2 = await c.get(`/projects/${pid}/operations?limit=2&cursor=${p1.body.pagination.cursor}`);
    expect(p2.body.operations.map((o: Body) => o.id)).toEqual([all[2].id]);
    expect(p2.body.pagination.cursor.length).toBeGreaterThan(0);
    for (const q of ["limit=0", "limit=1001", "limit=x", "cursor=abc"]) {
      expect((await c.get(`/projects/${pid}/operations?${q}`)).status).toBe(400);
    }
  });

  it("an unknown operation, or one of another project, is 404", async () => {
    const op = (await createRo()).body.operations[0];
    expect((await c.get(`/projects/${pid}/operations/00000000-0000-4000-8000-000000000000`)).status).toBe(404);
    const other = em.createAccount();
    const oc = new TestClient(em.baseUrl, other.apiKey);
    expect((await oc.get(`/projects/${other.projectId}/operations/${op.id}`)).status).toBe(404);
    expect((await oc.get(`/projects/${pid}/operations/${op.id}`)).status).toBe(404);
    oc.close();
  });
});
