/**
 * A `pulumi up` interrupted (CLI and plugin killed) after the service created a compute, before Pulumi recorded it:
 * the state keeps a pending create, and the next `up` warns of it and creates again. The compute the interrupted
 * attempt made cannot be proven to be that attempt's (a twin stack's, or the one a `--replace` replaces, looks the
 * same), so it is never taken: a replica's next up names it in a warning (provider/compute/owner.ts) and makes a new
 * one; a primary's next up fails on the branch's one primary, naming it and offering adoptId first (it may be in
 * use). Nothing held is lost.
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

  it("a replica: the next up warns of the pending create and makes a new compute; the stray is named, not taken", async () => {
    const branch = world.branches.staging;
    const stack = world.stack(() => ({
      id: new Compute("replica", { projectId: world.projectId, branchId: branch, type: "read_only" }).id,
    }));
    const interrupted = await interruptedAfterCreate(stack);
    expect(interrupted.interrupted).toBe(true);
    const [pending] = stack.state.pendingOperations;
    expect(pending).toMatchObject({ type: "creating" });
    const [stray] = await computesOn(branch);
    expect(stray.name).toMatch(new RegExp(`^pulumi-${String(pending.resource.inputs.ownerTag)}-[0-9a-f]{8}$`));

    const next = ok(await stack.up());
    expect(next.warnings.join("\n")).toContain("interrupted while creating");
    expect(next.warnings.join("\n")).toContain(
      `Compute "replica" makes a new compute on branch ${branch}, where ${stray.id} (${stray.name}) is named for ` +
        `this resource and not managed by it`,
    );
    const id = String(outputs(stack).id);
    expect(id).not.toBe(stray.id);
    expect((await computesOn(branch)).map((c) => c.id).sort()).toEqual([stray.id, id].sort());
    expect(requests(next).filter((r) => r.method === "DELETE")).toEqual([]);
    ok(await stack.destroy());
    await world.api.endpoints.delete(world.projectId, stray.id);
  });

  it("a primary: the next up fails on the branch's primary, naming it and offering adoptId first; then converges", async () => {
    const branch = world.branches.dev;
    const stack = world.stack(() => ({ id: new Compute("db", { projectId: world.projectId, branchId: branch }).id }));
    await interruptedAfterCreate(stack);
    const [stray] = await computesOn(branch);
    const next = await stack.up();
    expect(next.error?.message).toContain(`its primary (read_write) compute is ${stray.id}`);
    expect(next.error?.message).toContain("carries this resource's tag");
    expect(next.error?.message).toContain(
      `no state holds ${stray.id}: an interrupted pulumi up made it (Pulumi then warned of a pending create) or ` +
        `pulumi state delete forgot it, and it may be in use: adopt it (set adoptId: "${stray.id}"`,
    );
    expect((await computesOn(branch)).map((c) => c.id)).toEqual([stray.id]);
    await world.api.endpoints.delete(world.projectId, stray.id);
    ok(await stack.up());
    const [created] = await computesOn(branch);
    expect(outputs(stack).id).toBe(created.id);
    ok(await stack.destroy());
  });

  it("a primary that has deleteBeforeReplace, its up --replace interrupted: the advice does not stop at adding the option", async () => {
    const branch = world.branches.main;
    const stack = world.stack(() => ({
      id: new Compute("db", { projectId: world.projectId, branchId: branch }, { deleteBeforeReplace: true }).id,
    }));
    const [fixturePrimary] = await computesOn(branch);
    await world.api.endpoints.delete(world.projectId, fixturePrimary.id);
    ok(await stack.up({ skipPreview: true }));
    world.emulator.requests.splice(0);
    const running = stack.up({ replace: ["db"], skipPreview: true });
    await interruptedAfterCreate(stack, running);
    const [stray] = await computesOn(branch);
    const next = await stack.up();
    const message = next.error?.message ?? "";
    expect(message).toContain(`its primary (read_write) compute is ${stray.id}`);
    expect(message).not.toMatch(/replaced from \([^)]*\), so give this resource the option deleteBeforeReplace/);
    expect(message).toContain("and the resource does not have the option deleteBeforeReplace: true");
    expect(message).toContain(
      `Otherwise (it has the option, or this is no replacement), no state holds ${stray.id}: an interrupted pulumi ` +
        `up made it (Pulumi then warned of a pending create) or pulumi state delete forgot it, and it may be in use: ` +
        `adopt it (set adoptId: "${stray.id}"`,
    );
    await world.api.endpoints.delete(world.projectId, stray.id);
    ok(await stack.up());
    ok(await stack.destroy());
  });
});
