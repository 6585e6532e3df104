/**
 * A compute the state no longer holds (`pulumi state delete`, a state started over): the next `up` must neither make a
 * second compute beside it nor take it, since it may be a twin stack's (the same project and stack names in another
 * backend: stacks.test.ts). It is refused before anything is sent, naming the compute and the ways on (adoptId first).
 * The model has no `pulumi state delete`; a new stack of the same project and stack names is the same thing to the
 * provider (the state holds nothing, the compute carries the resource's name).
 * test/cli/scenarios-interrupt.test.ts runs `pulumi state delete` itself on the real CLI.
 */
import { Compute, ComputeArgs } from "../../provider";
import { neonWorld, NeonWorld, ok, outputs, writes } from "./world";

let world: NeonWorld;
beforeAll(async () => {
  world = await neonWorld();
});
afterAll(() => world.stop());

const computesOn = async (branch: string) =>
  (await world.api.endpoints.listForBranch(world.projectId, branch)).map((c) => ({ id: c.id, name: c.name }));

function stackOf(branch: string, args: Partial<ComputeArgs>) {
  const declared = { args };
  const stack = world.stack(() => ({
    id: new Compute("replica", { projectId: world.projectId, branchId: branch, ...declared.args }).id,
  }));
  return { stack, declared };
}

describe("a compute the state forgot", () => {
  it("a replica: the next up is refused naming it, sending nothing (it may be a twin stack's: never taken); adoptId keeps it", async () => {
    const branch = world.branches.staging;
    const first = stackOf(branch, { type: "read_only" });
    ok(await first.stack.up({ skipPreview: true }));
    const [forgotten] = await computesOn(branch);

    const again = stackOf(branch, { type: "read_only" });
    const refused = await again.stack.up();
    expect(writes(refused)).toEqual([]);
    expect(refused.error?.message).toContain(
      `Compute "replica" was not created: on branch ${branch}, ${forgotten.id} (${forgotten.name}) is named for ` +
        `this resource and no state is known to hold it. If an interrupted pulumi up made it or pulumi state delete ` +
        `forgot it, keep it with adoptId: "${forgotten.id}"`,
    );
    expect(refused.error?.message).toContain("it is not yours: rename this resource");
    expect(await computesOn(branch)).toEqual([forgotten]);

    again.declared.args = { type: "read_only", adoptId: forgotten.id };
    ok(await again.stack.up());
    expect(outputs(again.stack).id).toBe(forgotten.id);
    again.declared.args = { type: "read_only" };
    expect(writes(ok(await again.stack.up()))).toEqual([]);
    ok(await again.stack.destroy());
    expect(await computesOn(branch)).toEqual([]);
    ok(await first.stack.destroy());
  });

  it("a primary with its own name, met by the branch's 409: the advice offers adoptId before anything else", async () => {
    const branch = world.branches.dev;
    const declared = { name: "reporting" };
    const first = world.stack(() => ({
      id: new Compute("db", { projectId: world.projectId, branchId: branch, ...declared }).id,
    }));
    ok(await first.up({ skipPreview: true }));
    const forgotten = String(outputs(first).id);

    const again = world.stack(() => ({
      id: new Compute("db", { projectId: world.projectId, branchId: branch, ...declared }).id,
    }));
    const refused = await again.up();
    const message = refused.error?.message ?? "";
    expect(message).toContain(`its primary (read_write) compute is ${forgotten}`);
    expect(message).toContain(
      `To proceed: if nothing manages ${forgotten} (pulumi state delete forgot it, say), adopt it: set adoptId: "${forgotten}"`,
    );
    expect((await computesOn(branch)).map((c) => c.id)).toEqual([forgotten]);
    ok(await first.destroy());
  });
});
