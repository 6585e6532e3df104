import { parseCli } from "./cli-options";
import { emulatorPerTest, type Body, type TestClient } from "./test-client";

/**
 * The `pageSize` option (`--page-size`, `NEON_EMULATOR_PAGE_SIZE`): the routes the OpenAPI document pages
 * (`limit` and `cursor` on listProjects, listProjectBranches, listProjectOperations) answer pages of that size when a
 * request gives no `limit`, so that a client reading one page fails the tests; the routes the document does not page
 * (computes, roles, databases, API keys) list everything whatever it is.
 */
const boot = emulatorPerTest({ operationDurationMs: 0 });

/** Follows the cursor of `path` (`next` of branches, `cursor` of the others) to the end: each page's ids. */
async function pages(c: TestClient, path: string, field: string): Promise<string[][]> {
  const out: string[][] = [];
  let cursor: string | undefined;
  for (;;) {
    const res = await c.get(cursor === undefined ? path : `${path}?cursor=${encodeURIComponent(cursor)}`);
    expect(res.status).toBe(200);
    const ids = (res.body[field] as Body[]).map((x) => String(x.id));
    if (ids.length === 0) return out;
    out.push(ids);
    cursor = res.body.pagination?.next ?? res.body.pagination?.cursor;
    if (cursor === undefined) return out;
  }
}

describe("pageSize: small pages on the routes that page", () => {
  it("branches: pages of pageSize without limit, the cursor leads to the rest; an explicit limit is honoured", async () => {
    const w = await boot({ pageSize: 2 });
    for (const name of ["b1", "b2"])
      expect((await w.c.post(`/projects/${w.pid}/branches`, { branch: { name } })).status).toBe(201);
    const walked = await pages(w.c, `/projects/${w.pid}/branches`, "branches");
    expect(walked.map((p) => p.length)).toEqual([2, 2, 1]);
    expect(new Set(walked.flat()).size).toBe(5);
    const all = await w.c.get(`/projects/${w.pid}/branches?limit=10`);
    expect(all.body.branches).toHaveLength(5);
    expect(all.body.pagination.next).toBeUndefined();
  });

  it("projects and operations: pages of pageSize without limit; without the option, the documented 10", async () => {
    const w = await boot({
      pageSize: 1,
      fixture: { accounts: [{ projects: [{ name: "a" }, { name: "b" }, { name: "c" }] }] },
    });
    expect((await pages(w.c, "/projects", "projects")).map((p) => p.length)).toEqual([1, 1, 1]);
    for (const name of ["x", "y"])
      expect((await w.c.post(`/projects/${w.pid}/branches`, { branch: { name } })).status).toBe(201);
    const ops = await pages(w.c, `/projects/${w.pid}/operations`, "operations");
    expect(ops.map((p) => p.length)).toEqual([1, 1]);
    const plain = await boot({ fixture: { accounts: [{ projects: [{ name: "a" }, { name: "b" }, { name: "c" }] }] } });
    expect((await plain.c.get("/projects")).body.projects).toHaveLength(3);
  });

  it("computes, roles, databases and API keys are not paged (the document gives them no limit or cursor)", async () => {
    const w = await boot({ pageSize: 1 });
    const main = (await w.c.get(`/projects/${w.pid}/branches?limit=10`)).body.branches.find((b: Body) => b.default);
    const on = `/projects/${w.pid}/branches/${main.id}`;
    await w.c.post(`/projects/${w.pid}/endpoints`, { endpoint: { branch_id: main.id, type: "read_only" } });
    expect((await w.c.post(`${on}/roles`, { role: { name: "second" } })).status).toBe(201);
    expect((await w.c.post(`${on}/databases`, { database: { name: "two", owner_name: "second" } })).status).toBe(201);
    expect((await w.c.post("/api_keys", { key_name: "another" })).status).toBe(200);
    expect((await w.c.get(`/projects/${w.pid}/endpoints`)).body.endpoints).toHaveLength(2);
    expect((await w.c.get(`${on}/endpoints`)).body.endpoints).toHaveLength(2);
    expect((await w.c.get(`${on}/roles`)).body.roles).toHaveLength(2);
    expect((await w.c.get(`${on}/databases`)).body.databases).toHaveLength(2);
    expect((await w.c.get("/api_keys")).body).toHaveLength(2);
  });

  it("the CLI takes --page-size, else NEON_EMULATOR_PAGE_SIZE; anything but an integer ≥ 1 is refused, naming both", () => {
    expect(parseCli(["--page-size", "3"], {}).pageSize).toBe(3);
    expect(parseCli([], { NEON_EMULATOR_PAGE_SIZE: "2" }).pageSize).toBe(2);
    expect(parseCli(["--page-size", "4"], { NEON_EMULATOR_PAGE_SIZE: "2" }).pageSize).toBe(4);
    expect(parseCli([], {}).pageSize).toBeUndefined();
    expect(() => parseCli(["--page-size", "0"], {})).toThrow(
      /--page-size \(or NEON_EMULATOR_PAGE_SIZE\) needs an integer ≥ 1, got "0"/,
    );
    expect(() => parseCli([], { NEON_EMULATOR_PAGE_SIZE: "x" })).toThrow(/NEON_EMULATOR_PAGE_SIZE/);
  });
});
