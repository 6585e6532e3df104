/**
 * The examples as user programs: each compiled example runs under pulumi.runtime.setMocks, every resource
 * forwarded to the real plugin started in the example's own directory, against the emulator.
 *
 * Guards: an example that does not resolve the package by name (it would fail for a user), a second `up`
 * that is not a no-op, a size change without the restart warning, a branch move that is not one PATCH.
 */
import * as fs from "fs";
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import { NeonClient } from "../../sdk";
import { run, RunResult } from "../harness/program";
import { REPO_ROOT, startWorld, World, writes } from "../harness/world";

const EXAMPLES = ["primary-replica-key", "autoscaling", "branch-move"];
const COMPUTE = "pulumi-nodejs:dynamic/neon:Compute";
const API_KEY = "pulumi-nodejs:dynamic/neon:ApiKey";

/* eslint-disable @typescript-eslint/no-explicit-any */

/** The example's source directory, where a user runs `pulumi up` and where the plugin starts. */
const sourceDir = (name: string) => path.join(REPO_ROOT, "examples", name);

/**
 * The program as the Pulumi runtime would run it: the compiled module, loaded afresh each time (a fresh
 * module registry, so its top level runs again, as in a new `pulumi up`), sharing the one Pulumi runtime
 * the mocks are set on. `loaded` keeps its exports.
 */
function example(name: string, loaded: { exports?: any } = {}) {
  return () => {
    jest.isolateModules(() => {
      jest.doMock("@pulumi/pulumi", () => pulumi);
      loaded.exports = require(path.join(REPO_ROOT, "dist", "examples", name));
    });
    return { ...loaded.exports };
  };
}

function setConfig(values: Record<string, string | number>): void {
  for (const [key, value] of Object.entries(values)) pulumi.runtime.setConfig(`project:${key}`, String(value));
}

/** Branch ids by name in the emulator's default world (main with its primary; dev and staging without). */
/** The world an example runs in, its branches by name, and the example's config on the `dev` branch. */
async function openExample(name: string): Promise<{ world: World; branches: Record<string, string> }> {
  const world = await startWorld({ cwd: sourceDir(name) });
  const branches = await branchIds(world);
  setConfig({ projectId: world.emulator.projectId, branchId: branches.dev });
  return { world, branches };
}

async function branchIds(world: World): Promise<Record<string, string>> {
  const list = await client(world).branches.list(world.emulator.projectId);
  return Object.fromEntries(list.map((branch) => [branch.name, branch.id]));
}

function client(world: World): NeonClient {
  return new NeonClient({ apiKey: world.emulator.apiKey, apiUrl: world.emulator.baseUrl });
}

/** One `up` (or preview): the steps, sorted since resources apply in parallel, and the requests it made. */
async function up(world: World, name: string, options: { preview?: boolean; loaded?: { exports?: any } } = {}) {
  world.engine.steps = [];
  const mark = world.mark();
  const result: RunResult = await run(world.engine, example(name, options.loaded), { preview: options.preview });
  if (result.errors.length > 0) throw result.errors[0];
  const steps = world.engine.steps.map((s) => `${s.op} ${s.name}`).sort();
  return { exports: result.exports, steps, requests: world.requestsSince(mark) };
}

/**
 * The plugin's output since `mark`, once it contains `text` (or after 2 s). The plugin writes the warning to
 * stderr before answering Diff, but the pipe and the gRPC socket are not ordered: the answer can come first.
 */
async function printedSince(world: World, mark: number, text: string): Promise<string> {
  for (let waited = 0; waited < 2000 && !world.plugin.text().slice(mark).includes(text); waited += 20) {
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return world.plugin.text().slice(mark);
}

describe("each example resolves the package by name from its own directory", () => {
  it.each(EXAMPLES)("%s", (name) => {
    const resolved = fs.realpathSync(require.resolve("pulumi-neon-dynamic", { paths: [sourceDir(name)] }));
    expect(resolved).toBe(path.join(REPO_ROOT, "dist", "provider", "index.js"));
    const impl = fs.realpathSync(
      require.resolve("pulumi-neon-dynamic/provider/compute-impl", { paths: [sourceDir(name)] }),
    );
    expect(impl).toBe(path.join(REPO_ROOT, "dist", "provider", "compute-impl.js"));
  });
});

describe("example (a): primary, read replica and a CI key", () => {
  let world: World;
  let branches: Record<string, string>;
  beforeAll(async () => ({ world, branches } = await openExample("primary-replica-key")));
  afterAll(() => world.stop());

  it("up creates the three resources and exports hosts, pooled host, maxConnections and the key", async () => {
    const loaded: { exports?: any } = {};
    const { steps, exports } = await up(world, "primary-replica-key", { loaded });
    expect(steps).toEqual(["create ci", "create primary", "create replica"]);
    const computes = await client(world).endpoints.listForBranch(world.emulator.projectId, branches.dev);
    const primary = computes.find((c) => c.type === "read_write")!;
    const replica = computes.find((c) => c.type === "read_only")!;
    expect(exports).toMatchObject({ primaryHost: primary.host, replicaHost: replica.host, maxConnections: 225 });
    expect(exports.primaryPoolerHost).toBe(primary.host.replace(primary.id, `${primary.id}-pooler`));
    expect(exports.ciApiKey).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect(await loaded.exports.ciApiKey.isSecret).toBe(true);
    expect(world.engine.state.get(`urn:pulumi:stack::project::${API_KEY}::ci`)!.secretOutputs).toContain("key");
  });

  it("a second up changes nothing and sends no request", async () => {
    const { steps, requests } = await up(world, "primary-replica-key");
    expect(steps).toEqual(["same ci", "same primary", "same replica"]);
    expect(requests).toEqual([]);
  });

  it("destroy removes the computes and revokes the key", async () => {
    const ids = ["primary", "replica"].map((name) => world.engine.outputsOf(COMPUTE, name)!.endpointId);
    const keyId = Number(world.engine.outputsOf(API_KEY, "ci")!.keyId);
    await world.engine.destroy();
    expect(world.engine.state.size).toBe(0);
    const left = (await client(world).endpoints.list(world.emulator.projectId)).map((c) => c.id);
    for (const id of ids) expect(left).not.toContain(id);
    expect((await client(world).apiKeys.list()).map((k) => k.id)).not.toContain(keyId);
  });
});

describe("example (b): autoscaling from config", () => {
  let world: World;
  beforeAll(async () => ({ world } = await openExample("autoscaling")));
  afterAll(async () => {
    await world.engine.destroy();
    await world.stop();
  });

  it("up creates the compute with the default range 0.25 to 2 CU", async () => {
    const { steps, exports } = await up(world, "autoscaling");
    expect(steps).toEqual(["create app"]);
    expect(exports).toMatchObject({ minCu: 0.25, maxCu: 2, maxConnections: 112 });
  });

  it("changing maxCu previews an update with the restart warning, then updates in place", async () => {
    setConfig({ maxCu: 4 });
    const id = world.engine.outputsOf(COMPUTE, "app")!.endpointId;
    const before = world.plugin.text().length;
    const planned = await up(world, "autoscaling", { preview: true });
    expect(planned.steps).toEqual(["update app"]);
    expect(planned.requests).toEqual([]);
    const warning = `warning: Compute "app" (${id}) will restart: autoscalingLimitMaxCu 2 -> 4; its open connections will drop.`;
    expect(await printedSince(world, before, warning)).toContain(warning);
    const { steps, requests, exports } = await up(world, "autoscaling");
    expect(steps).toEqual(["update app"]);
    expect(writes(requests)).toEqual([`PATCH /projects/${world.emulator.projectId}/endpoints/${id}`]);
    expect(exports).toMatchObject({ maxCu: 4, minCu: 0.25 });
  });
});

describe("example (c): branch move from config", () => {
  let world: World;
  let branches: Record<string, string>;
  beforeAll(async () => ({ world, branches } = await openExample("branch-move")));
  afterAll(async () => {
    await world.engine.destroy();
    await world.stop();
  });

  it("changing branchId moves the compute with one PATCH, keeping its id and host", async () => {
    const first = await up(world, "branch-move");
    expect(first.steps).toEqual(["create db"]);
    setConfig({ branchId: branches.staging });
    const { steps, requests, exports } = await up(world, "branch-move");
    expect(steps).toEqual(["update db"]);
    expect(writes(requests)).toEqual([
      `PATCH /projects/${world.emulator.projectId}/endpoints/${first.exports.computeId}`,
    ]);
    expect(exports).toEqual({ ...first.exports, branchId: branches.staging });
    const moved = await client(world).endpoints.get(world.emulator.projectId, exports.computeId);
    expect(moved.branch_id).toBe(branches.staging);
  });
});
