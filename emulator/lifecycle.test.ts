import { startEmulator, type Emulator } from "./index";
import { branchId, primaryEndpoint, TestClient, type Body } from "./test-client";

/** The compute lifecycle table of the spec, on a manual clock (operations take 1 s of service time per phase). */
describe("compute lifecycle", () => {
  let em: Emulator;
  let c: TestClient;
  let pid: string;
  let ep: Body;
  const one = (): string => `/projects/${pid}/endpoints/${ep.id}`;
  const state = async (): Promise<Body> => (await c.get(one())).body.endpoint;
  const actions = (ops: Body[]): string[] => ops.map((o) => `${o.action}:${o.status}`);

  beforeEach(async () => {
    em = await startEmulator({ manualClock: true, rateLimit: false });
    c = new TestClient(em.baseUrl, em.apiKey);
    pid = em.projectId;
    ep = await primaryEndpoint(c, pid);
  });
  afterEach(async () => {
    c.close();
    await em.close();
  });

  it("the default world's primary compute is active and autosuspends after the default 300 s", async () => {
    expect(ep.current_state).toBe("active");
    expect(ep.suspend_timeout_seconds).toBe(0);
    em.clock.advance(299_000);
    expect((await state()).current_state).toBe("active");
    em.clock.advance(1_000);
    const after = await state();
    expect(after.current_state).toBe("idle");
    expect(after.suspended_at).toBe(new Date(em.clock.now()).toISOString());
    const ops = (await c.get(`/projects/${pid}/operations`)).body.operations;
    expect(ops.map((o: Body) => o.action)).toEqual(["suspend_compute"]);
  });

  it("a custom timeout applies without a restart; the compute suspends after it", async () => {
    const res = await c.patch(one(), { endpoint: { suspend_timeout_seconds: 60 } });
    expect(res.status).toBe(200);
    expect(actions(res.body.operations)).toEqual(["apply_config:running"]);
    expect(res.body.endpoint.current_state).toBe("active");
    expect(res.body.endpoint.pending_state).toBeUndefined();
    em.clock.advance(59_000);
    expect((await state()).current_state).toBe("active");
    em.clock.advance(1_000);
    expect((await state()).current_state).toBe("idle");
  });

  it("-1 never suspends, even after 8 days", async () => {
    await c.patch(one(), { endpoint: { suspend_timeout_seconds: -1 } });
    em.clock.advance(8 * 24 * 3600 * 1000);
    expect((await state()).current_state).toBe("active");
  });

  it("activity wakes an idle compute (start_compute) and resets the timer", async () => {
    em.clock.advance(301_000);
    expect((await state()).current_state).toBe("idle");
    em.activity(pid, ep.id);
    const woke = await state();
    expect(woke.current_state).toBe("active");
    expect(woke.last_active).toBe(new Date(em.clock.now()).toISOString());
    const ops = (await c.get(`/projects/${pid}/operations`)).body.operations;
    expect(ops[0].action).toBe("start_compute");
    em.clock.advance(200_000);
    em.activity(pid, ep.id); // resets the timer: 200 s + 200 s > 300 s yet still active
    em.clock.advance(200_000);
    expect((await state()).current_state).toBe("active");
    em.clock.advance(100_000);
    expect((await state()).current_state).toBe("idle");
  });

  it("activity through the /_emulator route wakes the compute too", async () => {
    em.clock.advance(301_000);
    const url = em.baseUrl.replace("/api/v2", "");
    const admin = new TestClient(url, em.apiKey);
    const res = await admin.post(`/_emulator/activity/${pid}/${ep.id}`);
    admin.close();
    expect(res.status).toBe(200);
    expect(res.body.endpoint.current_state).toBe("active");
    expect(actions(res.body.operations)).toEqual(["start_compute:running"]);
  });

  it("a size change on a running compute restarts it", async () => {
    const before = await state();
    em.clock.advance(5_000);
    const res = await c.patch(one(), { endpoint: { autoscaling_limit_min_cu: 1, autoscaling_limit_max_cu: 2 } });
    expect(res.status).toBe(200);
    expect(actions(res.body.operations)).toEqual([
      "apply_config:running",
      "suspend_compute:scheduling",
      "start_compute:scheduling",
    ]);
    expect(res.body.endpoint.pending_state).toBe("active");
    em.clock.advance(3_000);
    const after = await state();
    expect(after.current_state).toBe("active");
    expect(after.pending_state).toBeUndefined();
    expect(after.autoscaling_limit_max_cu).toBe(2);
    expect(Date.parse(after.started_at)).toBeGreaterThan(Date.parse(before.started_at));
  });

  it("an autosuspend change does not restart a running compute", async () => {
    const before = await state();
    em.clock.advance(5_000);
    const res = await c.patch(one(), { endpoint: { suspend_timeout_seconds: 600 } });
    expect(actions(res.body.operations)).toEqual(["apply_config:running"]);
    em.clock.advance(2_000);
    const after = await state();
    expect(after.started_at).toBe(before.started_at);
    expect(after.current_state).toBe("active");
  });

  it("a branch move of an idle compute returns apply_config (running) + suspend_compute (scheduling), stays idle", async () => {
    em.clock.advance(302_000);
    const dev = await branchId(c, pid, "dev");
    const res = await c.patch(one(), { endpoint: { branch_id: dev } });
    expect(res.status).toBe(200);
    expect(actions(res.body.operations)).toEqual(["apply_config:running", "suspend_compute:scheduling"]);
    expect(res.body.endpoint).toMatchObject({ branch_id: dev, current_state: "idle", pending_state: "idle" });
    em.clock.advance(2_000);
    const after = await state();
    expect(after).toMatchObject({ branch_id: dev, current_state: "idle" });
    expect(after.pending_state).toBeUndefined();
    const onDev = (await c.get(`/projects/${pid}/branches/${dev}/endpoints`)).body.endpoints;
    expect(onDev.map((e: Body) => e.id)).toEqual([ep.id]);
  });

  it("a new compute is init with pending active, then active once start_compute finished", async () => {
    const staging = await branchId(c, pid, "staging");
    const res = await c.post(`/projects/${pid}/endpoints`, { endpoint: { branch_id: staging, type: "read_write" } });
    expect(res.status).toBe(201);
    expect(res.body.endpoint).toMatchObject({ current_state: "init", pending_state: "active" });
    expect(res.body.endpoint.last_active).toBeUndefined();
    expect(actions(res.body.operations)).toEqual(["start_compute:running"]);
    em.clock.advance(1_000);
    const got = (await c.get(`/projects/${pid}/endpoints/${res.body.endpoint.id}`)).body.endpoint;
    expect(got.current_state).toBe("active");
    expect(got.last_active).toBeDefined();
  });

  it("restart of an active compute answers suspend_compute then start_compute and ends active", async () => {
    const res = await c.post(`${one()}/restart`);
    expect(res.status).toBe(200);
    expect(actions(res.body.operations)).toEqual(["suspend_compute:running", "start_compute:scheduling"]);
    em.clock.advance(2_000);
    expect((await state()).current_state).toBe("active");
  });

  it("restart of an idle compute is refused (422, naming the start API), changing nothing", async () => {
    em.clock.advance(301_000);
    const res = await c.post(`${one()}/restart`);
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ code: "", message: expect.stringContaining("idle"), request_id: expect.any(String) });
    expect(res.body.message).toContain(`/endpoints/${ep.id}/start`);
    expect((await state()).current_state).toBe("idle");
    expect((await c.post(`${one()}/start`)).status).toBe(200);
    em.clock.advance(1_000);
    expect((await c.post(`${one()}/restart`)).status).toBe(200);
  });

  it("suspend then start move the compute to idle and back", async () => {
    const s = await c.post(`${one()}/suspend`);
    expect(actions(s.body.operations)).toEqual(["suspend_compute:running"]);
    expect(s.body.endpoint.pending_state).toBe("idle");
    em.clock.advance(1_000);
    expect((await state()).current_state).toBe("idle");
    const st = await c.post(`${one()}/start`);
    expect(actions(st.body.operations)).toEqual(["start_compute:running"]);
    em.clock.advance(1_000);
    expect((await state()).current_state).toBe("active");
  });

  it("a disabled compute is started neither by start or restart (422, changing nothing) nor by activity", async () => {
    await c.patch(one(), { endpoint: { disabled: true } });
    em.clock.advance(2_000);
    expect((await state()).current_state).toBe("idle");
    const opsBefore = (await c.get(`/projects/${pid}/operations`)).body.operations.length;
    for (const which of ["start", "restart"]) {
      const res = await c.post(`${one()}/${which}`);
      expect(res.status).toBe(422);
      expect(res.body).toEqual({
        code: "",
        message: expect.stringContaining("disabled"),
        request_id: expect.any(String),
      });
    }
    em.activity(pid, ep.id);
    expect((await state()).current_state).toBe("idle");
    expect((await c.get(`/projects/${pid}/operations`)).body.operations).toHaveLength(opsBefore);
    await c.patch(one(), { endpoint: { disabled: false } });
    em.clock.advance(2_000);
    expect((await c.post(`${one()}/start`)).status).toBe(200);
  });

  it("a disabled compute left active (a fixture's) still autosuspends, and activity does not keep it awake", async () => {
    const main = { name: "main", endpoints: [{ type: "read_write" as const, disabled: true }] };
    const fixture = { accounts: [{ projects: [{ branches: [main] }] }] };
    const other = await startEmulator({ manualClock: true, rateLimit: false, fixture });
    const oc = new TestClient(other.baseUrl, other.apiKey);
    try {
      const disabled = await primaryEndpoint(oc, other.projectId);
      expect(disabled).toMatchObject({ current_state: "active", disabled: true });
      other.clock.advance(200_000);
      other.activity(other.projectId, disabled.id);
      other.clock.advance(100_000);
      const after = (await oc.get(`/projects/${other.projectId}/endpoints/${disabled.id}`)).body.endpoint;
      expect(after.current_state).toBe("idle");
    } finally {
      oc.close();
      await other.close();
    }
  });

  it("a config change on an idle compute keeps it idle (apply_config + suspend_compute)", async () => {
    em.clock.advance(302_000);
    const res = await c.patch(one(), { endpoint: { autoscaling_limit_min_cu: 2, autoscaling_limit_max_cu: 2 } });
    expect(actions(res.body.operations)).toEqual(["apply_config:running", "suspend_compute:scheduling"]);
    em.clock.advance(2_000);
    expect((await state()).current_state).toBe("idle");
  });
});
