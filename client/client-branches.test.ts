/**
 * Branches against the emulator over HTTP, as the OpenAPI document describes them: get with its annotation, create
 * with every documented field, update (rename, protect, expire and un-expire), restore, delete (and a delete of a
 * branch that is not there, which resolves saying so). Every change goes through the project lock: parallel changes
 * of one project meet no 423.
 */
import { Emulator } from "../emulator";
import { NeonClient } from "./client";
import { clientFor, rejection, seen, start } from "./testing.test.helpers";

let emu: Emulator;
let client: NeonClient;
let projectId: string;
let ids: Record<string, string>;

beforeAll(async () => {
  emu = await start();
  client = clientFor(emu);
  projectId = emu.projectId;
  ids = Object.fromEntries((await client.branches.list(projectId)).map((b) => [b.name, b.id]));
});
afterAll(() => emu.close());

const done = (ops: { status: string }[]) => ops.every((op) => ["finished", "skipped"].includes(op.status));
/** RFC 3339 with seconds, `days` ahead (Neon's docs allow at most 30 days ahead, and no expiry of a protected branch). */
const inDays = (days: number) => new Date(Date.now() + days * 86_400_000).toISOString().replace(/\.\d+Z$/, "Z");

describe("get", () => {
  it("answers the branch with the fields the document requires", async () => {
    const { branch } = await client.branches.get(projectId, ids.main);
    expect(branch).toMatchObject({ id: ids.main, project_id: projectId, name: "main", default: true });
    for (const field of ["current_state", "state_changed_at", "creation_source", "created_at", "updated_at"]) {
      expect(typeof (branch as Record<string, unknown>)[field]).toBe("string");
    }
    expect(typeof branch.protected).toBe("boolean");
  });
  it("an unknown branch is kind not_found (404)", async () => {
    const error = await rejection(client.branches.get(projectId, "br-no-such-branch-000000"));
    expect(error).toMatchObject({ kind: "not_found", status: 404, method: "GET" });
  });
});

describe("create", () => {
  it("sends every documented field, and the annotation beside the branch", async () => {
    const created = await client.branches.create(projectId, {
      branch: { name: "annotated", parent_id: ids.dev, protected: true, init_source: "parent-data" },
      annotation_value: { "github-commit-ref": "feature-x" },
    });
    expect(created.branch).toMatchObject({ name: "annotated", parent_id: ids.dev, protected: true });
    expect(done(created.operations)).toBe(true);
    const read = await client.branches.get(projectId, created.branch.id);
    expect(read.annotation?.value).toEqual({ "github-commit-ref": "feature-x" });
    expect(read.annotation?.object).toMatchObject({ id: created.branch.id });
  });
  it("takes the inner branch object too, with an expiry", async () => {
    const expires = inDays(7);
    const { branch } = await client.branches.create(projectId, { name: "expiring", expires_at: expires });
    expect(branch.name).toBe("expiring");
    expect(Date.parse(branch.expires_at ?? "")).toBe(Date.parse(expires));
  });
});

describe("update", () => {
  let id: string;
  beforeAll(async () => {
    id = (await client.branches.create(projectId, { name: "to-update" })).branch.id;
  });

  it("renames and protects, resolving once the operations are done", async () => {
    const updated = await client.branches.update(projectId, id, { name: "renamed", protected: true });
    expect(updated.branch).toMatchObject({ id, name: "renamed", protected: true });
    expect(done(updated.operations)).toBe(true);
    expect((await client.branches.get(projectId, id)).branch).toMatchObject({ name: "renamed", protected: true });
    expect(seen(emu, "PATCH", `/branches/${id}`).map((r) => r.status)).toEqual([200]);
  });
  it("sets an expiry, and null removes it", async () => {
    const unprotected = (await client.branches.create(projectId, { name: "to-expire" })).branch.id;
    const expires = inDays(3);
    const set = await client.branches.update(projectId, unprotected, { branch: { expires_at: expires } });
    expect(Date.parse(set.branch.expires_at ?? "")).toBe(Date.parse(expires));
    const removed = await client.branches.update(projectId, unprotected, { expires_at: null });
    expect(removed.branch.expires_at).toBeUndefined();
    expect((await client.branches.get(projectId, unprotected)).branch.expires_at).toBeUndefined();
  });
  it("an unknown branch is kind not_found", async () => {
    const error = await rejection(client.branches.update(projectId, "br-no-such-branch-000000", { name: "x" }));
    expect(error).toMatchObject({ kind: "not_found", status: 404, method: "PATCH" });
  });
});

describe("restore", () => {
  it("restores a branch from another one, keeping its previous state under a name", async () => {
    const target = (await client.branches.create(projectId, { name: "restore-target" })).branch;
    const restored = await client.branches.restore(projectId, target.id, {
      source_branch_id: ids.staging,
      preserve_under_name: "restore-target-before",
    });
    expect(restored.branch.id).toBe(target.id);
    expect(done(restored.operations)).toBe(true);
    expect((await client.branches.list(projectId)).map((b) => b.name)).toContain("restore-target-before");
    expect(seen(emu, "POST", `/branches/${target.id}/restore`).map((r) => r.status)).toEqual([200]);
  });
  it("an unknown branch is kind not_found", async () => {
    const body = { source_branch_id: ids.main };
    const error = await rejection(client.branches.restore(projectId, "br-no-such-branch-000000", body));
    expect(error).toMatchObject({ kind: "not_found", status: 404 });
  });
});

describe("delete", () => {
  it("deletes, resolving once gone; deleting again resolves saying it was not there", async () => {
    const { branch } = await client.branches.create(projectId, { name: "to-delete" });
    const deleted = await client.branches.delete(projectId, branch.id);
    expect(deleted.branch?.id).toBe(branch.id);
    expect(done(deleted.operations)).toBe(true);
    expect(await rejection(client.branches.get(projectId, branch.id))).toMatchObject({ kind: "not_found" });
    await expect(client.branches.delete(projectId, branch.id)).resolves.toEqual({ operations: [] });
    const statuses = seen(emu, "DELETE", `/branches/${branch.id}`).map((r) => r.status);
    expect(statuses[0]).toBe(200);
    expect([204, 404]).toContain(statuses[1]);
  });
  it("a delete whose response was lost is settled by reading back: gone, so resolved", async () => {
    const { branch } = await client.branches.create(projectId, { name: "lost-delete" });
    emu.faults.add({ method: "DELETE", path: `/branches/${branch.id}`, kind: "ambiguous", times: 1 });
    const deleted = await client.branches.delete(projectId, branch.id);
    // no branch (the lost response showed none); the branch's operations still running then were waited for
    expect(deleted.branch).toBeUndefined();
    expect(done(deleted.operations)).toBe(true);
    expect(seen(emu, "DELETE", `/branches/${branch.id}`).map((r) => r.fault)).toEqual(["ambiguous"]);
    expect(await rejection(client.branches.get(projectId, branch.id))).toMatchObject({ kind: "not_found" });
  });
  it("the default branch is refused, and the refusal stands", async () => {
    const error = await rejection(client.branches.delete(projectId, ids.main));
    expect(error.kind).not.toBe("not_found");
    expect(error.status).toBeGreaterThanOrEqual(400);
    expect(error.status).not.toBe(405); // the route exists: a refusal of this branch, not of the method
    expect((await client.branches.get(projectId, ids.main)).branch.id).toBe(ids.main);
  });
});

describe("a create whose response was lost", () => {
  afterEach(() => emu.faults.clear());

  it("with recover, is settled under the project lock: the branch found is waited for, and the change queued behind it meets no 423", async () => {
    emu.faults.add({ method: "POST", path: /\/branches$/, kind: "ambiguous", times: 1 });
    const before = emu.stats().byStatus["423"] ?? 0;
    const mark = emu.requests.length;
    const recover = async () => (await client.branches.list(projectId)).find((b) => b.name === "lost-answer");
    const [created, renamed] = await Promise.all([
      client.branches.create(projectId, { name: "lost-answer", parent_id: ids.dev }, { recover }),
      client.branches.update(projectId, ids.dev, { name: "dev-renamed" }),
    ]);
    expect(created.branch.name).toBe("lost-answer");
    expect(done(created.operations)).toBe(true);
    expect(renamed.branch.name).toBe("dev-renamed");
    expect(emu.stats().byStatus["423"] ?? 0).toBe(before);
    const posts = emu.requests.slice(mark).filter((r) => r.method === "POST" && r.path.endsWith("/branches"));
    expect(posts).toHaveLength(1);
    await client.branches.update(projectId, ids.dev, { name: "dev" });
    await client.branches.delete(projectId, created.branch.id);
  });

  it("with recover finding nothing, or without recover, the lost request's error stands (kind ambiguous)", async () => {
    emu.faults.add({ method: "POST", path: /\/branches$/, kind: "reset", times: 2 });
    const nothing = await rejection(
      client.branches.create(projectId, { name: "never-made" }, { recover: async () => undefined }),
    );
    expect(nothing).toMatchObject({ kind: "ambiguous" });
    expect(await rejection(client.branches.create(projectId, { name: "never-made" }))).toMatchObject({
      kind: "ambiguous",
    });
    expect((await client.branches.list(projectId)).map((b) => b.name)).not.toContain("never-made");
  });
});

describe("the project lock", () => {
  it("parallel creates, updates and deletes of one project meet no 423", async () => {
    const before = emu.stats().byStatus["423"] ?? 0;
    const created = await Promise.all(
      Array.from({ length: 5 }, (_, i) => client.branches.create(projectId, { name: `parallel-${i}` })),
    );
    await Promise.all(created.map((c, i) => client.branches.update(projectId, c.branch.id, { name: `p-${i}` })));
    const deleted = await Promise.all(created.map((c) => client.branches.delete(projectId, c.branch.id)));
    expect(deleted.every((d) => d.branch !== undefined && done(d.operations))).toBe(true);
    expect(emu.stats().byStatus["423"] ?? 0).toBe(before);
  });
});
