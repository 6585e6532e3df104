/**
 * No 423 storms: many computes of one project changed in parallel go one at a time, each after the previous
 * operations finished (guards the peers' "project locked" failures in CI). And operations that fail or stick
 * end in clear errors instead of success or an endless poll.
 */
import { Emulator } from "../emulator";
import { NeonClient } from "./client";
import { clientFor, rejection, start } from "./testing.test.helpers";

describe("ten computes created in parallel in one project", () => {
  let emu: Emulator;
  let client: NeonClient;
  beforeAll(async () => {
    emu = await start();
    client = clientFor(emu);
  });
  afterAll(() => emu.close());

  it("all succeed with zero 423 responses", async () => {
    const projectId = emu.projectId;
    const branches = await Promise.all(
      Array.from({ length: 10 }, (_, i) => client.branches.create(projectId, { name: `parallel-${i}` })),
    );
    // a second client of the same account in the process shares the project's lock
    const other = clientFor(emu);
    const created = await Promise.all(
      branches.map((b, i) =>
        (i % 2 ? other : client).endpoints.create(projectId, { branch_id: b.branch.id, type: "read_write" }),
      ),
    );
    expect(created).toHaveLength(10);
    expect(new Set(created.map((c) => c.endpoint.id)).size).toBe(10);
    expect(created.every((c) => c.operations.every((op) => op.status === "finished"))).toBe(true);

    await Promise.all(
      created.map((c) => client.endpoints.update(projectId, c.endpoint.id, { autoscaling_limit_max_cu: 2 })),
    );
    await Promise.all(created.map((c) => client.endpoints.restart(projectId, c.endpoint.id)));
    // each delete returns a running suspend_compute that locks the project: deletes wait for it, one at a time
    const deleted = await Promise.all(created.map((c) => client.endpoints.delete(projectId, c.endpoint.id)));
    expect(deleted.map((d) => d.operations.map((o) => `${o.action}:${o.status}`))).toEqual(
      Array(10).fill(["suspend_compute:finished"]),
    );
    expect(emu.requests.filter((r) => r.method === "DELETE").map((r) => r.status)).toEqual(Array(10).fill(200));

    expect(emu.stats().byStatus["423"] ?? 0).toBe(0);
    expect(emu.requests.filter((r) => r.status === 423)).toEqual([]);
  });

  it("read-only computes on one branch in parallel: zero 423", async () => {
    const projectId = emu.projectId;
    const main = (await client.branches.list(projectId)).find((b) => b.name === "main")!;
    const created = await Promise.all(
      Array.from({ length: 10 }, () => client.endpoints.create(projectId, { branch_id: main.id, type: "read_only" })),
    );
    expect(created).toHaveLength(10);
    expect(emu.stats().byStatus["423"] ?? 0).toBe(0);
  });
});

describe("operations that fail or never finish", () => {
  let emu: Emulator;
  beforeEach(async () => {
    emu = await start();
  });
  afterEach(() => emu.close());

  async function devBranch(client: NeonClient): Promise<string> {
    return (await client.branches.list(emu.projectId)).find((b) => b.name === "dev")!.id;
  }

  it("a failed start is operation_failed with the action, message and the compute's id", async () => {
    const client = clientFor(emu);
    const branchId = await devBranch(client);
    emu.operations.failNext({ action: "start_compute", error: "compute failed to start: out of capacity" });
    const error = await rejection(client.endpoints.create(emu.projectId, { branch_id: branchId, type: "read_write" }));
    expect(error).toMatchObject({
      kind: "operation_failed",
      operation: { action: "start_compute", status: "failed", error: "compute failed to start: out of capacity" },
    });
    expect(error.message).toContain("start_compute");
    expect(error.message).toContain("out of capacity");
    const [compute] = await client.endpoints.listForBranch(emu.projectId, branchId);
    expect(error.resourceId).toBe(compute.id);
  });

  it("a failed operation the service retries is waited through: the change resolves once it finishes", async () => {
    const client = clientFor(emu);
    const branchId = await devBranch(client);
    emu.operations.failNext({ action: "start_compute", status: "failed", retries: 2, error: "no capacity yet" });
    const { operations } = await client.endpoints.create(emu.projectId, { branch_id: branchId, type: "read_write" });
    expect(operations).toMatchObject([{ action: "start_compute", status: "finished", failures_count: 2 }]);
    const polls = emu.requests.filter((r) => r.path.includes("/operations/")).length;
    expect(polls).toBeGreaterThan(1);
  });

  it.each(["error", "cancelled"] as const)(
    "an operation that ends %s is operation_failed at once, naming action, id and error",
    async (status) => {
      const client = clientFor(emu);
      const branchId = await devBranch(client);
      emu.operations.failNext({ action: "start_compute", status, error: `injected ${status}` });
      const error = await rejection(
        client.endpoints.create(emu.projectId, { branch_id: branchId, type: "read_write" }),
      );
      expect(error).toMatchObject({ kind: "operation_failed", operation: { action: "start_compute", status } });
      const id = (error.operation as { id: string }).id;
      const suffix = `(id: ${String(error.resourceId)})`;
      expect(error.message).toBe(`operation start_compute ${id} ended ${status}: injected ${status} ${suffix}`);
    },
  );

  it("a failed operation retried beyond the wait's budget ends wait_timeout naming its failures and error", async () => {
    // A budget many times the operation's 20 ms, so that a busy machine still sees it fail before the budget ends.
    const client = clientFor(emu, { wait: { timeoutMs: 1_500, initialIntervalMs: 5, maxIntervalMs: 25 } });
    const branchId = await devBranch(client);
    emu.operations.failNext({ action: "start_compute", retries: Infinity, error: "zone unavailable" });
    const error = await rejection(client.endpoints.create(emu.projectId, { branch_id: branchId, type: "read_write" }));
    // The budget may end while a retry runs (the service shows `running` again) or between two (`failed`): either way
    // the message names the failures and their error (a busy machine's polls fall anywhere in the cycle).
    expect(error).toMatchObject({ kind: "wait_timeout", operation: { action: "start_compute" } });
    expect(["failed", "running"]).toContain((error.operation as { status?: string }).status);
    expect(error.message).toMatch(
      /still pending: start_compute \S+ \((failed \d+ times, next retry at .+|running again after \d+ failures): zone unavailable\)/,
    );
  });

  it("a stuck operation ends in wait_timeout naming what is pending, with the compute's id", async () => {
    const client = clientFor(emu, { wait: { timeoutMs: 300, initialIntervalMs: 5, maxIntervalMs: 25 } });
    const branchId = await devBranch(client);
    emu.operations.stickNext({ action: "start_compute" });
    const error = await rejection(client.endpoints.create(emu.projectId, { branch_id: branchId, type: "read_write" }));
    expect(error).toMatchObject({ kind: "wait_timeout", operation: { action: "start_compute" } });
    expect(error.message).toMatch(/still pending: start_compute/);
    const [compute] = await client.endpoints.listForBranch(emu.projectId, branchId);
    expect(error.resourceId).toBe(compute.id);
  });

  it("cancellation by signal ends the wait", async () => {
    const controller = new AbortController();
    const client = clientFor(emu, { signal: controller.signal });
    const branchId = await devBranch(client);
    emu.operations.stickNext({ action: "start_compute" });
    setTimeout(() => controller.abort(), 200);
    const error = await rejection(client.endpoints.create(emu.projectId, { branch_id: branchId, type: "read_write" }));
    expect(error.kind).toBe("cancelled");
  });
});
