/**
 * A compute the state no longer holds (`pulumi state delete`, a state started over): the next `up` must not make a
 * second compute beside it without a word. The model has no `pulumi state delete`; a new stack of the same project
 * and stack names is the same thing to the provider (the state holds nothing, the compute carries the resource's
 * name), and that is why it is never taken: it may be such a twin stack's (stacks.test.ts).
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
  it("a replica: the next up's create names it before making its own (it may be a twin stack's: never taken)", async () => {
    const branch = world.branches.staging;
    const first = stackOf(branch, { type: "read_only" });
    ok(await first.stack.up({ skipPreview: true }));
    const [forgotten] = await computesOn(branch);

    const again = stackOf(branch, { type: "read_only" });
    const up = ok(await again.stack.up());
    expect(writes(up)).toEqual([`POST /projects/${world.projectId}/endpoints`]);
    const made = String(outputs(again.stack).id);
    expect(made).not.toBe(forgotten.id);
    expect(up.warnings.join("\n")).toContain(
      `Compute "replica" makes a new compute on branch ${branch}, where ${forgotten.id} (${forgotten.name}) is ` +
        `named for this resource and not managed by it`,
    );
    ok(await again.stack.destroy());
    expect(await computesOn(branch)).toEqual([forgotten]);
    ok(await first.stack.destroy());
    expect(await computesOn(branch)).toEqual([]);
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
