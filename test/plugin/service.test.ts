/**
 * The provider against the service as it really behaves (the emulator's defaults follow it; sources in
 * emulator/README.md): plan limits answered by the service, a value the plan overrides, deprecated pooler fields
 * gone from responses, fields the provider only copies left out, a protected branch, a branch not ready yet, a restart
 * refused because the compute went idle, operations that fail and are retried, or end in error, cancelled or skipped,
 * a retried failure that outlasts neon:waitTimeoutSeconds, and a create whose outcome a 524 left unknown.
 */
import axios from "axios";
import { Compute, ComputeArgs } from "../../provider";
import { NeonClient } from "../../client";
import { rewritingProxy } from "../../client/testing.test.helpers";
import { LocalStack } from "../../testing";
import { neonWorld, NeonWorld, ok, ops, outputs, requests, writes } from "./world";

let world: NeonWorld;
beforeAll(async () => {
  world = await neonWorld({ emulator: { branchReadyDelayMs: 4000 } });
});
afterAll(() => world.stop());

function computeStack(args: () => Partial<ComputeArgs> & { branchId: string }, options = {}): LocalStack {
  return world.stack(
    () => ({ id: new Compute("db", { projectId: world.projectId, type: "read_only", ...args() }).id }),
    options,
  );
}

describe("an account on the Free plan", () => {
  let free: { apiKey: string; projectId: string; branch: string; staging: string };
  beforeAll(async () => {
    const account = world.emulator.createAccount({ plan: "free" });
    const api = new NeonClient({ apiKey: account.apiKey, apiUrl: world.emulator.baseUrl, rateLimit: false });
    const branches = await api.branches.list(account.projectId);
    const branch = branches.find((b) => b.name === "dev")!.id;
    const staging = branches.find((b) => b.name === "staging")!.id;
    free = { apiKey: account.apiKey, projectId: account.projectId, branch, staging };
  });

  const freeStack = (args: Partial<ComputeArgs> | (() => Partial<ComputeArgs>)) =>
    world.stack(
      () => ({
        id: new Compute("db", {
          projectId: free.projectId,
          branchId: free.branch,
          type: "read_only",
          ...(typeof args === "function" ? args() : args),
        }).id,
      }),
      { config: { "neon:apiKey": { secret: free.apiKey } } },
    );

  it("a size the plan does not allow fails with the service's error, naming the property and the limit", async () => {
    const stack = freeStack({ autoscalingLimitMinCu: 4, autoscalingLimitMaxCu: 4 });
    const up = await stack.up({ skipPreview: true });
    expect(up.error?.message).toMatch(/HTTP 400: .*autoscaling_limit_(min|max)_cu.*Free plan.*2 CU/);
    expect(writes(up)).toEqual([`POST /projects/${free.projectId}/endpoints`]);
    expect(stack.state.resources.some((r) => r.urn.endsWith("::db"))).toBe(false);
  });

  it("a move refused for the size sent with it fails with the service's error alone, not advice about moving", async () => {
    let args: Partial<ComputeArgs> = { autoscalingLimitMinCu: 1, autoscalingLimitMaxCu: 1 };
    const stack = freeStack(() => args);
    ok(await stack.up({ skipPreview: true }));
    const id = String(outputs(stack).id);
    args = { branchId: free.staging, autoscalingLimitMinCu: 4, autoscalingLimitMaxCu: 4 };
    const up = await stack.up({ skipPreview: true });
    expect(up.error?.message).toMatch(/^HTTP 400: .*autoscaling_limit_(min|max)_cu.*Free plan.*2 CU/);
    expect(up.error?.message).not.toMatch(/did not move|deprecated|replace/);
    expect(writes(up)).toEqual([`PATCH /projects/${free.projectId}/endpoints/${id}`]);
    args = {};
    ok(await stack.destroy({ skipPreview: true }));
  });

  it("an autosuspend delay the plan resets is reported once, and the next up asks nothing", async () => {
    const stack = freeStack({ suspendTimeoutSeconds: 600 });
    const up = ok(await stack.up({ skipPreview: true }));
    expect(up.warnings.join("\n")).toMatch(
      /the service kept suspendTimeoutSeconds at 0 instead of the value the program asks for/,
    );
    const again = ok(await stack.up());
    expect(again.requests).toEqual([]);
    expect(again.warnings).toEqual([]);
    ok(await stack.destroy({ skipPreview: true }));
  });
});

describe("deprecated pooler fields (absent from responses: their removal was scheduled for 2026-06-20)", () => {
  it("are still sent, warned about, and make no permanent diff", async () => {
    const stack = computeStack(() => ({
      branchId: world.branches.staging,
      poolerEnabled: true,
      poolerMode: "transaction",
    }));
    const up = ok(await stack.up());
    expect(up.preview?.diagnostics.map((d) => d.message).join("\n")).toContain(
      "poolerEnabled and poolerMode are deprecated",
    );
    expect(outputs(stack).id).toMatch(/^ep-/);
    const again = ok(await stack.up());
    expect(ops(again)).toEqual(["same db"]);
    expect(again.requests).toEqual([]);
    ok(await stack.destroy({ skipPreview: true }));
  });
});

describe("a service that leaves out the fields the provider only copies (settings, disabled, created_at, …)", () => {
  it("creates, refreshes and then plans nothing: the declared values are kept, absent outputs stay absent", async () => {
    const dropped = ["settings", "disabled", "created_at", "passwordless_access", "provisioner"];
    const strip = (e: Record<string, unknown>) =>
      Object.fromEntries(Object.entries(e).filter(([k]) => !dropped.includes(k)));
    const proxy = await rewritingProxy(world.emulator, (_method, _path, body) => {
      const b = body as Record<string, unknown>;
      if (b.endpoint) return { ...b, endpoint: strip(b.endpoint as Record<string, unknown>) };
      if (Array.isArray(b.endpoints)) return { ...b, endpoints: b.endpoints.map(strip) };
      return body;
    });
    try {
      const stack = computeStack(
        () => ({
          branchId: world.branches.staging,
          disabled: false,
          pgSettings: { work_mem: "64MB" },
          passwordlessAccess: true,
          provisioner: "k8s-neonvm",
        }),
        { config: { "neon:apiUrl": proxy.baseUrl } },
      );
      ok(await stack.up({ skipPreview: true }));
      const id = String(outputs(stack).id);
      expect((await world.api.endpoints.get(world.projectId, id)).settings?.pg_settings).toEqual({ work_mem: "64MB" });
      ok(await stack.refresh());
      const stored = stack.state.resources.find((r) => r.urn.endsWith("::db"));
      expect(stored?.outputs).toMatchObject({
        disabled: false,
        pgSettings: { work_mem: "64MB" },
        passwordlessAccess: true,
        provisioner: "k8s-neonvm",
      });
      expect(stored?.outputs).not.toHaveProperty("createdAt");
      const again = ok(await stack.up());
      expect(ops(again)).toEqual(["same db"]);
      expect(again.requests).toEqual([]);
      ok(await stack.destroy({ skipPreview: true }));
    } finally {
      await proxy.close();
    }
  });
});

describe("a protected branch", () => {
  it("a compute on it cannot be destroyed: the error names the branch and how to let the compute go", async () => {
    const api = new NeonClient({ apiKey: world.emulator.apiKey, apiUrl: world.emulator.baseUrl, rateLimit: false });
    const { branch } = await api.branches.create(world.projectId, { name: "guarded", protected: true } as never);
    const stack = computeStack(() => ({ branchId: branch.id }));
    ok(await stack.up({ skipPreview: true }));
    const destroy = await stack.destroy({ skipPreview: true });
    expect(destroy.error?.message).toContain(`unprotect branch ${branch.id}`);
    expect(destroy.error?.message).toContain("retainOnDelete: true");
    expect(stack.state.resources.some((r) => r.urn.endsWith("::db"))).toBe(true);
  });
});

describe("a branch created a moment ago", () => {
  it("a compute on it waits until the service has the branch ready (422 branch not ready yet, retried)", async () => {
    // The service's clock stands still until the compute's create has met the 422: on a busy machine a running clock
    // could make the branch ready before the program's create reached it, and the test would prove nothing.
    const still = await neonWorld({ emulator: { branchReadyDelayMs: 4000, manualClock: true } });
    const metNotReady = () =>
      still.emulator.requests.some((r) => r.method === "POST" && r.path.endsWith("/endpoints") && r.status === 422);
    const clock = setInterval(() => metNotReady() && still.emulator.clock.advance(5_000), 50);
    try {
      const created = await axios.post(
        `${still.emulator.baseUrl}/projects/${still.projectId}/branches`,
        { branch: { name: "fresh" } },
        { headers: { Authorization: `Bearer ${still.emulator.apiKey}` } },
      );
      const program = () => ({
        id: new Compute("db", { projectId: still.projectId, type: "read_only", branchId: created.data.branch.id }).id,
      });
      const up = ok(await still.stack(program).up({ skipPreview: true }));
      const creates = requests(up).filter((r) => r.method === "POST" && r.path.endsWith("/endpoints"));
      expect(creates.some((r) => r.status === 422)).toBe(true);
      expect(creates[creates.length - 1].status).toBe(201);
    } finally {
      clearInterval(clock);
      await still.stop();
    }
  });
});

describe("operations", () => {
  let stack: LocalStack;
  let trigger = "v1";
  beforeAll(() => {
    stack = computeStack(() => ({ branchId: world.branches.dev, restartTriggers: [trigger] }));
  });
  afterAll(() => stack.destroy({ skipPreview: true }));

  it("a start that fails and is retried by the service is waited through", async () => {
    world.emulator.operations.failNext({ action: "start_compute", status: "failed", retries: 2 });
    const up = ok(await stack.up({ skipPreview: true }));
    expect(ops(up)).toEqual(["create db"]);
    expect((await world.api.endpoints.get(world.projectId, String(outputs(stack).id))).current_state).toBe("active");
  });

  it("a restart refused because the compute went idle meanwhile is no failure: the trigger is recorded", async () => {
    const id = String(outputs(stack).id);
    world.emulator.faults.add({ method: "POST", path: "/restart", kind: "slow", delayMs: 1500, times: 1 });
    trigger = "v2";
    const mark = world.emulator.requests.length;
    const running = stack.up({ skipPreview: true });
    const read = () =>
      world.emulator.requests.slice(mark).some((r) => r.method === "GET" && r.path.endsWith(`/endpoints/${id}`));
    await until(read);
    await world.api.endpoints.suspend(world.projectId, id);
    const up = ok(await running);
    expect(requests(up).find((r) => r.path.endsWith("/restart"))?.status).toBe(422);
    expect(stack.state.resources.find((r) => r.urn.endsWith("::db"))?.outputs.restartTriggers).toEqual(["v2"]);
    expect((await stack.up()).requests).toEqual([]);
  });

  it("an operation that ends in error fails the step at once, naming it, and keeps the compute in state", async () => {
    await world.api.endpoints.start(world.projectId, String(outputs(stack).id));
    world.emulator.operations.failNext({ action: "start_compute", status: "error", error: "out of capacity" });
    trigger = "v3";
    const up = await stack.up({ skipPreview: true });
    expect(up.error?.message).toMatch(/start_compute .* ended error: out of capacity/);
    expect(stack.state.resources.some((r) => r.urn.endsWith("::db"))).toBe(true);
  });
});

describe("operations ending otherwise, and a create's lost outcome, end to end", () => {
  const replicaOnMain = (options = {}) => computeStack(() => ({ branchId: world.branches.main }), options);
  const held = (stack: LocalStack) => stack.state.resources.find((r) => r.urn.endsWith("::db"));
  const computesOnMain = async () =>
    (await world.api.endpoints.listForBranch(world.projectId, world.branches.main))
      .filter((c) => c.type === "read_only")
      .map((c) => c.id);

  it("a create whose start_compute is cancelled fails at once naming action, id and error; the compute is kept", async () => {
    const stack = replicaOnMain();
    world.emulator.operations.failNext({ action: "start_compute", status: "cancelled", error: "cancelled by a test" });
    const up = await stack.up({ skipPreview: true });
    expect(up.error?.message).toMatch(
      /^(ep-[a-z0-9-]+) exists but is not ready: operation start_compute [0-9a-f-]{36} ended cancelled: cancelled by a test/,
    );
    const id = held(stack)?.id;
    expect(up.error?.message.startsWith(`${id} `)).toBe(true);
    expect(await computesOnMain()).toEqual([id]);
    ok(await stack.destroy({ skipPreview: true }));
  });

  it("a create whose start_compute is skipped counts as done: the up succeeds and the next one plans nothing", async () => {
    const stack = replicaOnMain();
    world.emulator.operations.skipNext({ action: "start_compute" });
    const up = ok(await stack.up({ skipPreview: true }));
    const id = String(outputs(stack).id);
    const operations = await world.api.operations.list(world.projectId);
    expect(operations.find((o) => o.endpoint_id === id && o.action === "start_compute")?.status).toBe("skipped");
    expect(ops(up)).toEqual(["create db"]);
    expect(ok(await stack.up()).requests).toEqual([]);
    ok(await stack.destroy({ skipPreview: true }));
  });

  it("a failed start the service keeps retrying fails at neon:waitTimeoutSeconds with the budget message; the compute is kept", async () => {
    // A world of its own: attempts of 500 ms, so the wait's last poll (at 1.5 s) meets the second failure, shown
    // with its retry; the operation never ends and keeps its project locked (423), as on the service.
    const slow = await neonWorld({ emulator: { operationDurationMs: 500 } });
    try {
      const stack = slow.stack(
        () => ({
          id: new Compute("db", { projectId: slow.projectId, branchId: slow.branches.dev, type: "read_only" }).id,
        }),
        { config: { "neon:waitTimeoutSeconds": "1.5" } },
      );
      const error = "compute unavailable";
      slow.emulator.operations.failNext({ action: "start_compute", status: "failed", retries: Infinity, error });
      const up = await stack.up({ skipPreview: true });
      const message = up.error?.message ?? "";
      expect(message).toMatch(/exists but is not ready: timed out after 1500 ms waiting for operations of project /);
      expect(message).toMatch(/still pending: start_compute [0-9a-f-]{36} \(failed 2 times, next retry at \S+: /);
      expect(message).toContain(error);
      expect(message).not.toMatch(/ended failed/);
      const id = held(stack)?.id;
      expect(id).toMatch(/^ep-/);
      expect((await slow.api.endpoints.listForBranch(slow.projectId, slow.branches.dev)).map((c) => c.id)).toEqual([
        id,
      ]);
    } finally {
      await slow.stop();
    }
  });

  it("a create answered 524 (outcome unknown) is settled by reading: one compute, held in state, no orphan", async () => {
    const stack = replicaOnMain();
    world.emulator.faults.add({ method: "POST", path: "/endpoints", kind: "524", times: 1 });
    const up = ok(await stack.up({ skipPreview: true }));
    const creates = requests(up).filter((r) => r.method === "POST" && r.path.endsWith("/endpoints"));
    expect(creates.map((r) => r.status)).toEqual([524]);
    const id = String(outputs(stack).id);
    expect(await computesOnMain()).toEqual([id]);
    expect(ok(await stack.up()).requests).toEqual([]);
    ok(await stack.destroy({ skipPreview: true }));
    expect(await computesOnMain()).toEqual([]);
  });
});

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
