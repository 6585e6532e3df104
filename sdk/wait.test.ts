import { NeonError } from "./errors";
import { Operation } from "./schemas";
import { DEFAULT_WAIT_POLICY, isDone, isFailed, nextIntervalMs, waitForOperations } from "./wait";

function op(id: string, status: string, extra: Partial<Operation> = {}): Operation {
  const at = "2024-01-01T00:00:00Z";
  return {
    id,
    project_id: "p",
    action: "start_compute",
    status,
    failures_count: 0,
    created_at: at,
    updated_at: at,
    total_duration_ms: 0,
    endpoint_id: "ep-1",
    ...extra,
  };
}

/** A fake reader that plays a script of statuses per operation and counts polls. */
function scripted(script: Record<string, string[]>, extra: Partial<Operation> = {}) {
  const polls: string[] = [];
  const reader = {
    operations: {
      get: async (_p: string, id: string) => {
        polls.push(id);
        const statuses = script[id];
        return op(id, statuses.length > 1 ? statuses.shift()! : statuses[0], extra);
      },
    },
  };
  return { reader, polls };
}

const fast = { initialIntervalMs: 1, maxIntervalMs: 4, timeoutMs: 2000 };

describe("waitForOperations", () => {
  it("polls until every operation is finished or skipped, and returns the final records", async () => {
    const { reader, polls } = scripted({ a: ["running", "finished"], b: ["scheduling", "running", "skipped"] });
    const result = await waitForOperations(reader, "p", [op("a", "running"), op("b", "scheduling")], fast);
    expect(result.map((o) => o.status)).toEqual(["finished", "skipped"]);
    expect(polls.filter((id) => id === "b")).toHaveLength(3);
  });
  it("does not poll operations that are already done", async () => {
    const { reader, polls } = scripted({});
    await waitForOperations(reader, "p", [op("a", "finished")], fast);
    expect(polls).toEqual([]);
  });
  it("keeps waiting through unknown statuses", async () => {
    const { reader } = scripted({ a: ["pondering", "finished"] });
    await expect(waitForOperations(reader, "p", [op("a", "running")], fast)).resolves.toHaveLength(1);
  });
  it.each(["failed", "error", "cancelled"])("a %s operation rejects with its id, action and error", async (status) => {
    const { reader } = scripted({ a: ["running", status] }, { error: "compute failed to start" });
    const run = waitForOperations(reader, "p", [op("a", "running")], fast);
    await expect(run).rejects.toMatchObject({
      kind: "operation_failed",
      operation: { id: "a", action: "start_compute", status, error: "compute failed to start" },
      resourceId: "ep-1",
    });
    await expect(run).rejects.toThrow(`operation start_compute a ended ${status}: compute failed to start`);
  });
  it("times out naming what is still pending", async () => {
    const { reader } = scripted({ a: ["running"] });
    const run = waitForOperations(reader, "p", [op("a", "running")], { ...fast, timeoutMs: 30 });
    await expect(run).rejects.toMatchObject({ kind: "wait_timeout", operation: { id: "a", status: "running" } });
    await expect(run).rejects.toThrow(/still pending: start_compute a \(running\)/);
  });
  it("is cancelled by its signal", async () => {
    const { reader } = scripted({ a: ["running"] });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const run = waitForOperations(reader, "p", [op("a", "running")], { ...fast, signal: controller.signal });
    await expect(run).rejects.toBeInstanceOf(NeonError);
    await expect(run).rejects.toMatchObject({ kind: "cancelled" });
  });
});

describe("poll interval", () => {
  it("starts short and grows by 1.5 to the cap", () => {
    const intervals = [DEFAULT_WAIT_POLICY.initialIntervalMs];
    while (intervals.length < 12) intervals.push(nextIntervalMs(intervals[intervals.length - 1], DEFAULT_WAIT_POLICY));
    expect(intervals.slice(0, 4)).toEqual([100, 150, 225, 338]);
    expect(Math.max(...intervals)).toBe(2000);
  });
  it("classifies statuses", () => {
    expect(["finished", "skipped"].every((s) => isDone({ status: s }))).toBe(true);
    expect(["failed", "error", "cancelled"].every((s) => isFailed({ status: s }))).toBe(true);
    expect(
      ["running", "scheduling", "cancelling", "new"].some((s) => isDone({ status: s }) || isFailed({ status: s })),
    ).toBe(false);
  });
});
