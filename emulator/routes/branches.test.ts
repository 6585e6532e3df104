import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LOCKED_MESSAGE } from "../errors";
import { emulatorPerTest, primaryEndpoint, type Body, type TestWorld } from "../test-client";

/**
 * Branch routes over HTTP (OpenAPI createProjectBranch, listProjectBranches, getProjectBranch, updateProjectBranch,
 * deleteProjectBranch, restoreProjectBranch): the documented shapes, each rule and refusal, the project lock, expiry on
 * the emulator's clock, and a state file round trip.
 */
const boot = emulatorPerTest({ operationDurationMs: 0 });

const iso = (ms: number): string => new Date(ms).toISOString().replace(/\.\d{3}Z$/, "Z");
const HOUR = 3600_000;

describe("branch routes", () => {
  let w: TestWorld;
  let base: string;
  const post = (body?: unknown) => w.c.post(base, body);
  const one = (id: string) => `${base}/${id}`;

  /** This test's emulator (the one before closed), its clock on a whole second so that TTLs come out exact. */
  async function reboot(options: Parameters<typeof boot>[0] = {}): Promise<TestWorld> {
    if (w !== undefined) {
      w.c.close();
      await w.em.close();
    }
    w = await boot(options);
    w.em.clock.advance(1000 - (w.em.clock.now() % 1000));
    base = `/projects/${w.pid}/branches`;
    return w;
  }

  beforeEach(async () => {
    await reboot();
  });

  describe("create", () => {
    it("defaults: from the default branch, a child with a parent_lsn, init then ready, roles and databases copied", async () => {
      const res = await post({ branch: { name: "feature" } });
      expect(res.status).toBe(201);
      const b = res.body.branch;
      expect(b).toMatchObject({
        project_id: w.pid,
        parent_id: w.em.branches.main,
        name: "feature",
        current_state: "init",
        pending_state: "ready",
        default: false,
        protected: false,
        init_source: "parent-data",
        creation_source: "console",
      });
      expect(b.parent_lsn).toMatch(/^[0-9A-F]+\/[0-9A-F]+$/);
      for (const k of [
        "cpu_used_sec",
        "active_time_seconds",
        "compute_time_seconds",
        "written_data_bytes",
        "data_transfer_bytes",
      ]) {
        expect(typeof b[k]).toBe("number");
      }
      expect(res.body.operations.map((o: Body) => [o.action, o.status])).toEqual([["create_branch", "running"]]);
      expect(res.body.roles.map((r: Body) => r.name)).toEqual(["neondb_owner"]);
      expect(res.body.roles[0].password).toBeUndefined();
      expect(res.body.databases).toEqual([
        expect.objectContaining({ name: "neondb", owner_name: "neondb_owner", branch_id: b.id }),
      ]);
      expect(res.body.connection_uris).toEqual([]); // no compute was asked for
      w.em.clock.advance(1);
      const got = await w.c.get(one(b.id));
      expect(got.body.branch).toMatchObject({ current_state: "ready" });
      expect(got.body.branch.pending_state).toBeUndefined();
    });

    it("an unnamed branch is named by its id; a body is optional; parent_id empty means the default branch", async () => {
      const res = await post();
      expect(res.status).toBe(201);
      expect(res.body.branch.name).toBe(res.body.branch.id);
      const empty = await post({ branch: { parent_id: "", name: "x" } });
      expect(empty.body.branch.parent_id).toBe(w.em.branches.main);
    });

    it("with a read_write compute: connection_uris for its one role and database", async () => {
      const res = await post({ branch: { name: "with-compute" }, endpoints: [{ type: "read_write" }] });
      const ep = res.body.endpoints[0];
      const [details] = res.body.connection_uris;
      const pw = (await w.c.get(`${one(w.em.branches.main)}/roles/neondb_owner/reveal_password`)).body.password;
      expect(details.connection_parameters).toEqual({
        database: "neondb",
        password: pw, // a child has its parent's passwords
        role: "neondb_owner",
        host: ep.host,
        pooler_host: ep.host.replace(ep.id, `${ep.id}-pooler`),
      });
      expect(details.connection_uri).toBe(
        `postgresql://neondb_owner:${pw}@${ep.host}/neondb?sslmode=require&channel_binding=require`,
      );
    });

    it("names are unique in a project: 409 `branch already exists`; a branch is found by name through search", async () => {
      expect((await post({ branch: { name: "same" } })).status).toBe(201);
      const again = await post({ branch: { name: "same" } });
      expect(again.status).toBe(409);
      expect(again.body.message).toBe('branch already exists; branch_name:"same"');
      expect((await post({ branch: { name: "dev" } })).status).toBe(409);
      const found = await w.c.get(`${base}?search=sam`);
      expect(found.body.branches.map((b: Body) => b.name)).toEqual(["same"]);
    });

    it.each([
      [{ branch: { name: "" } }, "branch.name"],
      [{ branch: { name: "x".repeat(257) } }, "branch.name"],
      [{ branch: { parent_lsn: "1DE2850" } }, "branch.parent_lsn"],
      [
        { branch: { parent_lsn: "0/1DE2850", parent_timestamp: "2024-01-01T00:00:00Z" } },
        "parent_lsn and branch.parent_timestamp",
      ],
      [{ branch: { parent_timestamp: "yesterday" } }, "branch.parent_timestamp"],
      [{ branch: { parent_timestamp: "2024-02-30T00:00:00Z" } }, "branch.parent_timestamp"],
      [{ branch: { init_source: "data" } }, "branch.init_source"],
      [{ branch: { protected: "yes" } }, "branch.protected"],
      [{ branch: { expires_at: "2030-01-01T00:00:00" } }, "branch.expires_at"],
      [{ branch: { expires_at: 12 } }, "branch.expires_at"],
      [{ annotation_value: { a: 1 } }, "annotation_value.a"],
      [{ annotation_value: ["a"] }, "annotation_value"],
      [{ annotation_value: Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`k${i}`, "v"])) }, "at most 50"],
    ])("%j is 400 naming %s, and creates nothing", async (body, field) => {
      const res = await post(body);
      expect(res.status).toBe(400);
      expect(res.body.message).toContain(field);
      expect((await w.c.get(base)).body.branches).toHaveLength(3);
    });

    it("parent_timestamp: in the future or before the parent existed is 400; a past point keeps what existed then", async () => {
      const created = w.em.clock.now();
      w.em.clock.advance(HOUR);
      const future = await post({ branch: { parent_timestamp: iso(w.em.clock.now() + 60_000) } });
      expect([future.status, future.body.message]).toEqual([400, expect.stringContaining("in the future")]);
      const early = await post({ branch: { parent_timestamp: iso(created - 60_000) } });
      expect([early.status, early.body.message]).toEqual([
        400,
        expect.stringContaining("before branch main was created"),
      ]);
      const point = w.em.clock.now();
      w.em.clock.advance(60_000);
      await w.c.post(`${one(w.em.branches.main)}/roles`, { role: { name: "later" } });
      const res = await post({ branch: { name: "pitr", parent_timestamp: iso(point) } });
      expect(res.status).toBe(201);
      expect(res.body.branch.parent_timestamp).toBe(new Date(point).toISOString());
      expect(res.body.roles.map((r: Body) => r.name)).toEqual(["neondb_owner"]); // `later` did not exist then
    });

    it("schema-only: a root branch without a parent relationship, with the roles and databases", async () => {
      const res = await post({ branch: { name: "schema", parent_id: w.em.branches.dev, init_source: "schema-only" } });
      expect(res.status).toBe(201);
      expect(res.body.branch.parent_id).toBeUndefined();
      expect(res.body.branch.parent_lsn).toBeUndefined();
      expect(res.body.branch.init_source).toBe("schema-only");
      expect(res.body.databases.map((d: Body) => d.name)).toEqual(["neondb"]);
    });

    it("a child of a protected branch gets new role passwords; others keep their parent's", async () => {
      const guarded = (await post({ branch: { name: "guarded", protected: true } })).body.branch;
      const parentPw = (await w.c.get(`${one(guarded.id)}/roles/neondb_owner/reveal_password`)).body.password;
      const mainPw = (await w.c.get(`${one(w.em.branches.main)}/roles/neondb_owner/reveal_password`)).body.password;
      expect(parentPw).toBe(mainPw);
      const child = (await post({ branch: { name: "child", parent_id: guarded.id } })).body.branch;
      const childPw = (await w.c.get(`${one(child.id)}/roles/neondb_owner/reveal_password`)).body.password;
      expect(childPw).not.toBe(parentPw);
      expect(childPw).toMatch(/^[A-Za-z0-9]{12}$/);
    });

    it("annotation_value: the branch's annotation on GET, and in the list's annotations map", async () => {
      const res = await post({ branch: { name: "annotated" }, annotation_value: { "github-commit-ref": "feature-x" } });
      const id = res.body.branch.id;
      const got = await w.c.get(one(id));
      expect(got.body.annotation).toMatchObject({
        object: { type: "console/branch", id },
        value: { "github-commit-ref": "feature-x" },
      });
      expect(typeof got.body.annotation.created_at).toBe("string");
      const plain = await w.c.get(one(w.em.branches.dev));
      expect(plain.body.annotation).toEqual({ object: { type: "console/branch", id: w.em.branches.dev }, value: {} });
      const list = await w.c.get(base);
      expect(Object.keys(list.body.annotations)).toEqual([id]);
      expect(list.body.annotations[id].value).toEqual({ "github-commit-ref": "feature-x" });
    });

    it("expires_at: RFC 3339 to the second, in the future, at most 30 days ahead, not with protected", async () => {
      const now = w.em.clock.now();
      const at = new Date(now + 2 * HOUR + 500).toISOString(); // fractional seconds: only seconds are kept
      const res = await post({ branch: { name: "temp", expires_at: at } });
      expect(res.status).toBe(201);
      expect(res.body.branch.expires_at).toBe(iso(now + 2 * HOUR));
      expect(res.body.branch.ttl_interval_seconds).toBe(7200);
      const offset = await post({ branch: { name: "offset", expires_at: "2099-01-01T00:00:00+02:00" } });
      expect([offset.status, offset.body.message]).toEqual([400, expect.stringContaining("more than 30 days")]);
      const past = await post({ branch: { expires_at: iso(now - 1000) } });
      expect([past.status, past.body.message]).toEqual([400, expect.stringContaining("not in the future")]);
      const both = await post({ branch: { protected: true, expires_at: iso(now + HOUR) } });
      expect([both.status, both.body.message]).toEqual([
        400,
        expect.stringContaining("protected branch cannot expire"),
      ]);
      const child = await post({ branch: { name: "of-temp", parent_id: res.body.branch.id } });
      expect([child.status, child.body.message]).toEqual([422, expect.stringContaining("expiring branch")]);
    });

    it("a parent that does not exist is 404", async () => {
      const res = await post({ branch: { parent_id: "br-none-123456" } });
      expect([res.status, res.body.message]).toEqual([404, "branch not found"]);
    });
  });

  describe("list and get", () => {
    it("sorts by updated_at desc by default; sort_by, sort_order, limit and cursor page through", async () => {
      for (const name of ["b1", "b2", "b3"]) {
        w.em.clock.advance(1000);
        await post({ branch: { name } });
      }
      const all = await w.c.get(base);
      expect(all.body.branches.map((b: Body) => b.name).slice(0, 3)).toEqual(["b3", "b2", "b1"]);
      expect(all.body.pagination).toEqual({ sort_by: "updated_at", sort_order: "desc" });
      const names: string[] = [];
      let cursor: string | undefined;
      do {
        const q = `?sort_by=name&sort_order=asc&limit=2${cursor ? `&cursor=${cursor}` : ""}`;
        const page = await w.c.get(`${base}${q}`);
        expect(page.status).toBe(200);
        names.push(...page.body.branches.map((b: Body) => b.name));
        cursor = page.body.pagination.next;
      } while (cursor);
      expect(names).toEqual(["b1", "b2", "b3", "dev", "main", "staging"]);
      const byCursor = await w.c.get(`${base}?limit=1`);
      const next = await w.c.get(`${base}?cursor=${byCursor.body.pagination.next}`);
      expect(next.body.branches[0].name).toBe("b2");
    });

    it.each([
      ["sort_by=size", "sort_by"],
      ["sort_order=up", "sort_order"],
      ["limit=0", "limit"],
      ["limit=10001", "limit"],
      ["cursor=garbage", "cursor"],
    ])("?%s is 400 naming %s", async (q, field) => {
      const res = await w.c.get(`${base}?${q}`);
      expect(res.status).toBe(400);
      expect(res.body.message).toContain(field);
    });

    it("get of an unknown branch, or in an unknown project, is 404", async () => {
      expect((await w.c.get(one("br-none-123456"))).body.message).toBe("branch not found");
      expect((await w.c.get(`/projects/no-such/branches/${w.em.branches.dev}`)).status).toBe(404);
    });
  });

  describe("update", () => {
    it("renames, protects and unprotects; answers {branch, operations: []}", async () => {
      const id = w.em.branches.dev;
      w.em.clock.advance(1000);
      const res = await w.c.patch(one(id), { branch: { name: "develop", protected: true } });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({
        branch: expect.objectContaining({ name: "develop", protected: true }),
        operations: [],
      });
      expect(res.body.branch.updated_at).not.toBe(res.body.branch.created_at);
      const off = await w.c.patch(one(id), { branch: { protected: false } });
      expect(off.body.branch.protected).toBe(false);
      const taken = await w.c.patch(one(id), { branch: { name: "staging" } });
      expect([taken.status, taken.body.message]).toEqual([409, 'branch already exists; branch_name:"staging"']);
      expect((await w.c.patch(one(id), { branch: { name: "develop" } })).status).toBe(200); // its own name
    });

    it("expires_at: set, replaced, removed with null; the expiration rules", async () => {
      const id = w.em.branches.dev;
      const now = w.em.clock.now();
      const set = await w.c.patch(one(id), { branch: { expires_at: iso(now + HOUR) } });
      expect(set.body.branch).toMatchObject({ expires_at: iso(now + HOUR), ttl_interval_seconds: 3600 });
      const protect = await w.c.patch(one(id), { branch: { protected: true } });
      expect([protect.status, protect.body.message]).toEqual([422, expect.stringContaining("cannot be protected")]);
      const both = await w.c.patch(one(id), { branch: { protected: true, expires_at: iso(now + HOUR) } });
      expect(both.status).toBe(400);
      const swap = await w.c.patch(one(id), { branch: { protected: true, expires_at: null } });
      expect(swap.body.branch).toMatchObject({ protected: true });
      expect(swap.body.branch.expires_at).toBeUndefined();
      expect(swap.body.branch.ttl_interval_seconds).toBeUndefined();
      const onProtected = await w.c.patch(one(id), { branch: { expires_at: iso(now + HOUR) } });
      expect([onProtected.status, onProtected.body.message]).toEqual([422, expect.stringContaining("protected")]);
      const onDefault = await w.c.patch(one(w.em.branches.main), { branch: { expires_at: iso(now + HOUR) } });
      expect([onDefault.status, onDefault.body.message]).toEqual([422, expect.stringContaining("default branch")]);
      const parent = (await post({ branch: { name: "parent" } })).body.branch;
      await post({ branch: { name: "kid", parent_id: parent.id } });
      const onParent = await w.c.patch(one(parent.id), { branch: { expires_at: iso(now + HOUR) } });
      expect([onParent.status, onParent.body.message]).toEqual([422, expect.stringContaining("child branches (kid)")]);
    });

    it.each([
      [{}, "branch"],
      [{ branch: { name: "" } }, "branch.name"],
      [{ branch: { protected: 1 } }, "branch.protected"],
      [{ branch: { expires_at: "soon" } }, "branch.expires_at"],
    ])("%j is 400 naming %s", async (body, field) => {
      const res = await w.c.patch(one(w.em.branches.dev), body);
      expect(res.status).toBe(400);
      expect(res.body.message).toContain(field);
    });
  });

  describe("delete", () => {
    it("answers {branch, operations}: suspend_compute of each compute, then delete_timeline; its computes, roles and databases go", async () => {
      const made = await post({
        branch: { name: "doomed" },
        endpoints: [{ type: "read_write" }, { type: "read_only" }],
      });
      const id = made.body.branch.id;
      const res = await w.c.del(one(id));
      expect(res.status).toBe(200);
      expect(res.body.branch).toMatchObject({ id, name: "doomed" });
      expect(res.body.operations.map((o: Body) => [o.action, o.status, o.endpoint_id])).toEqual([
        ["suspend_compute", "running", made.body.endpoints[0].id],
        ["suspend_compute", "running", made.body.endpoints[1].id],
        ["delete_timeline", "scheduling", undefined],
      ]);
      expect((await w.c.get(one(id))).status).toBe(404);
      expect((await w.c.get(`/projects/${w.pid}/endpoints/${made.body.endpoints[0].id}`)).status).toBe(404);
      expect((await w.c.get(`${one(id)}/roles`)).status).toBe(404);
      expect((await w.c.get(`${base}?search=doomed`)).body.branches).toEqual([]);
      const again = await w.c.del(one(id)); // OpenAPI: 204 "if the branch doesn't exist or has already been deleted"
      expect([again.status, again.body]).toEqual([204, undefined]);
      expect((await w.c.del(one("br-never-123456"))).status).toBe(204);
      expect((await w.c.del(`/projects/no-such/branches/${id}`)).status).toBe(404);
    });

    it("without computes: a lone delete_timeline", async () => {
      const res = await w.c.del(one(w.em.branches.staging));
      expect(res.body.operations.map((o: Body) => [o.action, o.status])).toEqual([["delete_timeline", "running"]]);
    });

    it("refuses the default branch, a protected branch and a branch with children (422 naming why)", async () => {
      const main = await w.c.del(one(w.em.branches.main));
      expect([main.status, main.body.message]).toEqual([422, expect.stringContaining("default branch")]);
      await w.c.patch(one(w.em.branches.dev), { branch: { protected: true } });
      const guarded = await w.c.del(one(w.em.branches.dev));
      expect([guarded.status, guarded.body.message]).toEqual([422, expect.stringContaining("protected")]);
      const parent = (await post({ branch: { name: "parent" } })).body.branch;
      await post({ branch: { name: "kid", parent_id: parent.id } });
      const withKids = await w.c.del(one(parent.id));
      expect([withKids.status, withKids.body.message]).toEqual([422, expect.stringContaining("child branches (kid)")]);
      expect((await w.c.get(base)).body.branches).toHaveLength(5);
    });
  });

  describe("restore", () => {
    it("to the parent's head: create_timeline, the running compute restarts, the parent's roles and databases replace its own", async () => {
      const made = await post({ branch: { name: "work" }, endpoints: [{ type: "read_write" }] });
      const id = made.body.branch.id;
      const ep = made.body.endpoints[0];
      await w.c.post(`${one(id)}/roles`, { role: { name: "local" } });
      await w.c.post(`${one(w.em.branches.main)}/databases`, {
        database: { name: "fresh", owner_name: "neondb_owner" },
      });
      const res = await w.c.post(`${one(id)}/restore`, { source_branch_id: w.em.branches.main });
      expect(res.status).toBe(200);
      expect(res.body.branch).toMatchObject({
        id,
        name: "work",
        parent_id: w.em.branches.main,
        last_reset_at: expect.any(String),
      });
      expect(res.body.operations.map((o: Body) => [o.action, o.status, o.endpoint_id])).toEqual([
        ["create_timeline", "running", undefined],
        ["suspend_compute", "scheduling", ep.id],
        ["start_compute", "scheduling", ep.id],
      ]);
      const roles = (await w.c.get(`${one(id)}/roles`)).body.roles.map((r: Body) => r.name);
      expect(roles).toEqual(["neondb_owner"]);
      const dbs = (await w.c.get(`${one(id)}/databases`)).body.databases.map((d: Body) => d.name);
      expect(dbs).toEqual(["neondb", "fresh"]);
      w.em.clock.advance(1);
      expect((await w.c.get(`/projects/${w.pid}/endpoints/${ep.id}`)).body.endpoint.current_state).toBe("active");
    });

    it("is `resetting` while create_timeline runs, its compute restarts after it, expires_at moves by the TTL", async () => {
      const { em, c, pid } = await reboot({ operationDurationMs: 1000 });
      const b = `/projects/${pid}/branches`;
      const made = await c.post(b, {
        branch: { name: "ttl", expires_at: iso(em.clock.now() + HOUR) },
        endpoints: [{ type: "read_write", suspend_timeout_seconds: -1 }], // running all along
      });
      const ep = `/projects/${pid}/endpoints/${made.body.endpoints[0].id}`;
      em.clock.advance(10 * 60_000);
      const res = await c.post(`${b}/${made.body.branch.id}/restore`, { source_branch_id: em.branches.main });
      expect(res.status).toBe(200);
      expect(res.body.branch).toMatchObject({ current_state: "resetting", pending_state: "ready" });
      expect(res.body.branch.expires_at).toBe(iso(em.clock.now() + HOUR));
      em.clock.advance(2000);
      expect((await c.get(`${b}/${made.body.branch.id}`)).body.branch.current_state).toBe("ready");
      expect((await c.get(ep)).body.endpoint.pending_state).toBe("active"); // suspend ended, start runs
      em.clock.advance(1000);
      expect((await c.get(ep)).body.endpoint).toMatchObject({ current_state: "active" });
    });

    it("preserve_under_name keeps the old state as a new branch, which becomes the parent and takes the children", async () => {
      const work = (await post({ branch: { name: "work" } })).body.branch;
      const kid = (await post({ branch: { name: "kid", parent_id: work.id } })).body.branch;
      await w.c.post(`${one(work.id)}/roles`, { role: { name: "local" } });
      const noName = await w.c.post(`${one(work.id)}/restore`, { source_branch_id: w.em.branches.main });
      expect([noName.status, noName.body.message]).toEqual([
        400,
        expect.stringContaining("preserve_under_name is required"),
      ]);
      const taken = await w.c.post(`${one(work.id)}/restore`, {
        source_branch_id: w.em.branches.main,
        preserve_under_name: "dev",
      });
      expect(taken.status).toBe(409);
      const res = await w.c.post(`${one(work.id)}/restore`, {
        source_branch_id: w.em.branches.main,
        preserve_under_name: "work_old",
      });
      expect(res.status).toBe(200);
      const backup = (await w.c.get(`${base}?search=work_old`)).body.branches[0];
      expect(backup.parent_id).toBe(w.em.branches.main);
      expect(res.body.branch.parent_id).toBe(backup.id);
      expect((await w.c.get(one(kid.id))).body.branch.parent_id).toBe(backup.id);
      const kept = (await w.c.get(`${one(backup.id)}/roles`)).body.roles.map((r: Body) => r.name);
      expect(kept).toEqual(["neondb_owner", "local"]);
      expect((await w.c.get(`${one(work.id)}/roles/local`)).status).toBe(404);
    });

    it("to its own history needs a point and preserve_under_name; drops what came after", async () => {
      const work = (await post({ branch: { name: "work" } })).body.branch;
      w.em.clock.advance(60_000);
      const point = w.em.clock.now();
      w.em.clock.advance(60_000);
      await w.c.post(`${one(work.id)}/roles`, { role: { name: "later" } });
      const self = { source_branch_id: work.id };
      const noPoint = await w.c.post(`${one(work.id)}/restore`, { ...self, preserve_under_name: "old" });
      expect([noPoint.status, noPoint.body.message]).toEqual([
        400,
        expect.stringContaining("source_lsn or source_timestamp"),
      ]);
      const noName = await w.c.post(`${one(work.id)}/restore`, { ...self, source_timestamp: iso(point) });
      expect([noName.status, noName.body.message]).toEqual([400, expect.stringContaining("preserve_under_name")]);
      const both = await w.c.post(`${one(work.id)}/restore`, {
        ...self,
        source_timestamp: iso(point),
        source_lsn: "0/1",
      });
      expect(both.status).toBe(400);
      const res = await w.c.post(`${one(work.id)}/restore`, {
        ...self,
        source_timestamp: iso(point),
        preserve_under_name: "old",
      });
      expect(res.status).toBe(200);
      expect(res.body.branch.parent_timestamp).toBe(new Date(point).toISOString());
      expect((await w.c.get(`${one(work.id)}/roles`)).body.roles.map((r: Body) => r.name)).toEqual(["neondb_owner"]);
    });

    it("a protected branch cannot be reset from its parent (422); bad bodies are 400; an unknown source 404", async () => {
      await w.c.patch(one(w.em.branches.dev), { branch: { protected: true } });
      const res = await w.c.post(`${one(w.em.branches.dev)}/restore`, { source_branch_id: w.em.branches.main });
      expect([res.status, res.body.message]).toEqual([422, expect.stringContaining("protected")]);
      const noSource = await w.c.post(`${one(w.em.branches.staging)}/restore`, {});
      expect([noSource.status, noSource.body.message]).toEqual([400, "source_branch_id is required"]);
      const unknown = await w.c.post(`${one(w.em.branches.staging)}/restore`, { source_branch_id: "br-none-123456" });
      expect(unknown.status).toBe(404);
    });
  });

  describe("the project lock", () => {
    it("create, update, delete and restore answer 423 while an operation runs, and change nothing", async () => {
      const { em, c, pid } = await reboot({ operationDurationMs: 1000 });
      const b = `/projects/${pid}/branches`;
      const ep = await primaryEndpoint(c, pid);
      await c.post(`/projects/${pid}/endpoints/${ep.id}/restart`);
      const refused = [
        await c.post(b, { branch: { name: "late" } }),
        await c.patch(`${b}/${em.branches.dev}`, { branch: { name: "renamed" } }),
        await c.del(`${b}/${em.branches.staging}`),
        await c.post(`${b}/${em.branches.dev}/restore`, { source_branch_id: em.branches.main }),
      ];
      for (const r of refused) expect([r.status, r.body.message]).toEqual([423, LOCKED_MESSAGE]);
      expect((await c.get(b)).body.branches.map((x: Body) => x.name).sort()).toEqual(["dev", "main", "staging"]);
      em.clock.advance(5000);
      expect((await c.post(b, { branch: { name: "late" } })).status).toBe(201);
    });

    it("a delete's operations lock the project until they end", async () => {
      const { em, c, pid } = await reboot({ operationDurationMs: 1000 });
      const b = `/projects/${pid}/branches`;
      expect((await c.del(`${b}/${em.branches.staging}`)).status).toBe(200);
      expect((await c.patch(`${b}/${em.branches.dev}`, { branch: { name: "x" } })).status).toBe(423);
      em.clock.advance(1000);
      expect((await c.patch(`${b}/${em.branches.dev}`, { branch: { name: "x" } })).status).toBe(200);
    });
  });

  describe("expiry on the clock", () => {
    it("an expired branch is deleted with its computes at the next read; its delete's operations are listed", async () => {
      const now = w.em.clock.now(); // a whole second: expires_at is exactly now + 1 h
      const made = await post({
        branch: { name: "temp", expires_at: iso(now + HOUR) },
        endpoints: [{ type: "read_write" }],
      });
      const id = made.body.branch.id;
      w.em.clock.advance(HOUR - 1000);
      expect((await w.c.get(one(id))).status).toBe(200);
      w.em.clock.advance(1000);
      expect((await w.c.get(one(id))).status).toBe(404);
      expect((await w.c.get(base)).body.branches.map((b: Body) => b.name)).not.toContain("temp");
      expect((await w.c.get(`/projects/${w.pid}/endpoints/${made.body.endpoints[0].id}`)).status).toBe(404);
      const ops = (await w.c.get(`/projects/${w.pid}/operations`)).body.operations;
      expect(ops.slice(0, 2).map((o: Body) => o.action)).toEqual(["delete_timeline", "suspend_compute"]);
      expect(ops[0].created_at).toBe(new Date(now + HOUR).toISOString());
      expect((await post({ branch: { name: "temp" } })).status).toBe(201); // the name is free again
    });
  });

  describe("state file", () => {
    it("keeps branches' fields, annotations, roles (passwords beside the file) and databases", async () => {
      const stateFile = join(mkdtempSync(join(tmpdir(), "neon-emu-")), "s.json");
      const a = await reboot({ stateFile });
      const exp = iso(a.em.clock.now() + HOUR);
      const made = await a.c.post(`/projects/${a.pid}/branches`, {
        branch: { name: "kept", expires_at: exp },
        annotation_value: { k: "v" },
      });
      const id = made.body.branch.id;
      const b = `/projects/${a.pid}/branches/${id}`;
      const role = (await a.c.post(`${b}/roles`, { role: { name: "app" } })).body.role;
      await a.c.post(`${b}/databases`, { database: { name: "appdb", owner_name: "app" } });
      await a.em.close(); // saves
      const { readFileSync } = await import("node:fs");
      expect(readFileSync(stateFile, "utf8")).not.toContain(role.password);
      const again = await reboot({ stateFile });
      const got = await again.c.get(b);
      expect(got.body.branch).toMatchObject({ name: "kept", expires_at: exp, ttl_interval_seconds: 3600 });
      expect(got.body.annotation.value).toEqual({ k: "v" });
      expect((await again.c.get(`${b}/roles/app/reveal_password`)).body.password).toBe(role.password);
      expect((await again.c.get(`${b}/databases/appdb`)).body.database).toMatchObject({ owner_name: "app" });
      const pw = (
        await again.c.get(`/projects/${a.pid}/branches/${again.em.branches.main}/roles/neondb_owner/reveal_password`)
      ).body;
      expect(pw.password).toMatch(/^[A-Za-z0-9]{12}$/);
    });
  });

  it("an ambiguous create (applied, response lost) leaves a branch its name finds", async () => {
    w.em.faults.add({ method: "POST", path: /\/branches$/, kind: "ambiguous" });
    await expect(post({ branch: { name: "lost-reply" } })).rejects.toThrow();
    w.c.close();
    const fresh = new (await import("../test-client")).TestClient(w.em.baseUrl, w.em.apiKey);
    const found = await fresh.get(`${base}?search=lost-reply`);
    expect(found.body.branches.map((b: Body) => b.name)).toEqual(["lost-reply"]);
    expect((await fresh.post(base, { branch: { name: "lost-reply" } })).status).toBe(409);
    fresh.close();
  });
});
