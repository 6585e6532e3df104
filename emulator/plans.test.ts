import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Emulator, EmulatorOptions } from "./index";
import { branchId, emulatorPerTest, primaryEndpoint, TestClient, type Body } from "./test-client";

/** What the service refuses or overrides by plan and size, and computes of protected branches. */
describe("plans, sizes and protected branches", () => {
  let em: Emulator;
  let c: TestClient;
  let pid: string;
  let dev: string;
  const boot = emulatorPerTest({ operationDurationMs: 0 });
  const start = async (options: EmulatorOptions = {}): Promise<void> => {
    ({ em, c, pid } = await boot(options));
    dev = await branchId(c, pid, "dev");
  };
  const create = (endpoint: Record<string, unknown>) =>
    c.post(`/projects/${pid}/endpoints`, { endpoint: { branch_id: dev, type: "read_only", ...endpoint } });
  const sizes = (min: number, max = min) => ({ autoscaling_limit_min_cu: min, autoscaling_limit_max_cu: max });

  it("a compute above 16 CU is always active: the service reports suspend_timeout_seconds -1", async () => {
    await start();
    const big = await create({ ...sizes(18), suspend_timeout_seconds: 300 });
    expect(big.status).toBe(201);
    expect(big.body.endpoint.suspend_timeout_seconds).toBe(-1);
    const ep = await primaryEndpoint(c, pid);
    const grown = await c.patch(`/projects/${pid}/endpoints/${ep.id}`, { endpoint: sizes(20) });
    expect(grown.body.endpoint.suspend_timeout_seconds).toBe(-1);
    em.clock.advance(7 * 24 * 3600 * 1000);
    expect((await c.get(`/projects/${pid}/endpoints/${big.body.endpoint.id}`)).body.endpoint.current_state).toBe(
      "active",
    );
    expect((await create({ ...sizes(16), suspend_timeout_seconds: 300 })).body.endpoint.suspend_timeout_seconds).toBe(
      300,
    );
  });

  it("Free plan: sizes up to 2 CU (autoscaling included); above is 400 naming the field and the limit", async () => {
    await start({ plan: "free" });
    expect((await create(sizes(0.25, 2))).status).toBe(201);
    for (const [body, field] of [
      [sizes(4), "autoscaling_limit_min_cu"],
      [sizes(1, 3), "autoscaling_limit_max_cu"],
    ] as const) {
      const res = await create(body);
      expect(res.status).toBe(400);
      expect(res.body.message).toContain(`endpoint.${field}`);
      expect(res.body.message).toContain("Free plan's limit of 2 CU");
    }
    const ep = await primaryEndpoint(c, pid);
    const patch = await c.patch(`/projects/${pid}/endpoints/${ep.id}`, { endpoint: sizes(3) });
    expect(patch.status).toBe(400);
    const branch = await c.post(`/projects/${pid}/branches`, { endpoints: [{ type: "read_write", ...sizes(8) }] });
    expect([branch.status, branch.body.message]).toEqual([400, expect.stringContaining("endpoints[0]")]);
  });

  it("Free plan: the autosuspend delay is fixed: the service resets suspend_timeout_seconds to 0", async () => {
    await start({ plan: "free" });
    const made = await create({ suspend_timeout_seconds: 3600 });
    expect([made.status, made.body.endpoint.suspend_timeout_seconds]).toEqual([201, 0]);
    const ep = await primaryEndpoint(c, pid);
    const patched = await c.patch(`/projects/${pid}/endpoints/${ep.id}`, { endpoint: { suspend_timeout_seconds: -1 } });
    expect([patched.status, patched.body.endpoint.suspend_timeout_seconds]).toEqual([200, 0]);
    const paid = em.createAccount();
    const pc = new TestClient(em.baseUrl, paid.apiKey);
    const pdev = await branchId(pc, paid.projectId, "dev");
    const big = await pc.post(`/projects/${paid.projectId}/endpoints`, {
      endpoint: { branch_id: pdev, type: "read_only", ...sizes(8), suspend_timeout_seconds: 3600 },
    });
    expect([big.status, big.body.endpoint.suspend_timeout_seconds]).toEqual([201, 3600]);
    pc.close();
    const free = em.createAccount({ plan: "free" });
    const fc = new TestClient(em.baseUrl, free.apiKey);
    const fdev = await branchId(fc, free.projectId, "dev");
    const body = { endpoint: { branch_id: fdev, type: "read_only", ...sizes(4) } };
    expect((await fc.post(`/projects/${free.projectId}/endpoints`, body)).status).toBe(400);
    fc.close();
  });

  it("a compute of a protected branch cannot be deleted (422 naming the branch); branch create accepts protected", async () => {
    const fixture = {
      accounts: [
        { projects: [{ branches: [{ name: "main", protected: true, endpoints: [{ type: "read_write" as const }] }] }] },
      ],
    };
    const stateFile = join(mkdtempSync(join(tmpdir(), "neon-emu-")), "s.json");
    ({ em, c, pid } = await boot({ fixture, stateFile, operationDurationMs: 1000 }));
    const ep = await primaryEndpoint(c, pid);
    const refused = await c.del(`/projects/${pid}/endpoints/${ep.id}`);
    expect(refused.status).toBe(422);
    expect(refused.body.message).toContain(`branch main (${ep.branch_id}) is protected`);
    expect((await c.get(`/projects/${pid}/endpoints/${ep.id}`)).status).toBe(200);
    const made = await c.post(`/projects/${pid}/branches`, {
      branch: { name: "guarded", protected: true },
      endpoints: [{ type: "read_write" }],
    });
    expect(made.body.branch.protected).toBe(true);
    const bad = await c.post(`/projects/${pid}/branches`, { branch: { protected: "yes" } });
    expect([bad.status, bad.body.message]).toEqual([400, expect.stringContaining("branch.protected")]);
    c.close();
    await em.close();
    ({ em, c } = await boot({ stateFile })); // the flag survives a restart
    const branches = (await c.get(`/projects/${pid}/branches`)).body.branches as Body[];
    expect(branches.filter((b) => b.protected).map((b) => b.name)).toEqual(["guarded", "main"]); // updated_at, desc
    expect((await c.del(`/projects/${pid}/endpoints/${ep.id}`)).status).toBe(422);
  });

  it("a deleted compute's id answers 204 to a delete after a restart from the state file, in any project", async () => {
    const stateFile = join(mkdtempSync(join(tmpdir(), "neon-emu-")), "s.json");
    await start({ stateFile });
    const ep = await primaryEndpoint(c, pid);
    expect((await c.del(`/projects/${pid}/endpoints/${ep.id}`)).status).toBe(200);
    c.close();
    await em.close();
    await start({ stateFile });
    expect((await c.del(`/projects/${pid}/endpoints/${ep.id}`)).status).toBe(204);
    const other = em.createAccount();
    const oc = new TestClient(em.baseUrl, other.apiKey);
    expect((await oc.del(`/projects/${other.projectId}/endpoints/${ep.id}`)).status).toBe(204);
    oc.close();
  });
});
