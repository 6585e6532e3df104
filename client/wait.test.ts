import { NeonError } from "./errors";
import { isDone, isFailed, isRetrying } from "./operation-status";
import { Operation } from "./schemas";
import {
  DEFAULT_WAIT_POLICY,
  DurationModel,
  nextIntervalMs,
  PollSchedule,
  shapeOf,
  waitForOperations,
  waitingLine,
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

describe("isFailed / isRetrying: a failed operation with a retry ahead is still going", () => {
  const at = "2026-11-23T10:00:00Z";
  const later = "2026-11-23T10:00:05Z";
  it.each([
    // [status, retry_at, updated_at, retrying, failed]
    ["failed", later, at, true, false],
    ["failed", later, undefined, true, false],
    ["failed", at, at, false, true], // retry_at not after the failure: no retry ahead
    ["failed", undefined, at, false, true],
    ["failed", "soon", at, false, true],
    ["error", later, at, false, true],
    ["cancelled", undefined, at, false, true],
    ["running", later, at, false, false],
    ["finished", undefined, at, false, false],
  ])("%s, retry_at %s, updated_at %s → retrying %s, failed %s", (status, retryAt, updatedAt, retrying, failed) => {
    const o = { status, retry_at: retryAt, updated_at: updatedAt };
    expect(isRetrying(o)).toBe(retrying);
    expect(isFailed(o)).toBe(failed);
  });
});

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

// Issue 19: a long operation was waited for in silence; the Pulumi log now says what is awaited, without spamming it.
describe("a wait that lasts says what it waits for", () => {
  it("after `afterMs`, then every `everyMs`, naming the operations still pending; nothing once it ended", async () => {
    const lines: string[] = [];
    const endsAt = Date.now() + 150;
    const reader = {
      operations: { get: async (_p: string, id: string) => op(id, Date.now() >= endsAt ? "finished" : "running") },
    };
    const progress = { say: (line: string) => lines.push(line), afterMs: 40, everyMs: 50 };
    await waitForOperations(reader, "p-1", [op("op-1", "running")], { ...fast(), progress });
    expect(lines.length).toBeGreaterThanOrEqual(1);
    expect(lines.length).toBeLessThanOrEqual(3);
    expect(lines[0]).toBe(
      "waiting for operations of project p-1 to finish: start_compute op-1 (running); 0 s so far, at most 2 s",
    );
    const count = lines.length;
    await new Promise((resolve) => setTimeout(resolve, 120));
    expect(lines.length).toBe(count);
  });

  it("a short wait says nothing", async () => {
    const lines: string[] = [];
    const { reader } = scripted({ a: ["running", "finished"] });
    await waitForOperations(reader, "p", [op("a", "running")], { ...fast(), progress: { say: (l) => lines.push(l) } });
    expect(lines).toEqual([]);
  });

  it("names a failed operation the service retries, with its failures", () => {
    const retried = op("op-2", "failed", {
      action: "apply_config",
      failures_count: 2,
      retry_at: "2024-01-01T00:01:00Z",
      error: "boom",
    });
    expect(waitingLine("p", [retried], 31_000, DEFAULT_WAIT_POLICY)).toBe(
      "waiting for operations of project p to finish: apply_config op-2 (failed 2 times, next retry at " +
        "2024-01-01T00:01:00Z: boom); 31 s so far, at most 300 s",
    );
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
  const K = "start_compute:running";

  /**
   * One wait against a batch that ends `endMs` after the wait starts, as `waitForOperations` polls it: the first
   * poll at the learned time (or the scout's growing intervals), then at once after an early answer, growing by
   * 1.5; each answer takes `rttMs`. Returns the polls sent and how late the done poll was.
   */
  function simulate(model: DurationModel, endMs: number, rttMs = 10) {
    const expected = model.expectedMs(K);
    const schedule = new PollSchedule(expected === undefined ? { ...policy, initialIntervalMs: 50 } : policy, expected);
    let at = schedule.next();
    let pendingAtMs = 0;
    let polls = 1;
    while (at < endMs) {
      pendingAtMs = at;
      at += rttMs + schedule.next();
      polls += 1;
    }
    model.observe(K, { guessMs: expected, pendingAtMs, doneAtMs: at, polls });
    return { polls, lateMs: at - endMs };
  }

  /** A service whose batches end at `meanMs` ± `spreadMs` (uniform, seeded). */
  function service(meanMs: number, spreadMs = 3, seed = 7) {
    let x = seed;
    return () => {
      x = (x * 16807) % 2147483647;
      return meanMs + ((x / 2147483647) * 2 - 1) * spreadMs;
    };
  }

  it("knows nothing of a kind never seen, then expects the middle of the first wait's bracket", () => {
    const model = new DurationModel();
    expect(model.expectedMs(K)).toBeUndefined();
    model.observe(K, { pendingAtMs: 100, doneAtMs: 300, polls: 4 });
    expect(model.expectedMs(K)).toBe(200);
  });

  it("settles just after the end: most first polls find the batch done, a few ms late; early ones are rare", () => {
    const model = new DurationModel();
    const end = service(243);
    for (let i = 0; i < 30; i++) simulate(model, end()); // the scout, then the bisection
    const waits = Array.from({ length: 200 }, () => simulate(model, end()));
    const hits = waits.filter((w) => w.polls === 1);
    const meanLate = waits.reduce((sum, w) => sum + w.lateMs, 0) / waits.length;
    expect(hits.length / waits.length).toBeGreaterThan(0.6);
    expect(hits.length / waits.length).toBeLessThan(0.97);
    expect(meanLate).toBeLessThan(8); // the peers' fixed 100 ms polling: 50 on average
    expect(Math.max(...waits.map((w) => w.polls))).toBeLessThanOrEqual(3);
  });

  it("converges from the scout's coarse bracket within a few waits", () => {
    const model = new DurationModel();
    const end = service(750);
    simulate(model, end());
    const late = Array.from({ length: 10 }, () => simulate(model, end()).lateMs);
    expect(Math.max(...late.slice(5))).toBeLessThan(20);
  });

  it("follows a service that got slower, then faster again", () => {
    const model = new DurationModel();
    let end = service(250);
    for (let i = 0; i < 40; i++) simulate(model, end());
    end = service(500);
    for (let i = 0; i < 10; i++) simulate(model, end());
    expect(model.expectedMs(K)).toBeGreaterThan(480);
    expect(model.expectedMs(K)).toBeLessThan(520);
    end = service(250);
    for (let i = 0; i < 40; i++) simulate(model, end());
    expect(model.expectedMs(K)).toBeLessThan(270);
  });

  it("one slow operation at most doubles the expectation, and the next waits come back", () => {
    const model = new DurationModel();
    const end = service(200);
    for (let i = 0; i < 40; i++) simulate(model, end());
    const before = model.expectedMs(K)!;
    model.observe(K, { guessMs: before, pendingAtMs: 60_000, doneAtMs: 60_100, polls: 40 });
    expect(model.expectedMs(K)).toBeLessThanOrEqual(2 * before + 1); // (rounded)
    for (let i = 0; i < 20; i++) simulate(model, end());
    expect(model.expectedMs(K)).toBeLessThan(before * 1.1);
  });

  it("a slow first batch does not keep later waits late: the guess comes down within a few dozen waits", () => {
    const model = new DurationModel();
    simulate(model, 5000); // the scout met a slow batch
    const end = service(200);
    const late = Array.from({ length: 40 }, () => simulate(model, end()).lateMs);
    expect(model.expectedMs(K)).toBeLessThan(250);
    expect(Math.max(...late.slice(30))).toBeLessThan(40);
  });

  it("a slow batch while still bisecting at most doubles the guess", () => {
    const model = new DurationModel();
    model.observe(K, { pendingAtMs: 180, doneAtMs: 220, polls: 5 });
    const guess = model.expectedMs(K)!;
    model.observe(K, { guessMs: guess, pendingAtMs: 60_000, doneAtMs: 60_400, polls: 30 });
    expect(model.expectedMs(K)).toBeLessThanOrEqual(2 * guess);
  });

  it("follows a much faster service within a few dozen waits (steps widen on runs of hits)", () => {
    const model = new DurationModel();
    let end = service(60_000, 500);
    for (let i = 0; i < 30; i++) simulate(model, end());
    end = service(5_000, 50);
    for (let i = 0; i < 25; i++) simulate(model, end());
    expect(model.expectedMs(K)).toBeLessThan(5_600);
  });

  it("halves its step at each reversal: a jittery end does not make the guess wander", () => {
    const model = new DurationModel();
    const end = service(400, 2);
    for (let i = 0; i < 40; i++) simulate(model, end());
    const guesses = Array.from({ length: 60 }, () => (simulate(model, end()), model.expectedMs(K)!));
    expect(Math.max(...guesses) - Math.min(...guesses)).toBeLessThan(16);
  });

  it("waits that polled side by side at the same guess move it once, not once each", () => {
    const model = new DurationModel();
    model.observe(K, { pendingAtMs: 180, doneAtMs: 220, polls: 3 });
    const guess = model.expectedMs(K)!;
    for (let i = 0; i < 10; i++) model.observe(K, { guessMs: guess, pendingAtMs: 0, doneAtMs: guess, polls: 1 });
    expect(model.expectedMs(K)).toBe(guess - 10); // one hit: bisected once (from the middle of 180..220)
    const lower = model.expectedMs(K)!;
    model.observe(K, { guessMs: lower - 3, pendingAtMs: lower - 3, doneAtMs: lower + 10, polls: 2 });
    expect(model.expectedMs(K)).toBe(lower); // early before the current guess: nothing learned about it
    model.observe(K, { guessMs: lower, pendingAtMs: lower, doneAtMs: lower + 15, polls: 2 });
    expect(model.expectedMs(K)).toBeGreaterThan(lower); // early at it: later
  });
  it("learns nothing from a wait whose first poll did not go at the guess", () => {
    const model = new DurationModel();
    model.observe(K, { pendingAtMs: 180, doneAtMs: 220, polls: 3 });
    model.observe(K, { pendingAtMs: 0, doneAtMs: 20, polls: 1 });
    expect(model.expectedMs(K)).toBe(200);
  });

  it("forgets the oldest kinds past its bound", () => {
    const model = new DurationModel(2);
    for (const k of ["a", "b", "c"]) model.observe(k, { pendingAtMs: 0, doneAtMs: 10, polls: 1 });
    expect(model.expectedMs("a")).toBeUndefined();
    expect(model.expectedMs("c")).toBeDefined();
  });
  it("names a batch by its actions and statuses", () => {
    const ops = [op("a", "running", { action: "apply_config" }), op("b", "scheduling", { action: "start_compute" })];
    expect(shapeOf(ops)).toBe("apply_config:running,start_compute:scheduling");
  });
  it("schedule: unknown kind = the classic growing intervals", () => {
    const s = new PollSchedule(policy);
    expect([0, 0, 0, 0].map(() => s.next())).toEqual([100, 150, 225, 338]);
  });
  it("schedule: known kind = the learned time, then at once, then growing intervals", () => {
    const s = new PollSchedule(policy, 400);
    expect([0, 0, 0, 0].map(() => s.next())).toEqual([400, 0, 8, 12]);
  });
});

describe("waitForOperations with a model", () => {
  it("after the first wait of a kind, the next ones poll once or twice, near the learned time", async () => {
    const model = new DurationModel();
    const endsAt = new Map<string, number>();
    const polls = new Map<string, number[]>();
    const reader = {
      operations: {
        get: async (_p: string, id: string) => {
          polls.get(id)!.push(Date.now() - (endsAt.get(id)! - 160));
          await new Promise((resolve) => setTimeout(resolve, 3)); // a round trip
          return op(id, Date.now() >= endsAt.get(id)! ? "finished" : "running");
        },
      },
    };
    const ids = ["a", "b", "c", "d", "e", "f", "g", "h"];
    for (const id of ids) {
      endsAt.set(id, Date.now() + 160);
      polls.set(id, []);
      await waitForOperations(reader, "p", [op(id, "running")], { model });
    }
    const later = ids.slice(3).map((id) => polls.get(id)!);
    // Each later wait's first poll goes near the learned end, never early in the operation; from there the schedule
    // (at once, then 8, 12, 18 ms) reaches the end in a few polls. A busy machine's late timers only mean fewer polls,
    // so these bounds hold anywhere; how few it takes on a quiet machine (and the cold search's count) is the bench's.
    for (const seen of later) expect(seen[0]).toBeGreaterThan(120);
    for (const seen of later) expect(seen.length).toBeLessThanOrEqual(6);
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
    model.observe("start_compute:running", { pendingAtMs: 0, doneAtMs: 60_000, polls: 1 });
    const { reader } = scripted({ a: ["running"] });
    const run = waitForOperations(reader, "p", [op("a", "running")], { timeoutMs: 30, model });
    await expect(run).rejects.toMatchObject({ kind: "wait_timeout" });
  });
});

describe("waits never poll in a tight loop, and honour their budget", () => {
  it("a stuck operation after an early learned poll is polled ever more slowly, even with factor 1", async () => {
    const model = new DurationModel();
    model.observe("start_compute:running", { pendingAtMs: 0, doneAtMs: 20, polls: 1 });
    let polls = 0;
    const reader = { operations: { get: async (_p: string, id: string) => (polls++, op(id, "running")) } };
    const run = waitForOperations(reader, "p", [op("a", "running")], { model, factor: 1, timeoutMs: 600 });
    await expect(run).rejects.toMatchObject({ kind: "wait_timeout" });
    expect(polls).toBeLessThan(20); // 5 ms flat would be over 100
  });
  it("a follower of a scout honours its own timeout and an aborted signal", async () => {
    const model = new DurationModel();
    const never = { operations: { get: async (_p: string, id: string) => op(id, "running") } };
    let scoutDone = false;
    const scout = waitForOperations(never, "p", [op("s", "running")], { model, timeoutMs: 1200 })
      .catch(() => {})
      .finally(() => (scoutDone = true));
    const follower = waitForOperations(never, "p", [op("f", "running")], { model, timeoutMs: 100 });
    await expect(follower).rejects.toMatchObject({ kind: "wait_timeout" });
    const aborted = AbortSignal.abort();
    const cancelled = waitForOperations(never, "p", [op("g", "running")], { model, signal: aborted });
    await expect(cancelled).rejects.toMatchObject({ kind: "cancelled" });
    expect(scoutDone).toBe(false); // both ended on their own terms, before the scout (not the 2 s a follower may sleep)
    await scout;
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
    // The others polled once, twice at most; the scout searched (on a busy machine its late timers shorten the search).
    expect(scoutPolls).toBeGreaterThanOrEqual(2);
    expect(followerPolls.slice(0, 5).every((n) => n <= 2)).toBe(true);
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
