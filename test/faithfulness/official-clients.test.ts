/**
 * The official clients against the emulator: if `@neondatabase/api-client` or `neonctl` cannot use it, the
 * emulator is not faithful, whatever our own client thinks. Every response they receive is validated against
 * the contract too (an axios interceptor for the api-client, a recording proxy in front of neonctl).
 */
import { execFile } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { createApiClient, EndpointType } from "@neondatabase/api-client";
import { findRepoRoot } from "../openapi/contract";
import { startRecordingProxy, type RecordingProxy } from "../openapi/proxy";
import { attachContractCheck } from "../openapi/recorder";
import { branchesByName, listEndpoints, startWorld, waitForOperations, type World } from "./harness";

/** Real clock, short operations: the clients do not know about a manual clock. */
const OPTIONS = { manualClock: false, operationDurationMs: 20 };

describe("@neondatabase/api-client against the emulator", () => {
  let world: World;
  let api: ReturnType<typeof createApiClient>;
  let projectId: string;

  beforeAll(async () => {
    world = await startWorld(OPTIONS);
    projectId = world.emulator.projectId;
    api = createApiClient({ apiKey: world.emulator.apiKey, baseURL: world.emulator.baseUrl });
    attachContractCheck(api.instance, world.recorder);
  });
  afterAll(() => world.close());

  it("creates, lists and revokes keys", async () => {
    const created = await api.createApiKey({ key_name: "from-api-client" });
    expect(created.status).toBe(200);
    expect(created.data.key).toHaveLength(64);
    const listed = await api.listApiKeys();
    expect(listed.data.map((k) => k.id)).toContain(created.data.id);
    const revoked = await api.revokeApiKey(created.data.id);
    expect(revoked.data).toMatchObject({ id: created.data.id, revoked: true });
    expect((await api.listApiKeys()).data.map((k) => k.id)).not.toContain(created.data.id);
  });

  it("creates, lists and revokes organization keys; a project-scoped key reaches only its project", async () => {
    const { orgId, projectIds } = world.emulator.createOrganization({ projects: 2 });
    const created = await api.createOrgApiKey(orgId, { key_name: "ci", project_id: projectIds[0] });
    expect(created.status).toBe(200);
    expect(created.data).toMatchObject({ name: "ci", project_id: projectIds[0] });
    expect((await api.listOrgApiKeys(orgId)).data.map((k) => [k.id, k.project_id])).toContainEqual([
      created.data.id,
      projectIds[0],
    ]);
    const scoped = createApiClient({ apiKey: created.data.key, baseURL: world.emulator.baseUrl });
    attachContractCheck(scoped.instance, world.recorder);
    expect((await scoped.listProjectEndpoints(projectIds[0])).status).toBe(200);
    await expect(scoped.listProjects({})).rejects.toMatchObject({ response: { status: 403 } });
    await expect(scoped.getProject(projectIds[1])).rejects.toMatchObject({ response: { status: 403 } });
    await expect(scoped.createApiKey({ key_name: "x" })).rejects.toMatchObject({ response: { status: 403 } });
    const revoked = await api.revokeOrgApiKey(orgId, created.data.id);
    expect(revoked.data).toMatchObject({ id: created.data.id, revoked: true, project_id: projectIds[0] });
    expect((await api.listOrgApiKeys(orgId)).data.map((k) => k.id)).not.toContain(created.data.id);
    await expect(scoped.listProjectEndpoints(projectIds[0])).rejects.toMatchObject({ response: { status: 401 } });
  });

  it("lists projects", async () => {
    const res = await api.listProjects({ limit: 10 });
    expect(res.data.projects.map((p) => p.id)).toContain(projectId);
  });

  it("runs a compute through create, list, get, update, restart and delete", async () => {
    const dev = (await branchesByName(world)).get("dev") as string;
    const created = await api.createProjectEndpoint(projectId, {
      endpoint: { branch_id: dev, type: EndpointType.ReadWrite },
    });
    expect(created.status).toBe(201);
    const id = created.data.endpoint.id;
    expect(created.data.operations[0].action).toBe("start_compute");
    expect((await api.listProjectEndpoints(projectId)).data.endpoints.map((e) => e.id)).toContain(id);
    expect((await api.getProjectEndpoint(projectId, id)).data.endpoint.branch_id).toBe(dev);
    await waitForOperations(world);

    const updated = await api.updateProjectEndpoint(projectId, id, {
      endpoint: { autoscaling_limit_min_cu: 0.5, autoscaling_limit_max_cu: 2 },
    });
    expect(updated.data.endpoint).toMatchObject({ autoscaling_limit_min_cu: 0.5, autoscaling_limit_max_cu: 2 });
    await waitForOperations(world);

    const restarted = await api.restartProjectEndpoint(projectId, id);
    expect(restarted.data.operations.map((o) => o.action)).toEqual(["suspend_compute", "start_compute"]);
    const opId = restarted.data.operations[1].id;
    await waitForOperations(world);

    const op = await api.getProjectOperation(projectId, opId);
    expect(op.data.operation).toMatchObject({ id: opId, status: "finished" });
    const ops = await api.listProjectOperations({ projectId, limit: 100 });
    expect(ops.data.operations.map((o) => o.id)).toContain(opId);

    const deleted = await api.deleteProjectEndpoint(projectId, id);
    expect(deleted.data.operations.map((o) => o.action)).toEqual(["suspend_compute"]);
    await waitForOperations(world);
    await expect(api.getProjectEndpoint(projectId, id)).rejects.toMatchObject({ response: { status: 404 } });
  });

  it("gets the real 409 for a second primary compute", async () => {
    const main = (await branchesByName(world)).get("main") as string;
    const attempt = api.createProjectEndpoint(projectId, {
      endpoint: { branch_id: main, type: EndpointType.ReadWrite },
    });
    await expect(attempt).rejects.toMatchObject({
      response: { status: 409, data: { message: expect.stringMatching(/read_write endpoint already exists/) } },
    });
  });

  it("every response the api-client received validated against the contract", () => {
    world.recorder.assertClean();
  });
});

describe("neonctl against the emulator (offline: --no-analytics, temporary --config-dir)", () => {
  let world: World;
  let proxy: RecordingProxy;
  let configDir: string;
  const bin = path.join(findRepoRoot(), "node_modules", "neonctl", "bin", "cli.js");

  beforeAll(async () => {
    world = await startWorld(OPTIONS);
    proxy = await startRecordingProxy(world.emulator.baseUrl, world.recorder);
    configDir = fs.mkdtempSync(path.join(os.tmpdir(), "neonctl-"));
  });
  afterAll(async () => {
    await proxy.close();
    await world.close();
    fs.rmSync(configDir, { recursive: true, force: true });
  });

  /** Runs neonctl with our host and key only: no NEON_* from the environment, no HOME config, no analytics. */
  function neonctl(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: configDir, CI: "true", NO_COLOR: "1" };
    for (const name of Object.keys(env)) if (name.startsWith("NEON_")) delete env[name];
    const common = ["--api-host", proxy.baseUrl, "--api-key", world.emulator.apiKey, "--no-analytics"];
    const argv = [bin, ...args, ...common, "--config-dir", configDir, "--output", "json"];
    return new Promise((resolve) => {
      execFile(process.execPath, argv, { env, timeout: 30_000 }, (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      });
    });
  }

  function json(out: { code: number; stdout: string; stderr: string }): unknown {
    if (out.code !== 0) throw new Error(`neonctl exited ${out.code}: ${out.stderr}${out.stdout}`);
    return JSON.parse(out.stdout);
  }

  it("projects list", async () => {
    const out = json(await neonctl("projects", "list")) as { projects: { id: string }[] };
    expect(out.projects.map((p) => p.id)).toEqual([world.emulator.projectId]);
  });

  it("api-keys list", async () => {
    const out = json(await neonctl("api-keys", "list")) as { id: number }[];
    const res = await world.http.request({ method: "GET", path: "/api_keys" });
    expect(out.map((k) => k.id).sort()).toEqual((res.body as { id: number }[]).map((k) => k.id).sort());
  });

  it("creates a compute with `neonctl api ... -X POST -d`", async () => {
    const staging = (await branchesByName(world)).get("staging") as string;
    const body = JSON.stringify({ endpoint: { branch_id: staging, type: "read_write" } });
    const route = `/projects/${world.emulator.projectId}/endpoints`;
    const out = json(await neonctl("api", route, "-X", "POST", "-d", body)) as { endpoint: { id: string } };
    expect(out.endpoint.id).toMatch(/^ep-/);
    expect((await listEndpoints(world)).map((e) => e.id)).toContain(out.endpoint.id);
    await waitForOperations(world);
  });

  it("creates a read replica with `neonctl branches add-compute`", async () => {
    const before = (await listEndpoints(world)).length;
    const out = await neonctl(
      "branches",
      "add-compute",
      "dev",
      "--project-id",
      world.emulator.projectId,
      "--type",
      "read_only",
    );
    json(out);
    const after = await listEndpoints(world);
    expect(after).toHaveLength(before + 1);
    await waitForOperations(world);
  });

  it("every response neonctl received validated against the contract", () => {
    expect(world.recorder.seen.length).toBeGreaterThan(0);
    world.recorder.assertClean();
  });
});
