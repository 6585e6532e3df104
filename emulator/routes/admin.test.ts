import type { Emulator } from "../index";
import { branchId, emulatorPerTest, TestClient } from "../test-client";

/** The command line's operation controls: the same outcomes as `emulator.operations`, over HTTP. */
describe("admin routes: operation controls", () => {
  let em: Emulator;
  let c: TestClient;
  let admin: TestClient;
  let pid: string;
  const boot = emulatorPerTest({ operationDurationMs: 1000 });
  beforeEach(async () => {
    ({ em, c, pid } = await boot());
    admin = new TestClient(em.baseUrl.replace("/api/v2", ""), em.apiKey);
  });
  afterEach(() => admin.close());
  const createRo = async () => {
    const dev = await branchId(c, pid, "dev");
    return (await c.post(`/projects/${pid}/endpoints`, { endpoint: { branch_id: dev, type: "read_only" } })).body;
  };
  const statusOf = async (id: string) => (await c.get(`/projects/${pid}/operations/${id}`)).body.operation;

  it("fail-next arms an outcome (retries: forever too), skip-next and stick-next theirs", async () => {
    const armed = await admin.post("/_emulator/operations/fail-next", { action: "start_compute", status: "error" });
    expect(armed.status).toBe(200);
    const first = await createRo();
    em.clock.advance(1_000);
    expect(await statusOf(first.operations[0].id)).toMatchObject({ status: "error", error: "operation failed" });
    const forever = await admin.post("/_emulator/operations/fail-next", { retries: "forever" });
    expect(forever.body.rule.retries).toBe("forever");
    const second = await createRo();
    em.clock.advance(1_500);
    expect((await statusOf(second.operations[0].id)).retry_at).toEqual(expect.any(String));
  });

  it("skip-next and stick-next take only action and times", async () => {
    expect((await admin.post("/_emulator/operations/skip-next", { action: "start_compute" })).status).toBe(200);
    const skipped = await createRo();
    em.clock.advance(1_000);
    expect((await statusOf(skipped.operations[0].id)).status).toBe("skipped");
    expect((await admin.post("/_emulator/operations/stick-next", { times: 1 })).status).toBe(200);
    const stuck = await createRo();
    em.clock.advance(60_000);
    expect((await statusOf(stuck.operations[0].id)).status).toBe("running");
  });

  it.each([
    [{ status: "finished" }, "status"],
    [{ retries: -1 }, "retries"],
    [{ retries: 1.5 }, "retries"],
    [{ times: 0 }, "times"],
    [{ action: 3 }, "action"],
    [{ error: false }, "error"],
    [[], "request body"],
  ])("bad control %j is 400 naming %s, and arms nothing", async (body, field) => {
    const res = await admin.post("/_emulator/operations/fail-next", body);
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(field);
    const made = await createRo();
    em.clock.advance(1_000);
    expect((await statusOf(made.operations[0].id)).status).toBe("finished");
  });
});
