/**
 * What the provider promises when the service or the network fails during a step, through the local engine:
 * a lost response never makes a duplicate, and a compute that exists is never orphaned.
 */
import { Compute } from "../../provider";
import { LocalStack } from "../../testing";
import { neonWorld, NeonWorld, ok, outputs, writes } from "./world";

let world: NeonWorld;
let branchId: string;
let triggers: string[] | undefined;
let stack: LocalStack;

beforeAll(async () => {
  world = await neonWorld();
  branchId = world.branches.dev;
  stack = world.stack(
    () => ({
      id: new Compute("replica", { projectId: world.projectId, branchId, type: "read_only", restartTriggers: triggers })
        .id,
    }),
    { config: { "neon:waitTimeoutSeconds": "1" } },
  );
});
afterAll(() => world.stop());

afterEach(async () => {
  world.emulator.faults.clear();
  triggers = undefined;
});

async function computesOnBranch(): Promise<string[]> {
  return (await world.api.endpoints.listForBranch(world.projectId, branchId)).map((c) => c.id).sort();
}

const kept = () => stack.state.resources.find((r) => r.urn.endsWith("::replica"));

describe("Compute under faults, through the local engine", () => {
  it("a create whose response is lost is recognised by its attempt's name, not sent again", async () => {
    world.emulator.faults.add({ method: "POST", path: "/endpoints", kind: "ambiguous", times: 1 });
    const up = ok(await stack.up({ skipPreview: true }));
    expect(writes(up)).toEqual([`POST /projects/${world.projectId}/endpoints`]);
    expect(await computesOnBranch()).toEqual([outputs(stack).id]);
    ok(await stack.destroy());
  });

  it("a create reset before the service acted is sent again once, making one compute", async () => {
    world.emulator.faults.add({ method: "POST", path: "/endpoints", kind: "reset", times: 1 });
    const up = ok(await stack.up({ skipPreview: true }));
    expect(writes(up)).toHaveLength(2);
    expect(await computesOnBranch()).toEqual([outputs(stack).id]);
    ok(await stack.destroy());
  });

  it("a compute whose start fails stays in state with its id, and the next up repairs it", async () => {
    world.emulator.operations.failNext({ action: "start_compute" });
    const first = await stack.up({ skipPreview: true });
    expect(first.error?.message).toMatch(/ep-[a-z0-9-]+ exists but is not ready: .*start_compute/);
    expect(kept()?.id).toMatch(/^ep-/);
    // Without __provider in the kept properties, the next Update or Delete could not load the provider.
    expect(kept()?.outputs.__provider).toEqual(expect.stringContaining("compute/impl"));
    expect(await computesOnBranch()).toEqual([kept()?.id]);
    ok(await stack.up({ skipPreview: true }));
    expect(await computesOnBranch()).toEqual([kept()?.id]);
    ok(await stack.destroy());
  });

  it("a restart whose operation fails leaves the old trigger recorded; the next up does what is still needed", async () => {
    triggers = ["v1"];
    ok(await stack.up({ skipPreview: true }));
    const id = String(outputs(stack).id);
    world.emulator.operations.failNext({ action: "start_compute" });
    triggers = ["v2"];
    const failed = await stack.up({ skipPreview: true });
    expect(failed.error?.message).toMatch(/start_compute/);
    expect(kept()?.outputs.restartTriggers).toEqual(["v1"]);
    const repaired = ok(await stack.up({ skipPreview: true }));
    // The failed start left the compute idle: nothing runs, so nothing is restarted, and the trigger is recorded.
    const state = (await world.api.endpoints.get(world.projectId, id)).current_state;
    expect(writes(repaired)).toEqual(
      state === "active" ? [`POST /projects/${world.projectId}/endpoints/${id}/restart`] : [],
    );
    expect(kept()?.outputs.restartTriggers).toEqual(["v2"]);
    ok(await stack.destroy());
  });

  it("a delete whose response is lost twice in a row still ends with the compute gone", async () => {
    ok(await stack.up({ skipPreview: true }));
    world.emulator.faults.add({ method: "DELETE", path: "/endpoints/", kind: "502", times: 2 });
    ok(await stack.destroy());
    expect(await computesOnBranch()).toEqual([]);
  });

  it("a stuck operation ends in a timeout naming it, with the compute kept in state", async () => {
    world.emulator.operations.stickNext({ action: "start_compute" });
    const up = await stack.up({ skipPreview: true });
    expect(up.error?.message).toMatch(/exists but is not ready: timed out after .*still pending: start_compute/);
    expect(await computesOnBranch()).toEqual([kept()?.id]);
    // Last in this world: the stuck operation keeps the project locked (423) from here on, as on the service.
  });
});
