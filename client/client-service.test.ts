/**
 * The client against the real service's behaviours that the specification does not give (api.md, late 2026), each
 * test naming what it guards: deletes that return operations or 204, refusals a user must see as such (an idle
 * restart, a protected branch), a branch not ready yet, a lock that outlasts ten attempts, and responses that lack
 * a field.
 */
import { Emulator } from "../emulator";
import { NeonClient } from "./client";
import { clientFor, rejection, rewritingProxy, seen, start } from "./testing.test.helpers";

let emu: Emulator;
let client: NeonClient;
let dev: string;
afterEach(() => emu.close());

async function setUp(options: Parameters<typeof start>[0] = {}): Promise<void> {
  emu = await start(options);
  client = clientFor(emu);
  dev = (await client.branches.list(emu.projectId)).find((b) => b.name === "dev")!.id;
}
const createReplica = (c = client) => c.endpoints.create(emu.projectId, { branch_id: dev, type: "read_only" });

describe("deletes", () => {
  it("a delete of a deleted compute or of an unknown one (204), or of one answering 404, resolves as already gone", async () => {
    await setUp();
    const { endpoint } = await createReplica();
    expect((await client.endpoints.delete(emu.projectId, endpoint.id)).operations).toHaveLength(1);
    await expect(client.endpoints.delete(emu.projectId, endpoint.id)).resolves.toEqual({ operations: [] });
    await expect(client.endpoints.delete(emu.projectId, "ep-never-was-000000")).resolves.toEqual({ operations: [] });
    await expect(client.endpoints.delete("no-such-project", endpoint.id)).resolves.toEqual({ operations: [] });
    const statuses = emu.requests.filter((r) => r.method === "DELETE").map((r) => r.status);
    expect(statuses).toEqual([200, 204, 204, 404]);
  });

  it("a delete refused on a protected branch rejects (422, naming the branch): never taken for gone", async () => {
    const branches = [{ name: "main", protected: true, endpoints: [{ type: "read_write" as const }] }];
    emu = await start({ fixture: { accounts: [{ projects: [{ branches }] }] } });
    client = clientFor(emu);
    const [primary] = await client.endpoints.list(emu.projectId);
    const error = await rejection(client.endpoints.delete(emu.projectId, primary.id));
    expect(error).toMatchObject({ kind: "validation", status: 422, method: "DELETE" });
    expect(error.message).toContain(`branch main (${primary.branch_id}) is protected`);
    expect(seen(emu, "DELETE", primary.id)).toHaveLength(1);
  });
});

describe("refusals and transient answers", () => {
  it("a restart of an idle compute rejects 422 saying it is idle, without a retry", async () => {
    await setUp();
    const { endpoint } = await createReplica();
    await client.endpoints.suspend(emu.projectId, endpoint.id);
    const error = await rejection(client.endpoints.restart(emu.projectId, endpoint.id));
    expect(error).toMatchObject({ kind: "validation", status: 422, retryable: false });
    expect(error.message).toMatch(/^HTTP 422: endpoint \S+ is idle: restart works only on an active compute/);
    expect(seen(emu, "POST", `${endpoint.id}/restart`)).toHaveLength(1);
  });

  it("a compute create on a branch not ready yet (422) is resent until the branch is ready", async () => {
    await setUp({ branchReadyDelayMs: 150 });
    const { branch } = await client.branches.create(emu.projectId, { name: "fresh" });
    const created = await client.endpoints.create(emu.projectId, { branch_id: branch.id, type: "read_write" });
    expect(created.operations[0].status).toBe("finished");
    const answers = seen(emu, "POST", `/projects/${emu.projectId}/endpoints`).map((r) => r.status);
    expect(answers[0]).toBe(422);
    expect(answers.slice(-1)).toEqual([201]);
    expect(answers.filter((s) => s === 201)).toHaveLength(1);
  });

  it("a branch not ready beyond the retry budget rejects not_ready, saying for how long it tried", async () => {
    await setUp({ branchReadyDelayMs: 60_000 });
    const { branch } = await client.branches.create(emu.projectId, { name: "slow" });
    const tight = clientFor(emu, { retry: { baseDelayMs: 2, maxDelayMs: 20, maxTotalMs: 150 } });
    const error = await rejection(tight.endpoints.create(emu.projectId, { branch_id: branch.id, type: "read_write" }));
    expect(error).toMatchObject({ kind: "not_ready", status: 422 });
    expect(error.message).toMatch(
      /branch not ready yet; the branch stayed not ready: gave up after \d+ attempts over 0\.\d s/,
    );
  });

  it("a project locked by someone else for more than ten attempts, within the budget: the change succeeds", async () => {
    await setUp();
    const { endpoint } = await createReplica();
    // Twelve 423s in a row, "an operation is in progress" (the spec), whatever the machine's speed: counted, not timed.
    emu.faults.add({ method: "PATCH", path: `/endpoints/${endpoint.id}`, kind: "423", times: 12 });
    const patient = clientFor(emu, {
      retry: { baseDelayMs: 2, maxDelayMs: 50, maxTotalMs: 60_000, rateLimitFloorMs: 5 },
    });
    await patient.endpoints.update(emu.projectId, endpoint.id, { suspend_timeout_seconds: 600 });
    const patches = seen(emu, "PATCH", endpoint.id).map((r) => r.status);
    expect(patches).toEqual([...Array<number>(12).fill(423), 200]); // the old budget gave up after 10
  });

  it("a project locked beyond the budget fails, saying it stayed locked and for how long it tried", async () => {
    await setUp();
    const { endpoint } = await createReplica();
    emu.operations.stickNext();
    await fetch(`${emu.baseUrl}/projects/${emu.projectId}/endpoints/${endpoint.id}/suspend`, {
      method: "POST",
      headers: { Authorization: `Bearer ${emu.apiKey}` },
    });
    const tight = clientFor(emu, { retry: { baseDelayMs: 2, maxDelayMs: 20, maxTotalMs: 200 } });
    const error = await rejection(tight.endpoints.update(emu.projectId, endpoint.id, { suspend_timeout_seconds: 600 }));
    expect(error).toMatchObject({
      kind: "locked",
      status: 423,
      path: `/projects/${emu.projectId}/endpoints/${endpoint.id}`,
    });
    expect(error.message).toMatch(
      /the project stayed locked: gave up after \d+ attempts over 0\.\d s \(retry budget 0\.2 s\)/,
    );
  });
});

describe("responses that lack a field", () => {
  it("deprecated and only copied fields may be absent: create, read, update, delete and the project list work", async () => {
    await setUp();
    const unused = ["proxy_host", "provisioner", "creation_source", "passwordless_access", "updated_at"];
    unused.push("settings", "disabled", "created_at", "platform_id", "pg_version");
    const strip = (e: Record<string, unknown>) =>
      Object.fromEntries(Object.entries(e).filter(([k]) => !unused.includes(k)));
    const proxy = await rewritingProxy(emu, (_m, _p, body) => {
      const b = body as Record<string, unknown>;
      if (b.endpoint) return { ...b, endpoint: strip(b.endpoint as Record<string, unknown>) };
      if (Array.isArray(b.endpoints)) return { ...b, endpoints: b.endpoints.map(strip) };
      if (Array.isArray(b.projects)) return { ...b, projects: b.projects.map(strip) };
      return body;
    });
    const c = clientFor(emu, { apiUrl: proxy.baseUrl });
    const [project] = await c.projects.listAll();
    expect(project).toMatchObject({ id: emu.projectId });
    expect(project).not.toHaveProperty("created_at");
    const { endpoint } = await createReplica(c);
    expect(endpoint.pooler_enabled).toBeUndefined();
    expect(endpoint.settings).toBeUndefined();
    expect((await c.endpoints.get(emu.projectId, endpoint.id)).id).toBe(endpoint.id);
    await c.endpoints.update(emu.projectId, endpoint.id, { suspend_timeout_seconds: 600 });
    await c.endpoints.delete(emu.projectId, endpoint.id);
    await proxy.close();
  });

  it("a write whose response fails validation is ambiguous (with the id), a read response_shape", async () => {
    await setUp();
    const proxy = await rewritingProxy(emu, (_m, _p, body) => {
      const b = body as { endpoint?: Record<string, unknown> };
      return b.endpoint ? { ...b, endpoint: { ...b.endpoint, host: undefined } } : body;
    });
    const c = clientFor(emu, { apiUrl: proxy.baseUrl });
    const error = await rejection(createReplica(c));
    expect(error).toMatchObject({ kind: "ambiguous", method: "POST", retryable: false });
    expect(error.message).toMatch(
      /^the outcome of POST \S+ is unknown: the service answered success, but .*`endpoint\.host`/,
    );
    const [made] = (await client.endpoints.listForBranch(emu.projectId, dev)).filter((e) => e.type === "read_only");
    expect(error.resourceId).toBe(made.id); // never orphaned: the caller learns what was created
    const read = await rejection(c.endpoints.get(emu.projectId, made.id));
    expect(read).toMatchObject({ kind: "response_shape", method: "GET" });
    await proxy.close();
  });
});
