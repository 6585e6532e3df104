/**
 * Injected faults: reads and safe writes recover with the number of requests asserted; a write whose outcome is
 * unknown is never resent (guards against duplicate computes and keys nobody saw).
 */
import { Emulator } from "../emulator";
import { NeonClient } from "./client";
import { clientFor, rejection, seen, start } from "./testing.test.helpers";

let emu: Emulator;
let client: NeonClient;
let projectId: string;
let branchId: string;
const lines: string[] = [];

beforeAll(async () => {
  emu = await start();
  client = clientFor(emu, { log: (line) => lines.push(line) });
  projectId = emu.projectId;
  const main = (await client.branches.list(projectId)).find((b) => b.name === "main")!;
  branchId = main.id;
});
afterAll(() => emu.close());
afterEach(() => emu.faults.clear());

/** The waits the client chose before each retry, from its log ("retrying … in N ms"): its decision, not a clock. */
const retryWaitsMs = (log: string[]) =>
  log.flatMap((line) => /^retrying .* in (\d+) ms/.exec(line)?.slice(1) ?? []).map(Number);
const endpointsPath = () => `/projects/${projectId}/endpoints`;
const replicas = async () =>
  (await client.endpoints.listForBranch(projectId, branchId)).filter((e) => e.type === "read_only");

describe("reads retry on anything transient", () => {
  it.each(["500", "502", "503", "524", "reset", "423", "429"] as const)(
    "GET after two %s faults: 3 requests",
    async (kind) => {
      const before = seen(emu, "GET", endpointsPath()).length;
      emu.faults.add({ method: "GET", path: endpointsPath(), kind, times: 2 });
      await expect(client.endpoints.list(projectId)).resolves.toBeInstanceOf(Array);
      expect(seen(emu, "GET", endpointsPath()).length - before).toBe(3);
    },
  );
  it("gives up at the attempt cap with the last error", async () => {
    const capped = clientFor(emu, { retry: { maxAttempts: 3, baseDelayMs: 1, maxDelayMs: 2 } });
    const before = seen(emu, "GET", endpointsPath()).length;
    emu.faults.add({ method: "GET", path: endpointsPath(), kind: "500", times: 5 });
    const error = await rejection(capped.endpoints.list(projectId));
    expect(error).toMatchObject({ kind: "server", status: 500, retryable: true });
    expect(seen(emu, "GET", endpointsPath()).length - before).toBe(3);
  });
  it("sends a fresh X-Request-ID per attempt", async () => {
    lines.length = 0;
    emu.faults.add({ method: "GET", path: endpointsPath(), kind: "503", times: 1 });
    await client.endpoints.list(projectId);
    const sent = lines.map((l) => /request ID: ([^)]+)\)/.exec(l)?.[1]).filter((id): id is string => !!id);
    const received = seen(emu, "GET", endpointsPath())
      .slice(-2)
      .map((r) => r.requestId);
    expect(sent).toHaveLength(2);
    expect(new Set(sent).size).toBe(2);
    expect(received).toEqual(sent);
  });
});

describe("writes retry only where the service certainly did not act", () => {
  it.each(["423", "429", "503"] as const)("POST create after one %s: 2 requests, one compute", async (kind) => {
    const before = (await replicas()).length;
    const posts = seen(emu, "POST", endpointsPath()).length;
    emu.faults.add({ method: "POST", path: endpointsPath(), kind, times: 1 });
    await client.endpoints.create(projectId, { branch_id: branchId, type: "read_only" });
    expect(seen(emu, "POST", endpointsPath()).length - posts).toBe(2);
    expect((await replicas()).length - before).toBe(1);
  });
  it("PATCH after a 423 caused by someone else: retried with backoff", async () => {
    const [replica] = await replicas();
    const path = `${endpointsPath()}/${replica.id}`;
    emu.faults.add({ method: "PATCH", path, kind: "423", times: 2 });
    const { endpoint } = await client.endpoints.update(projectId, replica.id, { suspend_timeout_seconds: 300 });
    expect(endpoint.suspend_timeout_seconds).toBe(300);
    expect(seen(emu, "PATCH", path).map((r) => r.status)).toEqual([423, 423, 200]);
  });
  it("honours Retry-After on a 429 when the service sends one", async () => {
    const withHeader = await start({ retryAfter: true });
    const log: string[] = [];
    const c = clientFor(withHeader, { log: (line) => log.push(line) });
    const path = `/projects/${withHeader.projectId}/endpoints`;
    const main = (await c.branches.list(withHeader.projectId)).find((b) => b.name === "main")!;
    withHeader.faults.add({ method: "POST", path, kind: "429", times: 1 });
    const { endpoint } = await c.endpoints.create(withHeader.projectId, { branch_id: main.id, type: "read_only" });
    expect(endpoint.type).toBe("read_only");
    expect(seen(withHeader, "POST", path).map((r) => r.status)).toEqual([429, 201]);
    const [wait] = retryWaitsMs(log);
    expect(wait).toBeGreaterThanOrEqual(1_000); // the emulator's 429 says Retry-After: 1
    await withHeader.close();
  });
  it("backs off at least the floor on a 429 without Retry-After (the real service sends none)", async () => {
    const log: string[] = [];
    const floored = clientFor(emu, {
      retry: { baseDelayMs: 2, maxDelayMs: 50, rateLimitFloorMs: 300 },
      log: (line) => log.push(line),
    });
    const posts = seen(emu, "POST", endpointsPath()).length;
    emu.faults.add({ method: "POST", path: endpointsPath(), kind: "429", times: 1 });
    await floored.endpoints.create(projectId, { branch_id: branchId, type: "read_only" });
    expect(
      seen(emu, "POST", endpointsPath())
        .slice(posts)
        .map((r) => r.status),
    ).toEqual([429, 201]);
    const [wait] = retryWaitsMs(log);
    expect(wait).toBeGreaterThanOrEqual(300);
  });
  it("with its default policy, waits at least 1 s after a 429 without Retry-After (issue 11, item 10)", async () => {
    // No `retry` option: the defaults under test. Zero jitter, so the wait is the floor alone (without it, ~0 ms).
    const log: string[] = [];
    const defaults = new NeonClient({
      apiKey: emu.apiKey,
      apiUrl: emu.baseUrl,
      random: () => 0,
      rateLimit: false,
      log: (line) => log.push(line),
    });
    const gets = seen(emu, "GET", endpointsPath()).length;
    emu.faults.add({ method: "GET", path: endpointsPath(), kind: "429", times: 1 });
    await defaults.endpoints.list(projectId);
    const sent = seen(emu, "GET", endpointsPath()).slice(gets);
    expect(sent.map((r) => r.status)).toEqual([429, 200]);
    expect(retryWaitsMs(log)).toEqual([1_000]); // zero jitter: the floor alone
  });
});

describe("a write whose outcome is unknown is ambiguous and never resent", () => {
  it("an ambiguous create (applied, response lost): one request, exactly one new compute", async () => {
    const before = (await replicas()).length;
    const posts = seen(emu, "POST", endpointsPath()).length;
    emu.faults.add({ method: "POST", path: endpointsPath(), kind: "ambiguous", times: 1 });
    const error = await rejection(client.endpoints.create(projectId, { branch_id: branchId, type: "read_only" }));
    expect(error).toMatchObject({ kind: "ambiguous", method: "POST", path: endpointsPath(), retryable: false });
    expect(error.message).toMatch(/^the outcome of POST \/projects\/.+\/endpoints is unknown/);
    expect(seen(emu, "POST", endpointsPath()).length - posts).toBe(1);
    expect((await replicas()).length - before).toBe(1);
  });
  it.each(["reset", "500", "502"] as const)("a create that fails with %s is ambiguous, sent once", async (kind) => {
    const posts = seen(emu, "POST", endpointsPath()).length;
    emu.faults.add({ method: "POST", path: endpointsPath(), kind, times: 1 });
    const error = await rejection(client.endpoints.create(projectId, { branch_id: branchId, type: "read_only" }));
    expect(error.kind).toBe("ambiguous");
    expect(seen(emu, "POST", endpointsPath()).length - posts).toBe(1);
  });
  it("a timed-out create is ambiguous, sent once", async () => {
    // counted from the client's log: the emulator logs a request only when it answers, which a timed-out one is not
    const attempts: string[] = [];
    const slowClient = clientFor(emu, { timeoutMs: 100, log: (line) => attempts.push(line) });
    emu.faults.add({ method: "POST", path: endpointsPath(), kind: "slow", delayMs: 400, times: 1 });
    const error = await rejection(slowClient.endpoints.create(projectId, { branch_id: branchId, type: "read_only" }));
    expect(error).toMatchObject({ kind: "ambiguous", code: "ETIMEDOUT" });
    expect(attempts.filter((line) => line.startsWith(`POST ${endpointsPath()} ->`))).toHaveLength(1);
    await new Promise((resolve) => setTimeout(resolve, 400)); // let the emulator's slow timer end before closing
  });
  it("an ambiguous key create is not resent (no second secret nobody saw)", async () => {
    const before = (await client.apiKeys.list()).length;
    emu.faults.add({ method: "POST", path: "/api_keys", kind: "ambiguous", times: 1 });
    expect((await rejection(client.apiKeys.create({ key_name: "once" }))).kind).toBe("ambiguous");
    expect(seen(emu, "POST", "/api_keys")).toHaveLength(1);
    expect((await client.apiKeys.list()).length - before).toBe(1);
  });
  it("an ambiguous delete is settled by reading back: gone → resolved once its operation is done", async () => {
    const [replica] = await replicas();
    const path = `${endpointsPath()}/${replica.id}`;
    emu.faults.add({ method: "DELETE", path, kind: "ambiguous", times: 1 });
    const { operations } = await client.endpoints.delete(projectId, replica.id);
    // The delete's suspend_compute is waited for if it still runs when the read-back finds the compute gone; on a
    // slow machine it may have finished already (then there is nothing to wait for). Either way none is left running.
    expect(operations.every((o) => o.action === "suspend_compute" && o.status === "finished")).toBe(true);
    const running = (await client.operations.list(projectId)).filter(
      (o) => o.endpoint_id === replica.id && o.status !== "finished",
    );
    expect(running).toEqual([]);
    expect((await rejection(client.endpoints.get(projectId, replica.id))).kind).toBe("not_found");
    expect(seen(emu, "DELETE", path)).toHaveLength(1);
  });
  it.each(["POST", "PATCH"] as const)(
    "a %s answered 524 (applied, proxy timed out) is ambiguous, sent once",
    async (m) => {
      const [replica] = await replicas();
      const path = m === "POST" ? endpointsPath() : `${endpointsPath()}/${replica.id}`;
      const sent = seen(emu, m, path).length;
      emu.faults.add({ method: m, path, kind: "524", times: 1 });
      const error = await rejection(
        m === "POST"
          ? client.endpoints.create(projectId, { branch_id: branchId, type: "read_only" })
          : client.endpoints.update(projectId, replica.id, { suspend_timeout_seconds: 600 }),
      );
      expect(error).toMatchObject({ kind: "ambiguous", status: 524 });
      expect(seen(emu, m, path).length - sent).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 100)); // the applied change's operations end
    },
  );
});
