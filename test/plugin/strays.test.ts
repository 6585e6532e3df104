/**
 * A compute the state no longer holds (`pulumi state delete`, a state started over): the next `up` must not make a
 * second compute beside it without a word. The model has no `pulumi state delete`; a new stack of the same project
 * and stack names is the same thing to the provider (the state holds nothing, the compute carries the resource's
 * name). test/cli/scenarios-interrupt.test.ts runs `pulumi state delete` itself on the real CLI.
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
  it("a replica that matches the program: the next up takes it over (no second compute) and names it", async () => {
    const branch = world.branches.staging;
    const first = stackOf(branch, { type: "read_only" });
    ok(await first.stack.up({ skipPreview: true }));
    const forgotten = String(outputs(first.stack).id);

    const again = stackOf(branch, { type: "read_only" });
    const up = ok(await again.stack.up());
    expect(writes(up)).toEqual([]);
    expect(outputs(again.stack).id).toBe(forgotten);
    expect((await computesOn(branch)).map((c) => c.id)).toEqual([forgotten]);
    expect(up.warnings.join("\n")).toContain(`Compute "replica" took over compute ${forgotten} on branch ${branch}`);
    const next = ok(await again.stack.up());
    expect(next.steps.filter((s) => s.name === "replica").map((s) => s.op)).toEqual(["same"]);
    ok(await again.stack.destroy());
    expect(await computesOn(branch)).toEqual([]);
  });

  it("one that differs from the program is refused, naming it and adoptId first; adoptId then adopts it", async () => {
    const branch = world.branches.staging;
    const first = stackOf(branch, { type: "read_only" });
    ok(await first.stack.up({ skipPreview: true }));
    const forgotten = String(outputs(first.stack).id);

    const again = stackOf(branch, { type: "read_only", autoscalingLimitMinCu: 1, autoscalingLimitMaxCu: 2 });
    const refused = await again.stack.up();
    const message = refused.error?.message ?? "";
    expect(message).toContain(`Compute "replica" was not created: compute ${forgotten} (pulumi-`);
    expect(message).toContain("Nothing was changed. To manage it, set adoptId: " + `"${forgotten}"`);
    expect(writes(refused)).toEqual([]);
    expect((await computesOn(branch)).map((c) => c.id)).toEqual([forgotten]);

    again.declared.args = { ...again.declared.args, adoptId: forgotten };
    ok(await again.stack.up());
    expect(outputs(again.stack).id).toBe(forgotten);
    expect((await computesOn(branch)).map((c) => c.id)).toEqual([forgotten]);
    again.declared.args = { type: "read_only", autoscalingLimitMinCu: 1, autoscalingLimitMaxCu: 2 };
    ok(await again.stack.up());
    ok(await again.stack.destroy());
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
