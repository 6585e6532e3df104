import { describeBehaviours, REAL_SERVICE, resolveBehaviours } from "./behaviours";
import type { Emulator, EmulatorOptions } from "./index";
import { branchId, emulatorPerTest, primaryEndpoint, TestClient, type Body } from "./test-client";

/** Each behaviour of the real service: on by default, and the switch that pins the older or specified one. */
describe("service behaviours", () => {
  let em: Emulator;
  let c: TestClient;
  let pid: string;
  const boot = emulatorPerTest({ operationDurationMs: 1000 });
  const start = async (options: EmulatorOptions = {}): Promise<void> => void ({ em, c, pid } = await boot(options));
  const one = (id: string): string => `/projects/${pid}/endpoints/${id}`;

  it("defaults are the real service, and describe() names each one", async () => {
    await start();
    expect(em.behaviours).toEqual(REAL_SERVICE);
    expect(em.describe()).toBe(
      "deletes return a running suspend_compute; 429 without Retry-After; " +
        "pooler fields absent in responses, ignored in requests; " +
        "restart of an idle compute refused; new branches not ready for their create_branch operation; " +
        "branch_id in an update moves the compute; passwords stored; reveal during a reset shows the new password; a deleted database counts as its role's until its delete is answered",
    );
    expect(describeBehaviours(resolveBehaviours({ branchReadyDelayMs: 500 }))).toContain("+ 500 ms");
    expect(() => resolveBehaviours({ branchReadyDelayMs: -1 })).toThrow(/branchReadyDelayMs/);
    expect(() => resolveBehaviours({ branchMove: "teleports" as never })).toThrow(
      /branchMove must be one of moves, refused, ignored/,
    );
    expect(() => resolveBehaviours({ revealAfterReset: "later" as never })).toThrow(
      /revealAfterReset must be one of new, old/,
    );
    expect(() => resolveBehaviours({ poolerRequests: "maybe" as never })).toThrow(
      /poolerRequests must be one of accepted, refused/,
    );
  });

  it("a delete's suspend_compute locks the project (423) until it ends; deleteOperations: false returns none", async () => {
    await start();
    const ep = await primaryEndpoint(c, pid);
    const del = await c.del(one(ep.id));
    expect(del.body.operations.map((o: Body) => `${o.action}:${o.status}`)).toEqual(["suspend_compute:running"]);
    const dev = await branchId(c, pid, "dev");
    const create = () => c.post(`/projects/${pid}/endpoints`, { endpoint: { branch_id: dev, type: "read_only" } });
    expect((await create()).status).toBe(423);
    em.clock.advance(1_000);
    const op = (await c.get(`/projects/${pid}/operations/${del.body.operations[0].id}`)).body.operation;
    expect(op.status).toBe("finished");
    expect((await create()).status).toBe(201);
    c.close();
    await em.close();
    await start({ deleteOperations: false });
    const again = await primaryEndpoint(c, pid);
    expect((await c.del(one(again.id))).body.operations).toEqual([]);
  });

  it("pooler fields are absent from responses and ignored in requests; omitPoolerFields: false keeps both", async () => {
    await start();
    const ep = await primaryEndpoint(c, pid);
    expect(ep).not.toHaveProperty("pooler_enabled");
    expect(ep).not.toHaveProperty("pooler_mode");
    const patched = await c.patch(one(ep.id), { endpoint: { pooler_enabled: true, pooler_mode: "session" } });
    expect([patched.status, patched.body.operations]).toEqual([200, []]);
    expect(patched.body.endpoint).not.toHaveProperty("pooler_enabled");
    c.close();
    await em.close();
    await start({ omitPoolerFields: false });
    const old = await primaryEndpoint(c, pid);
    expect(old).toMatchObject({ pooler_enabled: false, pooler_mode: "transaction" });
    const refused = await c.patch(one(old.id), { endpoint: { pooler_mode: "session" } });
    expect([refused.status, refused.body.message]).toEqual([400, expect.stringContaining("endpoint.pooler_mode")]);
  });

  it("poolerRequests: refused answers 400 naming each pooler field sent, in a create, an update and a branch create, and changes nothing", async () => {
    await start({ poolerRequests: "refused" });
    expect(em.describe()).toContain("pooler fields absent in responses, refused in requests");
    const ep = await primaryEndpoint(c, pid);
    const patched = await c.patch(one(ep.id), { endpoint: { pooler_enabled: true, suspend_timeout_seconds: 600 } });
    expect([patched.status, patched.body.message]).toEqual([400, expect.stringContaining("endpoint.pooler_enabled")]);
    expect((await c.get(one(ep.id))).body.endpoint.suspend_timeout_seconds).toBe(0);
    const dev = await branchId(c, pid, "dev");
    const created = await c.post(`/projects/${pid}/endpoints`, {
      endpoint: { branch_id: dev, type: "read_only", pooler_mode: "transaction" },
    });
    expect([created.status, created.body.message]).toEqual([400, expect.stringContaining("endpoint.pooler_mode")]);
    const branch = await c.post(`/projects/${pid}/branches`, {
      branch: { name: "b" },
      endpoints: [{ type: "read_write", pooler_enabled: false }],
    });
    expect([branch.status, branch.body.message]).toEqual([400, expect.stringContaining("endpoints[0].pooler_enabled")]);
    expect((await c.get(`/projects/${pid}/endpoints`)).body.endpoints).toHaveLength(1);
    const plain = await c.post(`/projects/${pid}/endpoints`, { endpoint: { branch_id: dev, type: "read_only" } });
    expect(plain.status).toBe(201);
  });

  it("restartRequiresActive: false restarts an idle compute as the specification describes", async () => {
    await start({ restartRequiresActive: false });
    const ep = await primaryEndpoint(c, pid);
    em.clock.advance(301_000);
    const res = await c.post(`${one(ep.id)}/restart`);
    expect(res.status).toBe(200);
    em.clock.advance(2_000);
    expect((await c.get(one(ep.id))).body.endpoint.current_state).toBe("active");
  });

  it("a new branch answers 422 `branch not ready yet` to compute creates while it is set up (+ the delay)", async () => {
    await start({ branchReadyDelayMs: 500 });
    const created = await c.post(`/projects/${pid}/branches`, { branch: { name: "fresh" } });
    expect(created.status).toBe(201);
    const br = created.body.branch.id;
    const create = () => c.post(`/projects/${pid}/endpoints`, { endpoint: { branch_id: br, type: "read_write" } });
    const early = await create();
    expect([early.status, early.body.message]).toEqual([422, "branch not ready yet"]);
    em.clock.advance(1_000); // create_branch finished; the delay runs
    expect((await create()).status).toBe(422);
    em.clock.advance(500);
    expect((await create()).status).toBe(201);
    expect((await c.get(`/projects/${pid}/endpoints`)).body.endpoints).toHaveLength(2);
  });

  it("branchMove: a PATCH's branch_id moves the compute today; `refused` answers 400 naming the field and changes nothing; `ignored` keeps the branch and applies the rest", async () => {
    const moveReplica = async () => {
      const dev = await branchId(c, pid, "dev");
      const staging = await branchId(c, pid, "staging");
      const made = await c.post(`/projects/${pid}/endpoints`, { endpoint: { branch_id: dev, type: "read_only" } });
      em.clock.advance(2_000);
      const body = { endpoint: { branch_id: staging, suspend_timeout_seconds: 600 } };
      return {
        dev,
        staging,
        id: made.body.endpoint.id as string,
        res: await c.patch(one(made.body.endpoint.id), body),
      };
    };
    await start();
    const moved = await moveReplica();
    expect([moved.res.status, moved.res.body.endpoint.branch_id]).toEqual([200, moved.staging]);
    c.close();
    await em.close();

    await start({ branchMove: "refused" });
    const refused = await moveReplica();
    expect([refused.res.status, refused.res.body.message]).toEqual([
      400,
      expect.stringContaining("endpoint.branch_id"),
    ]);
    expect((await c.get(one(refused.id))).body.endpoint).toMatchObject({
      branch_id: refused.dev,
      suspend_timeout_seconds: 0,
    });
    c.close();
    await em.close();

    await start({ branchMove: "ignored" });
    const ignored = await moveReplica();
    expect(ignored.res.status).toBe(200);
    expect(ignored.res.body.endpoint).toMatchObject({ branch_id: ignored.dev, suspend_timeout_seconds: 600 });
    expect(em.describe()).toContain("branch_id in an update ignored");
  });
});
