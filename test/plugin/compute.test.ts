/**
 * Compute through the real plugin: `up`, `up` again, size change, branch move, type change, restart trigger,
 * refresh after out-of-band changes, destroy, check failures and preview with unknown values.
 */
import { Compute, ComputeArgs } from "../../provider";
import { NeonClient } from "../../sdk";
import { UNKNOWN } from "../../provider/unknown";
import { CheckFailedError } from "../harness/engine";
import { run } from "../harness/program";
import { startWorld, World, writes } from "../harness/world";

const TYPE = "pulumi-nodejs:dynamic/neon:Compute";
let world: World;
let api: NeonClient;
let branches: Record<string, string>;

beforeAll(async () => {
  world = await startWorld();
  api = new NeonClient({ apiKey: world.emulator.apiKey, apiUrl: world.emulator.baseUrl });
  const list = await api.branches.list(world.emulator.projectId);
  branches = Object.fromEntries(list.map((branch) => [branch.name, branch.id]));
});
afterAll(() => world.stop());

/** The program under test: one primary on `dev` plus the given replica settings. */
function program(primary: Partial<ComputeArgs>, replica?: Partial<ComputeArgs>) {
  return () => {
    const projectId = world.emulator.projectId;
    const db = new Compute("db", { projectId, branchId: branches.dev, ...primary });
    const out: Record<string, unknown> = {
      id: db.id,
      host: db.host,
      minCu: db.autoscalingLimitMinCu,
      branch: db.branchId,
    };
    if (replica)
      out.replica = new Compute("replica", { projectId, branchId: branches.main, type: "read_only", ...replica }).id;
    return out;
  };
}

/** The primary as declared from the restart-trigger step on: moved to staging, 2 CU, trigger "v2". */
function movedAndTriggered(): Partial<ComputeArgs> {
  return { branchId: branches.staging, autoscalingLimitMinCu: 2, autoscalingLimitMaxCu: 2, restartTriggers: ["v2"] };
}

async function up(prog: () => unknown) {
  world.engine.steps = [];
  const mark = world.mark();
  const result = await run(world.engine, prog);
  if (result.errors.length > 0) throw result.errors[0];
  return { ...result, steps: sorted(world.engine.steps), requests: world.requestsSince(mark) };
}

/** Steps as "op name", sorted: resources are applied in parallel, as the engine does. */
function sorted(steps: { op: string; name: string }[]): string[] {
  return steps.map((s) => `${s.op} ${s.name}`).sort();
}

async function preview(prog: () => unknown) {
  world.engine.steps = [];
  const mark = world.mark();
  await run(world.engine, prog, { preview: true });
  return { steps: sorted(world.engine.steps), requests: world.requestsSince(mark) };
}

describe("Compute through the plugin", () => {
  const sized = { autoscalingLimitMinCu: 1, autoscalingLimitMaxCu: 2 };

  it("up creates the computes and waits for them", async () => {
    const { steps, exports, requests } = await up(program(sized, {}));
    expect(steps).toEqual(["create db", "create replica"]);
    // Waiting: the last create is followed by a poll of its operations before the up returns.
    const log = requests.map((r) => `${r.method} ${r.path}`);
    const lastCreate = log.lastIndexOf(`POST /projects/${world.emulator.projectId}/endpoints`);
    expect(
      log.slice(lastCreate + 1).some((line) => line.startsWith(`GET /projects/${world.emulator.projectId}/operations`)),
    ).toBe(true);
    const created = await api.endpoints.get(world.emulator.projectId, exports.id);
    expect(created).toMatchObject({ branch_id: branches.dev, type: "read_write", autoscaling_limit_min_cu: 1 });
    expect(exports.host).toBe(created.host);
  });

  it("a second up changes nothing and sends no request at all", async () => {
    const { steps, requests } = await up(program(sized, {}));
    expect(steps).toEqual(["same db", "same replica"]);
    expect(requests).toEqual([]);
  });

  it("a size change is an update with a restart warning in preview, never a replacement", async () => {
    const next = program({ autoscalingLimitMinCu: 2, autoscalingLimitMaxCu: 2 }, {});
    const before = world.plugin.text().length;
    const planned = await preview(next);
    expect(planned.steps).toEqual(["same replica", "update db"]);
    expect(planned.requests).toEqual([]);
    const warning =
      /warning: Compute "db" \(ep-[a-z0-9-]+\) will restart: autoscalingLimitMinCu 1 -> 2.*connections will drop/;
    await expect(world.plugin.waitForOutput(warning, before)).resolves.toMatch(warning);
    const { requests, exports } = await up(next);
    expect(writes(requests)).toEqual([`PATCH /projects/${world.emulator.projectId}/endpoints/${exports.id}`]);
    expect(exports.minCu).toBe(2);
  });

  it("a branch move is one PATCH of branch_id, and the compute keeps its id", async () => {
    const { id } = (await up(program({ autoscalingLimitMinCu: 2, autoscalingLimitMaxCu: 2 }, {}))).exports;
    const { steps, requests, exports } = await up(
      program({ branchId: branches.staging, autoscalingLimitMinCu: 2, autoscalingLimitMaxCu: 2 }, {}),
    );
    expect(steps).toEqual(["same replica", "update db"]);
    expect(writes(requests)).toEqual([`PATCH /projects/${world.emulator.projectId}/endpoints/${id}`]);
    expect(exports).toMatchObject({ id, branch: branches.staging });
  });

  it("moving a primary onto a branch that has one names the branch and the compute already there", async () => {
    const mainPrimary = (await api.endpoints.listForBranch(world.emulator.projectId, branches.main)).find(
      (c) => c.type === "read_write",
    );
    const result = await run(
      world.engine,
      program({ branchId: branches.main, autoscalingLimitMinCu: 2, autoscalingLimitMaxCu: 2 }, {}),
    );
    expect(result.errors[0]?.message).toContain(`cannot move compute`);
    expect(result.errors[0]?.message).toContain(
      `to branch ${branches.main}: its primary (read_write) compute is ${mainPrimary?.id}`,
    );
    world.engine.errors = [];
  });

  it("a restart trigger calls the restart API and nothing else", async () => {
    const base = { branchId: branches.staging, autoscalingLimitMinCu: 2, autoscalingLimitMaxCu: 2 };
    await up(program({ ...base, restartTriggers: ["v1"] }, {}));
    const { requests, exports } = await up(program({ ...base, restartTriggers: ["v2"] }, {}));
    expect(writes(requests)).toEqual([`POST /projects/${world.emulator.projectId}/endpoints/${exports.id}/restart`]);
  });

  it("a type change replaces the compute, creating the new one before deleting the old", async () => {
    const base = movedAndTriggered();
    const oldReplica = world.engine.outputsOf(TYPE, "replica")?.endpointId;
    const { steps, requests } = await up(program(base, { type: "read_write", branchId: branches.dev }));
    expect(steps).toEqual(["delete-replaced replica", "replace replica", "same db"]);
    expect(world.engine.steps.map((s) => s.op).slice(-1)).toEqual(["delete-replaced"]);
    const order = writes(requests);
    expect(order[0]).toBe(`POST /projects/${world.emulator.projectId}/endpoints`);
    expect(order[1]).toBe(`DELETE /projects/${world.emulator.projectId}/endpoints/${oldReplica}`);
  });

  it("refresh records an out-of-band change, and the next up puts the declared value back", async () => {
    const id = world.engine.outputsOf(TYPE, "db")!.endpointId;
    await api.endpoints.update(world.emulator.projectId, id, { endpoint: { suspend_timeout_seconds: 3600 } });
    await world.engine.refresh();
    expect(world.engine.outputsOf(TYPE, "db")!.suspendTimeoutSeconds).toBe(3600);
    const base = { ...movedAndTriggered(), suspendTimeoutSeconds: 300 };
    const { steps } = await up(program(base, { type: "read_write", branchId: branches.dev }));
    expect(steps).toEqual(["same replica", "update db"]);
  });

  it("refresh drops a compute deleted outside Pulumi, and the next up creates it again", async () => {
    const id = world.engine.outputsOf(TYPE, "replica")!.endpointId;
    await api.endpoints.delete(world.emulator.projectId, id);
    await world.engine.refresh();
    expect(world.engine.outputsOf(TYPE, "replica")).toBeUndefined();
    const base = { ...movedAndTriggered(), suspendTimeoutSeconds: 300 };
    const { steps } = await up(program(base, { type: "read_write", branchId: branches.dev }));
    expect(steps).toEqual(["create replica", "same db"]);
  });

  it("check refuses bad input by property, and no request reaches the API", async () => {
    const mark = world.mark();
    const result = await run(
      world.engine,
      program({ autoscalingLimitMinCu: 0.3, autoscalingLimitMaxCu: 2, suspendTimeoutSeconds: 5 }),
    );
    const failure = result.errors[0] as CheckFailedError;
    expect(failure).toBeInstanceOf(CheckFailedError);
    expect(failure.failures.map((f) => f.property).sort()).toEqual(["autoscalingLimitMinCu", "suspendTimeoutSeconds"]);
    expect(world.requestsSince(mark)).toEqual([]);
    world.engine.errors = [];
  });

  it("preview with unknown values plans the change without calling the API", async () => {
    const mark = world.mark();
    const old = world.engine.state.get(`urn:pulumi:stack::project::${TYPE}::db`)!;
    const declared = {
      type: TYPE,
      name: "db",
      secretOutputs: [],
      inputs: { ...old.inputs, branchId: UNKNOWN, projectId: UNKNOWN },
    };
    world.engine.steps = [];
    await world.engine.apply(declared, true);
    expect(world.engine.steps).toEqual([{ op: "replace", name: "db", replaces: ["projectId"] }]);
    expect(world.requestsSince(mark)).toEqual([]);
  });

  it("destroy deletes every compute", async () => {
    const ids = ["db", "replica"].map((name) => world.engine.outputsOf(TYPE, name)!.endpointId);
    await world.engine.destroy();
    expect(world.engine.state.size).toBe(0);
    const left = (await api.endpoints.list(world.emulator.projectId)).map((c) => c.id);
    for (const id of ids) expect(left).not.toContain(id);
  });
});
