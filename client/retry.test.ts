import { sleep } from "./cancellation";
import { NeonError } from "./errors";
import {
  backoffMs,
  DEFAULT_RETRY_POLICY,
  finalError,
  isOutcomeUnknown,
  isRetryable,
  budgetError,
  nextDelayMs,
  parseRetryAfter,
  retryingLine,
  RetryPolicy,
  waitBeforeRetryMs,
  withRetry,
} from "./retry";

const http = (status: number, kind: NeonError["kind"]) =>
  new NeonError({ kind, status, message: "m", method: "X", path: "/p" });
const net = (code: string) => new NeonError({ kind: "network", code, message: code, method: "POST", path: "/p" });

describe("isRetryable: reads retry on anything transient, writes only where the service did not act", () => {
  const table: [string, NeonError, boolean, boolean][] = [
    // [name, error, GET retries, POST retries]
    ["423 locked", http(423, "locked"), true, true],
    ["429 rate limit", http(429, "rate_limit"), true, true],
    ["503", http(503, "server"), true, true],
    ["500", http(500, "server"), true, false],
    ["502", http(502, "server"), true, false],
    ["connection refused (never sent)", net("ECONNREFUSED"), true, true],
    ["DNS failure (never sent)", net("ENOTFOUND"), true, true],
    ["connection reset (maybe sent)", net("ECONNRESET"), true, false],
    ["timeout (maybe sent)", net("ETIMEDOUT"), true, false],
    ["422 branch not ready yet (the service did not act)", http(422, "not_ready"), true, true],
    ["422 other", http(422, "validation"), false, false],
    ["400", http(400, "validation"), false, false],
    ["401", http(401, "auth"), false, false],
    ["404", http(404, "not_found"), false, false],
    ["409", http(409, "conflict"), false, false],
    ["cancelled", new NeonError({ kind: "cancelled", message: "c" }), false, false],
  ];
  it.each(table)("%s", (_name, error, get, post) => {
    expect(isRetryable("GET", error)).toBe(get);
    expect(isRetryable("POST", error)).toBe(post);
    expect(isRetryable("PATCH", error)).toBe(post);
    expect(isRetryable("DELETE", error)).toBe(post);
  });
});

describe("isOutcomeUnknown / finalError: a write that may have happened is ambiguous, never resent", () => {
  it.each([
    [http(500, "server"), true],
    [http(502, "server"), true],
    [net("ECONNRESET"), true],
    [net("ETIMEDOUT"), true],
    [http(503, "server"), false],
    [http(423, "locked"), false],
    [net("ECONNREFUSED"), false],
    [http(409, "conflict"), false],
  ])("POST after %s → %s", (error, unknown) => {
    expect(isOutcomeUnknown("POST", error)).toBe(unknown);
    expect(finalError("POST", error).kind).toBe(unknown ? "ambiguous" : error.kind);
  });

  it("reads are never ambiguous", () => {
    expect(isOutcomeUnknown("GET", net("ECONNRESET"))).toBe(false);
  });

  it("renders the ambiguous message naming the method and path", () => {
    const error = finalError(
      "POST",
      new NeonError({
        kind: "network",
        code: "ECONNRESET",
        message: "reset",
        method: "POST",
        path: "/projects/p/endpoints",
        requestId: "r1",
      }),
    );
    expect(error.message).toMatch(/^the outcome of POST \/projects\/p\/endpoints is unknown \(reset\)/);
    expect(error.message).toContain("request ID: r1");
    expect(error.retryable).toBe(false);
  });
});

describe("backoffMs: exponential with full jitter and a cap", () => {
  const policy: RetryPolicy = {
    maxAttempts: 10,
    baseDelayMs: 100,
    maxDelayMs: 1000,
    maxTotalMs: 10_000,
    rateLimitFloorMs: 500,
    unreachableAttempts: 3,
  };
  it("doubles the ceiling per attempt", () => {
    const top = () => 0.999999;
    expect([1, 2, 3, 4].map((a) => backoffMs(a, policy, top))).toEqual([99, 199, 399, 799]);
  });
  it("caps the ceiling", () => {
    expect(backoffMs(20, policy, () => 0.999999)).toBe(999);
  });
  it("draws uniformly below the ceiling (full jitter)", () => {
    expect(backoffMs(3, policy, () => 0)).toBe(0);
    expect(backoffMs(3, policy, () => 0.5)).toBe(200);
  });
  it("tolerates a random source outside [0,1)", () => {
    expect(backoffMs(1, policy, () => 7)).toBeLessThan(100);
    expect(backoffMs(1, policy, () => -1)).toBe(0);
  });
});

describe("parseRetryAfter", () => {
  const now = Date.parse("2024-01-01T00:00:00Z");
  it("reads delta-seconds", () => expect(parseRetryAfter("3", now)).toBe(3000));
  it("reads fractional seconds", () => expect(parseRetryAfter(" 1.5 ", now)).toBe(1500));
  it("reads an HTTP date", () => expect(parseRetryAfter("Mon, 01 Jan 2024 00:00:05 GMT", now)).toBe(5000));
  it("a date in the past means now", () => expect(parseRetryAfter("Sun, 31 Dec 2023 00:00:00 GMT", now)).toBe(0));
  it("ignores garbage and absence", () => {
    expect(parseRetryAfter("soon", now)).toBeUndefined();
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
  });
});

describe("nextDelayMs: caps on attempts and on total time; Retry-After honoured", () => {
  const policy: RetryPolicy = {
    maxAttempts: 3,
    baseDelayMs: 100,
    maxDelayMs: 1000,
    maxTotalMs: 5000,
    rateLimitFloorMs: 500,
    unreachableAttempts: 3,
  };
  const locked = http(423, "locked");
  it("gives up at the attempt cap", () => {
    expect(nextDelayMs("GET", locked, 2, 0, policy, () => 0.5, 0)).toBe(100);
    expect(nextDelayMs("GET", locked, 3, 0, policy, () => 0.5, 0)).toBeUndefined();
  });
  it("waits at least Retry-After", () => {
    const limited = locked.with({ kind: "rate_limit", status: 429, retryAfter: "2" });
    expect(nextDelayMs("POST", limited, 1, 0, policy, () => 0, 0)).toBe(2000);
  });
  it("gives up when the wait would exceed the total budget", () => {
    const limited = locked.with({ kind: "rate_limit", status: 429, retryAfter: "60" });
    expect(nextDelayMs("GET", limited, 1, 0, policy, () => 0, 0)).toBeUndefined();
    expect(nextDelayMs("GET", locked, 1, 4990, policy, () => 0.5, 0)).toBeUndefined();
  });
  it("never retries what is not retryable", () => {
    expect(nextDelayMs("POST", http(500, "server"), 1, 0, policy, () => 0, 0)).toBeUndefined();
  });
});

describe("the default budget ends by time, not by a count of attempts", () => {
  const locked = http(423, "locked");
  /** The attempts and seconds the default policy spends on a failure that never passes, for a fixed jitter draw. */
  const spend = (draw: number): { attempts: number; seconds: number } => {
    let elapsed = 0;
    for (let attempt = 1; ; attempt++) {
      const delay = nextDelayMs("POST", locked, attempt, elapsed, DEFAULT_RETRY_POLICY, () => draw, 0);
      if (delay === undefined) return { attempts: attempt, seconds: elapsed / 1000 };
      elapsed += delay;
    }
  };
  it.each([
    // [jitter draw, the budget is spent to within one capped backoff]
    [0.5, 110],
    [0.9, 110],
    [0.999, 110],
  ])(
    "with jitter %s, retries run until the 120 s budget (> %s s), far beyond the old 10 attempts (~23 s)",
    (draw, s) => {
      const { attempts, seconds } = spend(draw);
      expect(seconds).toBeGreaterThan(s);
      expect(seconds).toBeLessThanOrEqual(120);
      expect(attempts).toBeGreaterThan(10);
      expect(attempts).toBeLessThan(DEFAULT_RETRY_POLICY.maxAttempts); // the cap is only a safety net
    },
  );
  it("no single backoff exceeds the cap", () => {
    for (let a = 1; a < 50; a++) expect(backoffMs(a, DEFAULT_RETRY_POLICY, () => 0.999999)).toBeLessThan(10_000);
  });
});

// Issue 19: a wrong neon:apiUrl (nothing listening) kept `pulumi up` silent for the whole 2-minute budget.
describe("an unreachable address gets a couple of quick retries, not the budget", () => {
  it.each(["ECONNREFUSED", "ENOTFOUND"])("%s: three attempts in all, within a second, for reads and writes", (code) => {
    for (const method of ["GET", "POST"]) {
      let elapsed = 0;
      let attempt = 1;
      for (; ; attempt++) {
        const delay = nextDelayMs(method, net(code), attempt, elapsed, DEFAULT_RETRY_POLICY, () => 0.999, 0);
        if (delay === undefined) break;
        elapsed += delay;
      }
      expect(attempt).toBe(DEFAULT_RETRY_POLICY.unreachableAttempts);
      expect(DEFAULT_RETRY_POLICY.unreachableAttempts).toBe(3);
      expect(elapsed).toBeLessThan(1000);
    }
  });
  it("other network failures of a read keep the budget", () => {
    expect(nextDelayMs("GET", net("ECONNRESET"), 5, 1000, DEFAULT_RETRY_POLICY, () => 0.5, 0)).toBeGreaterThan(0);
    expect(nextDelayMs("GET", net("EAI_AGAIN"), 5, 1000, DEFAULT_RETRY_POLICY, () => 0.5, 0)).toBeGreaterThan(0);
  });
  it("withRetry ends quickly, saying how often it tried and no budget it never used", async () => {
    let calls = 0;
    const run = withRetry({ method: "POST", policy: DEFAULT_RETRY_POLICY, random: () => 0.5 }, async () => {
      calls += 1;
      throw net("ECONNREFUSED");
    });
    await expect(run).rejects.toMatchObject({ kind: "network", code: "ECONNREFUSED" });
    await expect(run).rejects.toThrow(/^ECONNREFUSED; tried 3 times over \d\.\d s \(POST \/p\)$/);
    expect(calls).toBe(3);
  });
});

describe("waitBeforeRetryMs: a 429 without Retry-After waits at least the floor, then backs off above it", () => {
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 100, maxDelayMs: 1000, rateLimitFloorMs: 1000 };
  const limited = http(429, "rate_limit");
  it.each([
    // [name, error, attempt, jitter draw, expected ms]
    ["429, no Retry-After, jitter 0: the floor", limited, 1, 0, 1000],
    ["429, no Retry-After, attempt 3: floor + backoff", limited, 3, 0.5, 1200],
    ["429, no Retry-After, late attempt: floor + capped backoff", limited, 20, 0.999999, 1999],
    ["429 with Retry-After 3: honoured", limited.with({ retryAfter: "3" }), 1, 0, 3000],
    ["429 with Retry-After 0: the backoff (no floor)", limited.with({ retryAfter: "0" }), 2, 0.5, 100],
    ["423: the jittered backoff only", http(423, "locked"), 1, 0, 0],
    ["503: the jittered backoff only", http(503, "server"), 2, 0.5, 100],
  ])("%s", (_name, error, attempt, draw, expected) => {
    expect(waitBeforeRetryMs(error, attempt, policy, () => draw, 0)).toBe(expected);
  });
});

describe("budgetError: what persisted and for how long", () => {
  const error = http(423, "locked").with({ path: "/projects/p-1/endpoints" });
  it("names the lock, the attempts, the seconds and the budget, keeping kind and status", () => {
    const out = budgetError(error, 17, 118_234, DEFAULT_RETRY_POLICY);
    expect(out).toMatchObject({ kind: "locked", status: 423 });
    expect(out.message).toBe(
      "HTTP 423: m; the project stayed locked: gave up after 17 attempts over 118.2 s (retry budget 120 s) (X /projects/p-1/endpoints)",
    );
  });
  it.each([
    [http(429, "rate_limit"), "the rate limit stayed exhausted"],
    [http(422, "not_ready"), "the branch stayed not ready"],
    [http(503, "server"), "the failure persisted"],
  ])("%s", (e, phrase) => expect(budgetError(e, 2, 1000, DEFAULT_RETRY_POLICY).message).toContain(phrase));
});

describe("withRetry", () => {
  const policy: RetryPolicy = { ...DEFAULT_RETRY_POLICY, baseDelayMs: 1, maxDelayMs: 2 };
  it("retries a retryable failure and returns the success", async () => {
    let calls = 0;
    const result = await withRetry({ method: "POST", policy, random: () => 0.5 }, async () => {
      calls += 1;
      if (calls < 3) throw http(423, "locked");
      return "ok";
    });
    expect([result, calls]).toEqual(["ok", 3]);
  });
  it("resends a write refused with 422 branch not ready yet, and ends with the budget's error", async () => {
    let calls = 0;
    const tight = { ...policy, maxTotalMs: 30 };
    const run = withRetry({ method: "POST", policy: tight, random: () => 0.5 }, async () => {
      calls += 1;
      throw http(422, "not_ready");
    });
    await expect(run).rejects.toMatchObject({ kind: "not_ready", status: 422 });
    await expect(run).rejects.toThrow(/the branch stayed not ready: gave up after \d+ attempts/);
    expect(calls).toBeGreaterThan(1);
  });
  it("sends a write with an unknown outcome once and reports it ambiguous", async () => {
    let calls = 0;
    const run = withRetry({ method: "POST", policy, random: () => 0.5 }, async () => {
      calls += 1;
      throw net("ECONNRESET");
    });
    await expect(run).rejects.toMatchObject({ kind: "ambiguous" });
    expect(calls).toBe(1);
  });
  it("honours an AbortSignal during the backoff", async () => {
    const controller = new AbortController();
    const slow = { ...policy, baseDelayMs: 60_000, maxDelayMs: 60_000, maxTotalMs: 600_000 };
    const run = withRetry({ method: "GET", policy: slow, random: () => 0.9, signal: controller.signal }, async () => {
      throw http(503, "server");
    });
    setTimeout(() => controller.abort(), 20);
    await expect(run).rejects.toMatchObject({ kind: "cancelled" });
  });
  // Issue 19: a 423 retried for two minutes said nothing until it failed.
  it("a retry loop that lasts says what it waits for, after `afterMs` then every `everyMs`; a short one says nothing", async () => {
    const lines: string[] = [];
    const progress = { say: (line: string) => lines.push(line), afterMs: 40, everyMs: 60 };
    const paced = { ...policy, baseDelayMs: 10, maxDelayMs: 10 };
    // Locked until the loop has said twice what it waits for: if it never says, the test times out.
    const result = await withRetry({ method: "POST", policy: paced, random: () => 0.999, progress }, async () => {
      if (lines.length < 2) throw http(423, "locked").with({ path: "/projects/p-1/endpoints" });
      return "ok";
    });
    expect(result).toBe("ok");
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatch(
      /^X \/projects\/p-1\/endpoints: the project is locked by operations in progress \(HTTP 423\); retrying for up to 120 s \(0 s so far\)$/,
    );
    const after = lines.length;
    await sleep(150);
    expect(lines.length).toBe(after); // stopped with the loop
    const quiet: string[] = [];
    await withRetry(
      { method: "POST", policy, random: () => 0.5, progress: { say: (l) => quiet.push(l), afterMs: 5_000 } },
      async (n) => {
        if (n < 3) throw http(423, "locked");
        return "ok";
      },
    );
    await sleep(60);
    expect(quiet).toEqual([]);
  });
  it("retryingLine says what each kind of failure waits for", () => {
    expect(retryingLine(http(429, "rate_limit"), 7_400, DEFAULT_RETRY_POLICY)).toBe(
      "X /p: the account's rate limit is exhausted (HTTP 429); retrying for up to 120 s (7 s so far)",
    );
    expect(retryingLine(http(503, "server"), 0, DEFAULT_RETRY_POLICY)).toContain(
      "the service answers errors (HTTP 503)",
    );
    expect(retryingLine(net("ECONNRESET"), 0, DEFAULT_RETRY_POLICY)).toContain("the network fails (ECONNRESET)");
    expect(retryingLine(http(422, "not_ready"), 0, DEFAULT_RETRY_POLICY)).toContain("the branch is not ready yet");
  });
  it("sleep rejects at once on an aborted signal", async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(sleep(10, controller.signal)).rejects.toMatchObject({ kind: "cancelled" });
  });
});
