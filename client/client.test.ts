/** Each call's happy path and its errors (401, 404, 409, validation 400), against the emulator over HTTP. */
import { Emulator } from "../emulator";
import { NeonClient } from "./client";
import { NeonError } from "./errors";
import { EndpointCreate } from "./schemas";
import { clientFor, rejection, seen, start } from "./testing.test.helpers";

let emu: Emulator;
let client: NeonClient;
let projectId: string;
let branchIds: Record<string, string>;

beforeAll(async () => {
  emu = await start();
  client = clientFor(emu);
  projectId = emu.projectId;
  const branches = await client.branches.list(projectId);
  branchIds = Object.fromEntries(branches.map((b) => [b.name, b.id]));
});
afterAll(() => emu.close());

describe("apiKeys", () => {
  it("creates, lists and revokes a key", async () => {
    const created = await client.apiKeys.create({ key_name: "ci" });
    expect(created.key.length).toBeGreaterThan(10);
    expect((await client.apiKeys.list()).map((k) => k.id)).toContain(created.id);
    const revoked = await client.apiKeys.revoke(created.id);
    expect(revoked).toMatchObject({ id: created.id, revoked: true });
    expect((await client.apiKeys.list()).map((k) => k.id)).not.toContain(created.id);
  });
  it("a wrong key is kind auth (401), not retried", async () => {
    const wrong = clientFor(emu, { apiKey: "wrong-key-0123456789" });
    const error = await rejection(wrong.apiKeys.list());
    expect(error).toMatchObject({ kind: "auth", status: 401, method: "GET", path: "/api_keys", retryable: false });
    expect(error.message).toMatch(/^HTTP 401: .+ \(GET \/api_keys, request ID: .+\)$/);
  });
  it("a revoked key is kind auth", async () => {
    const created = await client.apiKeys.create({ key_name: "short-lived" });
    await client.apiKeys.revoke(created.id);
    const error = await rejection(clientFor(emu, { apiKey: created.key }).apiKeys.list());
    expect(error).toMatchObject({ kind: "auth", status: 401 });
  });
  it("revoking an unknown key is kind not_found (404)", async () => {
    expect(await rejection(client.apiKeys.revoke(987654321))).toMatchObject({ kind: "not_found", status: 404 });
  });
  it("an invalid name is kind validation (400)", async () => {
    const error = await rejection(client.apiKeys.create({ key_name: "x".repeat(65) }));
    expect(error).toMatchObject({ kind: "validation", status: 400 });
  });
});

describe("projects", () => {
  it("lists the account's projects", async () => {
    const projects = await client.projects.listAll();
    expect(projects.map((p) => p.id)).toEqual([projectId]);
  });
  it("iterates lazily", async () => {
    const ids: string[] = [];
    for await (const project of client.projects.iterate({ limit: 5 })) ids.push(project.id);
    expect(ids).toEqual([projectId]);
  });
  it("lists the projects shared with the account (none in the emulator)", async () => {
    expect(await client.projects.listAllShared()).toEqual([]);
  });
  it("a wrong key is kind auth", async () => {
    const error = await rejection(clientFor(emu, { apiKey: "nope-nope-nope" }).projects.listAll());
    expect(error).toMatchObject({ kind: "auth", status: 401 });
  });
});

describe("branches", () => {
  it("lists the fixture's branches", () => {
    expect(Object.keys(branchIds).sort()).toEqual(["dev", "main", "staging"]);
  });
  it("creates a branch and resolves once its operations are done", async () => {
    const created = await client.branches.create(projectId, { branch: { name: "feature" } });
    expect(created.branch.name).toBe("feature");
    expect(created.operations.every((op) => ["finished", "skipped"].includes(op.status))).toBe(true);
    expect((await client.branches.list(projectId)).map((b) => b.name)).toContain("feature");
  });
  it("an unknown project is kind not_found", async () => {
    expect(await rejection(client.branches.list("no-such-project"))).toMatchObject({ kind: "not_found", status: 404 });
  });
});

describe("endpoints", () => {
  let endpointId: string;

  it("creates a compute and resolves once it started", async () => {
    const { endpoint, operations } = await client.endpoints.create(projectId, {
      branch_id: branchIds.dev,
      type: "read_write",
      autoscaling_limit_min_cu: 0.25,
      autoscaling_limit_max_cu: 1,
    });
    endpointId = endpoint.id;
    expect(endpoint).toMatchObject({ branch_id: branchIds.dev, type: "read_write", autoscaling_limit_max_cu: 1 });
    expect(operations.map((op) => [op.action, op.status])).toEqual([["start_compute", "finished"]]);
    expect(seen(emu, "POST", `/projects/${projectId}/endpoints`).map((r) => r.status)).toEqual([201]);
  });
  it("accepts the whole request body too", async () => {
    const { endpoint } = await client.endpoints.create(projectId, {
      endpoint: { branch_id: branchIds.dev, type: "read_only" },
    });
    expect(endpoint.type).toBe("read_only");
    await client.endpoints.delete(projectId, endpoint.id);
  });
  it("gets, lists and lists by branch", async () => {
    expect((await client.endpoints.get(projectId, endpointId)).id).toBe(endpointId);
    expect((await client.endpoints.list(projectId)).map((e) => e.id)).toContain(endpointId);
    expect((await client.endpoints.listForBranch(projectId, branchIds.dev)).map((e) => e.id)).toEqual([endpointId]);
  });
  it("updates in place", async () => {
    const { endpoint } = await client.endpoints.update(projectId, endpointId, { suspend_timeout_seconds: 600 });
    expect(endpoint.suspend_timeout_seconds).toBe(600);
    expect((await client.endpoints.get(projectId, endpointId)).suspend_timeout_seconds).toBe(600);
  });
  it("restarts, suspends and starts", async () => {
    const restarted = await client.endpoints.restart(projectId, endpointId);
    expect(restarted.operations.map((op) => op.action)).toEqual(["suspend_compute", "start_compute"]);
    expect(restarted.operations.every((op) => op.status === "finished")).toBe(true);
    await client.endpoints.suspend(projectId, endpointId);
    expect((await client.endpoints.get(projectId, endpointId)).current_state).toBe("idle");
    await client.endpoints.start(projectId, endpointId);
    expect((await client.endpoints.get(projectId, endpointId)).current_state).toBe("active");
  });
  it("a second primary on a branch is kind conflict (409)", async () => {
    const error = await rejection(client.endpoints.create(projectId, { branch_id: branchIds.dev, type: "read_write" }));
    expect(error).toMatchObject({ kind: "conflict", status: 409, retryable: false });
    expect(error.message).toContain("read_write endpoint already exists");
  });
  it("an invalid size is kind validation (400)", async () => {
    const body = { branch_id: branchIds.staging, type: "read_write", autoscaling_limit_min_cu: 0.1 } as EndpointCreate;
    expect(await rejection(client.endpoints.create(projectId, body))).toMatchObject({
      kind: "validation",
      status: 400,
    });
  });
  it("an unknown compute is kind not_found (404)", async () => {
    const error = await rejection(client.endpoints.get(projectId, "ep-no-such-thing-000000"));
    expect(error).toBeInstanceOf(NeonError);
    expect(error).toMatchObject({ kind: "not_found", status: 404 });
    expect(await rejection(client.endpoints.update(projectId, "ep-nope-000000", { disabled: true }))).toMatchObject({
      kind: "not_found",
    });
  });
  it("deletes, and deleting again resolves (already gone)", async () => {
    const deleted = await client.endpoints.delete(projectId, endpointId);
    expect(deleted.endpoint?.id).toBe(endpointId);
    await expect(client.endpoints.delete(projectId, endpointId)).resolves.toEqual({ operations: [] });
    expect(await rejection(client.endpoints.get(projectId, endpointId))).toMatchObject({ kind: "not_found" });
  });
});

describe("operations", () => {
  it("lists, gets and waits for operations", async () => {
    const operations = await client.operations.list(projectId);
    expect(operations.length).toBeGreaterThan(0);
    const one = await client.operations.get(projectId, operations[0].id);
    expect(one.id).toBe(operations[0].id);
    await expect(client.operations.waitFor(projectId, [one])).resolves.toHaveLength(1);
  });
  it("an unknown operation is kind not_found", async () => {
    const error = await rejection(client.operations.get(projectId, "00000000-0000-0000-0000-000000000000"));
    expect(error).toMatchObject({ kind: "not_found", status: 404 });
  });
});

describe("requests", () => {
  it("every request carries a fresh X-Request-ID, echoed by the service", () => {
    const ids = emu.requests.map((r) => r.requestId);
    expect(ids.every((id) => typeof id === "string" && id.length > 0)).toBe(true);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
