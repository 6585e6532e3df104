/**
 * What the provider promises when the service or the network fails during a step:
 * a lost response never makes a duplicate, and a compute that exists is never orphaned.
 */
import { Compute } from "../../provider";
import { NeonClient } from "../../sdk";
import { run } from "../harness/program";
import { startWorld, World, writes } from "../harness/world";

const TYPE = "pulumi-nodejs:dynamic/neon:Compute";
let world: World;
let api: NeonClient;
let branchId: string;

beforeAll(async () => {
  world = await startWorld({ config: { "neon:waitTimeoutSeconds": "1" } });
  api = new NeonClient({ apiKey: world.emulator.apiKey, apiUrl: world.emulator.baseUrl, rateLimit: false });
  branchId = (await api.branches.list(world.emulator.projectId)).find((b) => b.name === "dev")!.id;
});
afterAll(() => world.stop());

afterEach(async () => {
  world.emulator.faults.clear();
  world.engine.errors = [];
});

const replica =
  (name = "replica") =>
  () =>
    new Compute(name, { projectId: world.emulator.projectId, branchId, type: "read_only" }).id;

async function computesOnBranch(): Promise<string[]> {
  return (await api.endpoints.listForBranch(world.emulator.projectId, branchId)).map((c) => c.id).sort();
}

describe("Compute under faults, through the plugin", () => {
  it("a create whose response is lost is recognised, not sent again", async () => {
    world.emulator.faults.add({ method: "POST", path: "/endpoints", kind: "ambiguous", times: 1 });
    const mark = world.mark();
    const result = await run(world.engine, replica());
    expect(result.errors).toEqual([]);
    expect(writes(world.requestsSince(mark))).toEqual([`POST /projects/${world.emulator.projectId}/endpoints`]);
    expect(await computesOnBranch()).toEqual([result.exports]);
    await world.engine.destroy();
  });

  it("a create reset before the service acted is sent again once, making one compute", async () => {
    world.emulator.faults.add({ method: "POST", path: "/endpoints", kind: "reset", times: 1 });
    const mark = world.mark();
    const result = await run(world.engine, replica());
    expect(result.errors).toEqual([]);
    expect(writes(world.requestsSince(mark))).toHaveLength(2);
    expect(await computesOnBranch()).toEqual([result.exports]);
    await world.engine.destroy();
  });

  it("a compute whose start fails stays in state with its id, and the next up repairs it", async () => {
    world.emulator.operations.failNext({ action: "start_compute" });
    const first = await run(world.engine, replica());
    expect(first.errors[0]?.message).toMatch(/ep-[a-z0-9-]+ exists but is not ready: .*start_compute/);
    const kept = world.engine.state.get(`urn:pulumi:stack::project::${TYPE}::replica`)!;
    expect(kept.id).toMatch(/^ep-/);
    // Without __provider in the kept properties, the next Update or Delete could not load the provider.
    expect(kept.outputs.__provider).toEqual(expect.stringContaining("compute-impl"));
    expect(await computesOnBranch()).toEqual([kept.id]);
    world.engine.errors = [];
    const second = await run(world.engine, replica());
    expect(second.errors).toEqual([]);
    expect(await computesOnBranch()).toEqual([kept.id]);
    await world.engine.destroy();
  });

  it("a restart whose operation fails is sent again by the next up", async () => {
    const withTriggers = (value: string) => () =>
      new Compute("replica", {
        projectId: world.emulator.projectId,
        branchId,
        type: "read_only",
        restartTriggers: [value],
      }).id;
    const { exports: id } = await run(world.engine, withTriggers("v1"));
    world.emulator.operations.failNext({ action: "start_compute" });
    const failed = await run(world.engine, withTriggers("v2"));
    expect(failed.errors[0]?.message).toMatch(/start_compute/);
    world.engine.errors = [];
    const mark = world.mark();
    const repaired = await run(world.engine, withTriggers("v2"));
    expect(repaired.errors).toEqual([]);
    expect(writes(world.requestsSince(mark))).toEqual([
      `POST /projects/${world.emulator.projectId}/endpoints/${id}/restart`,
    ]);
    await world.engine.destroy();
  });

  it("a delete whose response is lost twice in a row still ends with the compute gone", async () => {
    await run(world.engine, replica());
    world.emulator.faults.add({ method: "DELETE", path: "/endpoints/", kind: "502", times: 2 });
    await world.engine.destroy();
    expect(await computesOnBranch()).toEqual([]);
  });
  it("a stuck operation ends in a timeout naming it, with the compute kept in state", async () => {
    world.emulator.operations.stickNext({ action: "start_compute" });
    const result = await run(world.engine, replica());
    expect(result.errors[0]?.message).toMatch(
      /exists but is not ready: timed out after .*still pending: start_compute/,
    );
    const kept = world.engine.state.get(`urn:pulumi:stack::project::${TYPE}::replica`)!;
    expect(await computesOnBranch()).toEqual([kept.id]);
    // Last in this world: the stuck operation keeps the project locked (423) from here on, as on the service.
  });
});
