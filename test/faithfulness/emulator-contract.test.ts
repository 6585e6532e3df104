/**
 * Every route of the emulator over real HTTP, every response validated against the contract (the
 * recorder checks each one; the last test of each block fails if any broke the contract), plus the status
 * codes and messages of api.md that a schema cannot express (201 vs 200, 409/423 wording, request ids).
 * Guards against: an emulator that "works" with our own client but answers shapes the real service never sends.
 */
import { contractOperations } from "../openapi/contract";
import {
  branchesByName,
  listEndpoints,
  settle,
  startWorld,
  type EndpointBody,
  type OperationBody,
  type World,
} from "./harness";

const LOCKED = "project already has running conflicting operations, scheduling of new ones is prohibited";

describe("emulator routes against the contract (default world)", () => {
  let world: World;
  let projectId: string;
  let branches: Map<string, string>;
  const base = (): string => `/projects/${projectId}`;

  beforeAll(async () => {
    world = await startWorld();
    projectId = world.emulator.projectId;
    branches = await branchesByName(world);
  });
  afterAll(() => world.close());

  it("starts with one project, branches main/dev/staging and only main's primary compute", async () => {
    const projects = await world.http.request({ method: "GET", path: "/projects" });
    expect(projects.status).toBe(200);
    expect((projects.body as { projects: { id: string }[] }).projects.map((p) => p.id)).toEqual([projectId]);
    expect([...branches.keys()].sort()).toEqual(["dev", "main", "staging"]);
    const endpoints = await listEndpoints(world);
    expect(endpoints.map((e) => [e.branch_id, e.type])).toEqual([[branches.get("main"), "read_write"]]);
  });

  it("creates, lists, uses and revokes API keys (200 on create and revoke, no secret when listing)", async () => {
    const created = await world.http.request({ method: "POST", path: "/api_keys", json: { key_name: "ci" } });
    expect(created.status).toBe(200);
    const key = created.body as { id: number; key: string; name: string };
    expect(key.key).toMatch(/^[A-Za-z0-9]{64}$/);
    expect(key.name).toBe("ci");
    const used = await world.http.request({ method: "GET", path: "/api_keys", apiKey: key.key });
    expect(used.status).toBe(200);
    const listed = (used.body as { id: number; last_used_at: string | null }[]).find((k) => k.id === key.id);
    expect(listed).toBeDefined();
    expect(listed?.last_used_at).not.toBeNull();
    expect(JSON.stringify(used.body)).not.toContain(key.key);
    const revoked = await world.http.request({ method: "DELETE", path: `/api_keys/${key.id}` });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ id: key.id, revoked: true });
    const after = await world.http.request({ method: "GET", path: "/api_keys", apiKey: key.key });
    expect(after.status).toBe(401);
    const list = await world.http.request({ method: "GET", path: "/api_keys" });
    expect((list.body as { id: number }[]).map((k) => k.id)).not.toContain(key.id);
    expect((await world.http.request({ method: "DELETE", path: `/api_keys/${key.id + 1000}` })).status).toBe(404);
  });

  it("creates, lists and revokes organization keys; a project-scoped key uses its project and gets 403 elsewhere", async () => {
    const { orgId, projectIds } = world.emulator.createOrganization({ projects: 2 });
    const keysPath = `/organizations/${orgId}/api_keys`;
    const json = { key_name: "ci", project_id: projectIds[0] };
    const created = await world.http.request({ method: "POST", path: keysPath, json });
    expect(created.status).toBe(200);
    const scoped = created.body as { id: number; key: string; project_id?: string };
    expect(scoped.project_id).toBe(projectIds[0]);
    const wide = await world.http.request({ method: "POST", path: keysPath, json: { key_name: "org-wide" } });
    expect(wide.body).not.toHaveProperty("project_id");
    const listed = await world.http.request({ method: "GET", path: keysPath });
    expect((listed.body as { id: number }[]).map((k) => k.id)).toContain(scoped.id);
    const own = await world.http.request({
      method: "GET",
      path: `/projects/${projectIds[0]}/endpoints`,
      apiKey: scoped.key,
    });
    expect(own.status).toBe(200);
    for (const path of ["/projects", `/projects/${projectIds[1]}/endpoints`, keysPath, "/api_keys"]) {
      const refused = await world.http.request({ method: "GET", path, apiKey: scoped.key });
      expect([path, refused.status]).toEqual([path, 403]);
    }
    const revoked = await world.http.request({ method: "DELETE", path: `${keysPath}/${scoped.id}` });
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ id: scoped.id, revoked: true, project_id: projectIds[0] });
    expect((await world.http.request({ method: "DELETE", path: `${keysPath}/${scoped.id}` })).status).toBe(404);
  });

  it("answers 401 with a JSON error body for a missing or unknown key", async () => {
    for (const apiKey of [null, "x".repeat(64)]) {
      const res = await world.http.request({ method: "GET", path: "/projects", apiKey });
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ message: expect.any(String), request_id: expect.any(String) });
    }
  });

  it("serves /projects/shared with the shape of /projects", async () => {
    const res = await world.http.request({ method: "GET", path: "/projects/shared?limit=100" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ projects: expect.any(Array) });
  });

  it("runs a compute through create, get, patch, restart, suspend, start and delete", async () => {
    const dev = branches.get("dev") as string;
    const created = await world.http.request({
      method: "POST",
      path: `${base()}/endpoints`,
      json: {
        endpoint: { branch_id: dev, type: "read_write", autoscaling_limit_min_cu: 0.25, autoscaling_limit_max_cu: 1 },
      },
    });
    expect(created.status).toBe(201);
    const { endpoint, operations } = created.body as { endpoint: EndpointBody; operations: OperationBody[] };
    expect(endpoint).toMatchObject({ branch_id: dev, current_state: "init", pending_state: "active" });
    expect(operations.map((o) => [o.action, o.status])).toEqual([["start_compute", "running"]]);
    const one = `${base()}/endpoints/${endpoint.id}`;

    const busy = await world.http.request({ method: "POST", path: `${one}/restart` });
    expect(busy.status).toBe(423);
    expect(busy.body).toMatchObject({ message: LOCKED });
    settle(world);

    const got = await world.http.request({ method: "GET", path: one });
    expect(got.status).toBe(200);
    expect((got.body as { endpoint: EndpointBody }).endpoint.current_state).toBe("active");

    const patched = await world.http.request({
      method: "PATCH",
      path: one,
      json: { endpoint: { suspend_timeout_seconds: 600 } },
    });
    expect(patched.status).toBe(200);
    expect((patched.body as { endpoint: EndpointBody }).endpoint.suspend_timeout_seconds).toBe(600);
    settle(world);

    const restarted = await world.http.request({ method: "POST", path: `${one}/restart` });
    expect(restarted.status).toBe(200);
    const restartOps = (restarted.body as { operations: OperationBody[] }).operations.map((o) => o.action);
    expect(restartOps).toEqual(["suspend_compute", "start_compute"]);
    settle(world);

    for (const action of ["suspend", "start"]) {
      const res = await world.http.request({ method: "POST", path: `${one}/${action}` });
      expect(res.status).toBe(200);
      settle(world);
    }

    const onBranch = await world.http.request({ method: "GET", path: `${base()}/branches/${dev}/endpoints` });
    expect(onBranch.status).toBe(200);
    expect((onBranch.body as { endpoints: EndpointBody[] }).endpoints.map((e) => e.id)).toEqual([endpoint.id]);

    const deleted = await world.http.request({ method: "DELETE", path: one });
    expect(deleted.status).toBe(200);
    // the official spec's example: a delete returns a running suspend_compute (api.md, "Delete")
    const deleteOps = (deleted.body as { operations: OperationBody[] }).operations;
    expect(deleteOps.map((o) => `${o.action}:${o.status}`)).toEqual(["suspend_compute:running"]);
    settle(world);
    const gone = await world.http.request({ method: "GET", path: one });
    expect(gone.status).toBe(404);
    expect((gone.body as { message: string }).message).toMatch(/endpoint not found/);
    expect((await world.http.request({ method: "DELETE", path: one })).status).toBe(204);
  });

  it("refuses a second read_write compute on a branch with 409 and its real message", async () => {
    const res = await world.http.request({
      method: "POST",
      path: `${base()}/endpoints`,
      json: { endpoint: { branch_id: branches.get("main"), type: "read_write" } },
    });
    expect(res.status).toBe(409);
    expect((res.body as { message: string }).message).toMatch(/read_write endpoint already exists/);
  });

  it("lists and reads operations, with cursor paging", async () => {
    const all = await world.http.request({ method: "GET", path: `${base()}/operations` });
    expect(all.status).toBe(200);
    const ops = (all.body as { operations: OperationBody[] }).operations;
    expect(ops.length).toBeGreaterThanOrEqual(6);
    const one = await world.http.request({ method: "GET", path: `${base()}/operations/${ops[0].id}` });
    expect(one.status).toBe(200);
    expect((one.body as { operation: OperationBody }).operation.id).toBe(ops[0].id);

    const seen: string[] = [];
    let cursor = "";
    for (let page = 0; page < 50; page++) {
      const q = `limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
      const res = await world.http.request({ method: "GET", path: `${base()}/operations?${q}` });
      expect(res.status).toBe(200);
      const body = res.body as { operations: OperationBody[]; pagination?: { cursor?: string } };
      seen.push(...body.operations.map((o) => o.id));
      cursor = body.pagination?.cursor ?? "";
      if (body.operations.length < 2 || !cursor) break;
    }
    expect([...seen].sort()).toEqual(ops.map((o) => o.id).sort());
    const unknown = `${base()}/operations/00000000-0000-4000-8000-000000000000`;
    expect((await world.http.request({ method: "GET", path: unknown })).status).toBe(404);
  });

  it("creates a branch through the API and puts a compute on it", async () => {
    const created = await world.http.request({
      method: "POST",
      path: `${base()}/branches`,
      json: { branch: { name: "feature" } },
    });
    expect([200, 201]).toContain(created.status);
    settle(world);
    const feature = (await branchesByName(world)).get("feature");
    expect(feature).toMatch(/^br-/);
    const compute = await world.http.request({
      method: "POST",
      path: `${base()}/endpoints`,
      json: { endpoint: { branch_id: feature, type: "read_only" } },
    });
    expect(compute.status).toBe(201);
    settle(world);
  });

  it("creates a project with its branch, compute, role and database; reads, updates and deletes it", async () => {
    const created = await world.http.request({
      method: "POST",
      path: "/projects",
      json: { project: { name: "made-here", pg_version: 17 } },
    });
    expect(created.status).toBe(201);
    const made = created.body as {
      project: { id: string; name: string };
      branch: { name: string };
      endpoints: EndpointBody[];
      roles: { name: string }[];
      databases: { name: string; owner_name: string }[];
      operations: OperationBody[];
    };
    expect(made.project.name).toBe("made-here");
    expect(made.branch.name).toBe("main");
    expect(made.endpoints.map((e) => e.type)).toEqual(["read_write"]);
    expect(made.databases).toMatchObject([{ name: "neondb", owner_name: "neondb_owner" }]);
    expect(made.roles.map((r) => r.name)).toContain("neondb_owner");
    expect(made.operations.map((o) => o.action)).toEqual(["create_timeline", "start_compute"]);
    settle(world);
    const path = `/projects/${made.project.id}`;
    expect((await world.http.request({ method: "GET", path })).status).toBe(200);
    const renamed = await world.http.request({ method: "PATCH", path, json: { project: { name: "renamed" } } });
    expect(renamed.status).toBe(200);
    expect((renamed.body as { project: { name: string } }).project.name).toBe("renamed");
    settle(world);
    expect((await world.http.request({ method: "DELETE", path })).status).toBe(200);
    expect((await world.http.request({ method: "GET", path })).status).toBe(404);
  });

  it("echoes a client's X-Request-ID as request_id and answers 404 for another project", async () => {
    const res = await world.http.request({
      method: "GET",
      path: "/projects/no-such-project/endpoints",
      headers: { "x-request-id": "req-faithful-1" },
    });
    expect(res.status).toBe(404);
    expect(res.body).toMatchObject({ request_id: "req-faithful-1" });
  });

  it("exercised every operation of the contract, and every response validated", () => {
    const covered = world.recorder.coveredOperations();
    const missing = contractOperations()
      .map((o) => `${o.method} ${o.template}`)
      .filter((o) => !covered.has(o));
    expect(missing).toEqual([]);
    world.recorder.assertClean();
  });
});

describe("project list paging and search (fixture with 25 projects)", () => {
  let world: World;
  const ids = Array.from({ length: 25 }, (_, i) => `proj-${String(i).padStart(2, "0")}`);

  beforeAll(async () => {
    const projects = ids.map((id, i) => ({
      id,
      name: i % 2 ? `odd-${id}` : `even-${id}`,
      branches: [{ name: "main", endpoints: [{ type: "read_write" as const }] }],
    }));
    world = await startWorld({ fixture: { accounts: [{ projects }] } });
  });
  afterAll(() => world.close());

  async function pageAll(query: string, limit: number): Promise<{ pages: number[]; ids: string[] }> {
    const out = { pages: [] as number[], ids: [] as string[] };
    let cursor = "";
    for (let page = 0; page < 100; page++) {
      const q = `limit=${limit}${query}${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`;
      const res = await world.http.request({ method: "GET", path: `/projects?${q}` });
      expect(res.status).toBe(200);
      const body = res.body as { projects: { id: string }[]; pagination?: { cursor?: string } };
      out.pages.push(body.projects.length);
      out.ids.push(...body.projects.map((p) => p.id));
      cursor = body.pagination?.cursor ?? "";
      if (body.projects.length < limit || !cursor) break;
    }
    return out;
  }

  it("pages with limit and cursor, every project once", async () => {
    const { pages, ids: seen } = await pageAll("", 10);
    expect(pages.slice(0, 3)).toEqual([10, 10, 5]);
    expect([...seen].sort()).toEqual(ids);
  });

  it("defaults to 10 per page and accepts limit 1 and 400", async () => {
    const res = await world.http.request({ method: "GET", path: "/projects" });
    expect((res.body as { projects: unknown[] }).projects).toHaveLength(10);
    expect((await pageAll("", 1)).ids).toHaveLength(25);
    expect((await pageAll("", 400)).pages[0]).toBe(25);
  });

  it("searches by partial name or id", async () => {
    const odd = await pageAll("&search=odd-", 400);
    expect(odd.ids).toHaveLength(12);
    expect((await pageAll("&search=proj-07", 400)).ids).toEqual(["proj-07"]);
    expect((await pageAll("&search=no-such-thing", 400)).ids).toEqual([]);
  });

  it("every response validated against the contract", () => {
    world.recorder.assertClean();
  });
});
