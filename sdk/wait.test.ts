import { NeonError } from "./errors";
import { Operation } from "./schemas";
import {
  DEFAULT_WAIT_POLICY,
  DurationModel,
  isDone,
  isFailed,
  nextIntervalMs,
  PollSchedule,
  shapeOf,
  waitForOperations,
} from "./wait";

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

// each test learns in its own model: the process-wide one would carry durations from test to test
const fast = () => ({ initialIntervalMs: 1, maxIntervalMs: 4, timeoutMs: 2000, model: new DurationModel() });

describe("waitForOperations", () => {
  it("polls until every operation is finished or skipped, and returns the final records", async () => {
    const { reader, polls } = scripted({ a: ["running", "finished"], b: ["scheduling", "running", "skipped"] });
    const result = await waitForOperations(reader, "p", [op("a", "running"), op("b", "scheduling")], fast());
    expect(result.map((o) => o.status)).toEqual(["finished", "skipped"]);
    expect(polls.filter((id) => id === "b")).toHaveLength(3);
  });
  it("does not poll operations that are already done", async () => {
    const { reader, polls } = scripted({});
    await waitForOperations(reader, "p", [op("a", "finished")], fast());
    expect(polls).toEqual([]);
  });
  it("keeps waiting through unknown statuses", async () => {
    const { reader } = scripted({ a: ["pondering", "finished"] });
    await expect(waitForOperations(reader, "p", [op("a", "running")], fast())).resolves.toHaveLength(1);
  });
  it.each(["failed", "error", "cancelled"])("a %s operation rejects with its id, action and error", async (status) => {
    const { reader } = scripted({ a: ["running", status] }, { error: "compute failed to start" });
    const run = waitForOperations(reader, "p", [op("a", "running")], fast());
    await expect(run).rejects.toMatchObject({
      kind: "operation_failed",
      operation: { id: "a", action: "start_compute", status, error: "compute failed to start" },
      resourceId: "ep-1",
    });
    await expect(run).rejects.toThrow(`operation start_compute a ended ${status}: compute failed to start`);
  });
  it("times out naming what is still pending", async () => {
    const { reader } = scripted({ a: ["running"] });
    const run = waitForOperations(reader, "p", [op("a", "running")], { ...fast(), timeoutMs: 30 });
    await expect(run).rejects.toMatchObject({ kind: "wait_timeout", operation: { id: "a", status: "running" } });
    await expect(run).rejects.toThrow(/still pending: start_compute a \(running\)/);
  });
  it("is cancelled by its signal", async () => {
    const { reader } = scripted({ a: ["running"] });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 20);
    const run = waitForOperations(reader, "p", [op("a", "running")], { ...fast(), signal: controller.signal });
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

describe("learned durations (DurationModel)", () => {
  const policy = { ...DEFAULT_WAIT_POLICY, minIntervalMs: 5 };

  it("knows nothing of a kind never seen, then expects the first wait's bracket middle", () => {
    const model = new DurationModel();
    expect(model.expectedMs("start_compute:running")).toBeUndefined();
    model.observe("start_compute:running", { pendingAtMs: 100, doneAtMs: 300 });
    expect(model.expectedMs("start_compute:running")).toBe(200);
    expect(model.knownDoneMs("start_compute:running")).toBe(300);
  });
  it("bisects down to the real duration; early polls (probes) stay rare", () => {
    const model = new DurationModel();
    const real = 243;
    model.observe("k", { pendingAtMs: 100, doneAtMs: 300 });
    let early = 0;
    for (let i = 0; i < 30; i++) {
      const expected = model.expectedMs("k")!;
      const done = expected >= real;
      if (!done) early += 1;
      model.observe(
        "k",
        done
          ? { expectedMs: expected, pendingAtMs: 0, doneAtMs: expected }
          : { expectedMs: expected, pendingAtMs: expected, doneAtMs: model.knownDoneMs("k")! },
      );
    }
    expect(model.knownDoneMs("k")).toBeGreaterThanOrEqual(real);
    expect(model.knownDoneMs("k")).toBeLessThanOrEqual(real * 1.04);
    expect(early).toBeLessThan(10);
  });
  it("one stuck operation at most doubles the expectation (later waits do not sleep long)", () => {
    const model = new DurationModel();
    model.observe("k", { pendingAtMs: 0, doneAtMs: 200 });
    model.observe("k", { expectedMs: 200, pendingAtMs: 60_000, doneAtMs: 60_100 });
    expect(model.knownDoneMs("k")).toBe(400);
  });
  it("notices a service that got faster (a done batch below the bracket)", () => {
    const model = new DurationModel();
    model.observe("k", { pendingAtMs: 990, doneAtMs: 1000 });
    model.observe("k", { expectedMs: 500, pendingAtMs: 0, doneAtMs: 500 });
    expect(model.knownDoneMs("k")).toBe(500);
    expect(model.expectedMs("k")).toBeLessThanOrEqual(500);
  });
  it("forgets the oldest kinds past its bound", () => {
    const model = new DurationModel(2);
    for (const k of ["a", "b", "c"]) model.observe(k, { pendingAtMs: 0, doneAtMs: 10 });
    expect(model.expectedMs("a")).toBeUndefined();
    expect(model.expectedMs("c")).toBeDefined();
  });
  it("names a batch by its actions and statuses", () => {
    const ops = [op("a", "running", { action: "apply_config" }), op("b", "scheduling", { action: "start_compute" })];
    expect(shapeOf(ops)).toBe("apply_config:running,start_compute:scheduling");
  });
  it("schedule: unknown kind = the classic growing intervals", () => {
    const s = new PollSchedule(policy);
    expect([0, 0, 0, 0].map(() => s.next(0))).toEqual([100, 150, 225, 338]);
  });
  it("schedule: known kind = the expectation, then until known done, then short growing intervals", () => {
    const s = new PollSchedule(policy, 400, 460);
    expect(s.next(0)).toBe(400);
    expect(s.next(420)).toBe(40);
    expect(s.next(470)).toBe(30);
    const late = new PollSchedule(policy, 400, 400);
    late.next(0);
    expect(late.next(430)).toBe(20); // a twentieth of the expectation when the known end has passed
  });
});

describe("waitForOperations with a model", () => {
  it("a second wait of the same kind polls once, at the learned time", async () => {
    const model = new DurationModel();
    const polls: number[] = [];
    const start = Date.now();
    const endsAt = new Map<string, number>();
    const reader = {
      operations: {
        get: async (_p: string, id: string) => {
          polls.push(Date.now() - start);
          return op(id, Date.now() >= endsAt.get(id)! ? "finished" : "running");
        },
      },
    };
    endsAt.set("a", Date.now() + 160);
    await waitForOperations(reader, "p", [op("a", "running")], { model });
    const coldPolls = polls.length;
    endsAt.set("b", Date.now() + 160);
    polls.length = 0;
    await waitForOperations(reader, "p", [op("b", "running")], { model });
    expect(coldPolls).toBeGreaterThan(1);
    expect(polls.length).toBeLessThanOrEqual(2);
  });
  it("reads a batch with one list request when the reader can list", async () => {
    const calls: string[] = [];
    const reader = {
      operations: {
        get: async (_p: string, id: string) => (calls.push(`get ${id}`), op(id, "finished")),
        list: async () => (calls.push("list"), [op("a", "finished"), op("b", "finished"), op("c", "finished")]),
      },
    };
    const ops = [op("a", "running"), op("b", "scheduling"), op("c", "scheduling")];
    const result = await waitForOperations(reader, "p", ops, fast());
    expect(calls).toEqual(["list"]);
    expect(result.map((o) => o.status)).toEqual(["finished", "finished", "finished"]);
  });
  it("falls back to get for an operation the list page does not show", async () => {
    const calls: string[] = [];
    const reader = {
      operations: {
        get: async (_p: string, id: string) => (calls.push(`get ${id}`), op(id, "finished")),
        list: async () => (calls.push("list"), [op("a", "finished")]),
      },
    };
    await waitForOperations(reader, "p", [op("a", "running"), op("b", "running")], fast());
    expect(calls).toEqual(["list", "get b"]);
  });
  it("a failed operation seen in the list rejects", async () => {
    const reader = {
      operations: {
        get: async (_p: string, id: string) => op(id, "running"),
        list: async () => [op("a", "failed", { error: "boom" }), op("b", "scheduling")],
      },
    };
    const run = waitForOperations(reader, "p", [op("a", "running"), op("b", "scheduling")], fast());
    await expect(run).rejects.toMatchObject({ kind: "operation_failed", operation: { id: "a", error: "boom" } });
  });
  it("a learned first poll never outlives the timeout", async () => {
    const model = new DurationModel();
    model.observe("start_compute:running", { pendingAtMs: 0, doneAtMs: 60_000 });
    const { reader } = scripted({ a: ["running"] });
    const run = waitForOperations(reader, "p", [op("a", "running")], { timeoutMs: 30, model });
    await expect(run).rejects.toMatchObject({ kind: "wait_timeout" });
  });
});

describe("scouting a kind of batch never seen finish", () => {
  /** Operations that finish `durationMs` after their wait started, on a real clock; counts polls per operation. */
  function timed(durationMs: number) {
    const started = new Map<string, number>();
    const polls: string[] = [];
    const reader = {
      operations: {
        get: async (_p: string, id: string) => {
          polls.push(id);
          const done = Date.now() - (started.get(id) ?? Date.now()) >= durationMs;
          return op(id, done ? "finished" : "running");
        },
      },
    };
    const begin = (id: string) => {
      started.set(id, Date.now());
      return op(id, "running");
    };
    return { reader, polls, begin };
  }

  it("costs the cold start once: waits that start beside the scout poll after it learned", async () => {
    const { reader, polls, begin } = timed(120);
    const model = new DurationModel();
    const policy = { initialIntervalMs: 20, factor: 1.5, maxIntervalMs: 1000, timeoutMs: 5000, model };
    const ids = ["a", "b", "c", "d", "e", "f"];
    await Promise.all(ids.map((id) => waitForOperations(reader, "p", [begin(id)], policy)));
    const scoutPolls = Math.max(...ids.map((id) => polls.filter((p) => p === id).length));
    const followerPolls = ids.map((id) => polls.filter((p) => p === id).length).sort((a, b) => a - b);
    expect(scoutPolls).toBeGreaterThan(2); // the scout searched for the end
    expect(followerPolls.slice(0, 5).every((n) => n <= 2)).toBe(true); // the others polled once, twice at most
  });

  it("a scout that fails still wakes the waits that follow it", async () => {
    const model = new DurationModel();
    const failing = { operations: { get: async () => op("x", "failed") } };
    const slowOk = scripted({ y: ["running", "finished"] });
    const policy = { initialIntervalMs: 5, maxIntervalMs: 50, timeoutMs: 2000, model };
    const scout = waitForOperations(failing, "p", [op("x", "running")], policy);
    const follower = waitForOperations(slowOk.reader, "p", [op("y", "running")], policy);
    await expect(scout).rejects.toMatchObject({ kind: "operation_failed" });
    await expect(follower).resolves.toHaveLength(1);
  });
});
