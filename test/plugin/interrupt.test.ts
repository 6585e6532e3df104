/**
 * A `pulumi up` interrupted (CLI and plugin killed) after the service created a compute, before Pulumi recorded it:
 * the state keeps a pending create, and the next `up` warns of it and creates again. The compute the interrupted
 * attempt made cannot be proven to be that attempt's (a twin stack's looks the same), so it is never taken, and no
 * second compute is made beside it: the next `up` is refused before anything is sent, naming it with the ways to keep
 * it (adoptId) or delete it (provider/compute/owner-tag.ts), for a replica and a primary alike. Nothing held is lost.
 */
import { Compute } from "../../provider";
import { LocalStack } from "../../testing";
import { neonWorld, NeonWorld, ok, outputs, requests } from "./world";

let world: NeonWorld;
beforeAll(async () => {
  world = await neonWorld({ emulator: { operationDurationMs: 1500 } });
});
afterAll(() => world.stop());

async function interruptedAfterCreate(stack: LocalStack, running = stack.up({ skipPreview: true })) {
  const deadline = Date.now() + 90_000;
  while (
    !world.emulator.requests.some((r) => r.method === "POST" && r.path.endsWith("/endpoints") && r.status === 201)
  ) {
    if (Date.now() > deadline) throw new Error("the create was never answered");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  await stack.interrupt();
  return running;
}

const computesOn = async (branch: string) => world.api.endpoints.listForBranch(world.projectId, branch);

describe("an up interrupted after the service created the compute", () => {
  afterEach(() => world.emulator.requests.splice(0));

  /** The next up's refusal, naming `stray` and the ways on; nothing sent but reads. */
  function expectRefusalNaming(up: Awaited<ReturnType<LocalStack["up"]>>, stray: { id: string; name?: string | null }) {
    expect(up.warnings.join("\n")).toContain("interrupted while creating");
    const message = up.error?.message ?? "";
    expect(message).toContain(`was not created: on branch `);
    expect(message).toContain(`${stray.id} (${String(stray.name)}) is named for this resource and no state is known`);
    expect(message).toContain(`keep it with adoptId: "${stray.id}" (or delete it if nothing uses it)`);
    expect(requests(up).filter((r) => r.method !== "GET")).toEqual([]);
  }

  it("a replica: the next up is refused naming the compute, sends nothing; adoptId keeps it and converges", async () => {
    const branch = world.branches.staging;
    const declared: { adoptId?: string } = {};
    const stack = world.stack(() => ({
      id: new Compute("replica", { projectId: world.projectId, branchId: branch, type: "read_only", ...declared }).id,
    }));
    const interrupted = await interruptedAfterCreate(stack);
    expect(interrupted.interrupted).toBe(true);
    const [pending] = stack.state.pendingOperations;
    expect(pending).toMatchObject({ type: "creating" });
    const [stray] = await computesOn(branch);
    expect(stray.name).toMatch(new RegExp(`^pulumi-${String(pending.resource.inputs.ownerTag)}-[0-9a-f]{8}$`));

    expectRefusalNaming(await stack.up(), stray);
    expect((await computesOn(branch)).map((c) => c.id)).toEqual([stray.id]);

    declared.adoptId = stray.id;
    ok(await stack.up());
    expect(outputs(stack).id).toBe(stray.id);
    delete declared.adoptId;
    const quiet = ok(await stack.up());
    expect(requests(quiet).filter((r) => r.method !== "GET")).toEqual([]);
    ok(await stack.destroy());
    expect(await computesOn(branch)).toEqual([]);
  });

  it("a primary: the next up is refused the same way; deleting the compute it names converges", async () => {
    const branch = world.branches.dev;
    const stack = world.stack(() => ({ id: new Compute("db", { projectId: world.projectId, branchId: branch }).id }));
    await interruptedAfterCreate(stack);
    const [stray] = await computesOn(branch);
    expectRefusalNaming(await stack.up(), stray);
    expect((await computesOn(branch)).map((c) => c.id)).toEqual([stray.id]);
    await world.api.endpoints.delete(world.projectId, stray.id);
    ok(await stack.up());
    const [created] = await computesOn(branch);
    expect(outputs(stack).id).toBe(created.id);
    ok(await stack.destroy());
  });

  it("a primary's up --replace interrupted (deleteBeforeReplace is the default): the next up names the new compute", async () => {
    const branch = world.branches.main;
    const stack = world.stack(() => ({ id: new Compute("db", { projectId: world.projectId, branchId: branch }).id }));
    const [fixturePrimary] = await computesOn(branch);
    await world.api.endpoints.delete(world.projectId, fixturePrimary.id);
    ok(await stack.up({ skipPreview: true }));
    const old = String(outputs(stack).id);
    world.emulator.requests.splice(0);
    const running = stack.up({ replace: ["db"], skipPreview: true });
    await interruptedAfterCreate(stack, running);
    const [stray] = await computesOn(branch);
    expect(stray.id).not.toBe(old);
    expectRefusalNaming(await stack.up(), stray);
    await world.api.endpoints.delete(world.projectId, stray.id);
    ok(await stack.up());
    ok(await stack.destroy());
  });
});
