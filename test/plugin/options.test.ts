/**
 * Resource options users set on computes, through the local engine: `ignoreChanges` on the sizes, `protect`, and
 * many computes changed in parallel in one project (the engine runs up to --parallel steps at once).
 */
import { Compute, ComputeArgs } from "../../provider";
import { neonWorld, NeonWorld, ok, ops, outputs, writes } from "./world";

let world: NeonWorld;
beforeAll(async () => {
  world = await neonWorld();
});
afterAll(() => world.stop());

describe("ignoreChanges on the sizes", () => {
  it("a size change the program ignores is no change: Check gets the old sizes, nothing is sent", async () => {
    const declared: { args: Partial<ComputeArgs> } = { args: { autoscalingLimitMinCu: 1, autoscalingLimitMaxCu: 2 } };
    const stack = world.stack(() => {
      const db = new Compute(
        "db",
        { projectId: world.projectId, branchId: world.branches.staging, type: "read_only", ...declared.args },
        { ignoreChanges: ["autoscalingLimitMinCu", "autoscalingLimitMaxCu"] },
      );
      return { min: db.autoscalingLimitMinCu };
    });
    ok(await stack.up({ skipPreview: true }));
    declared.args = { autoscalingLimitMinCu: 4, autoscalingLimitMaxCu: 8 };
    const up = ok(await stack.up());
    expect(ops(up)).toEqual(["same db"]);
    expect(up.requests).toEqual([]);
    expect(up.warnings).toEqual([]);
    expect(outputs(stack).min).toBe(1);
    ok(await stack.destroy({ skipPreview: true }));
  });
});

describe("protect", () => {
  it("a protected compute is neither deleted nor replaced, and stays on the service", async () => {
    const declared: { args: Partial<ComputeArgs>; protect: boolean } = { args: { type: "read_only" }, protect: true };
    const stack = world.stack(() => ({
      id: new Compute(
        "db",
        { projectId: world.projectId, branchId: world.branches.staging, ...declared.args },
        { protect: declared.protect },
      ).id,
    }));
    ok(await stack.up({ skipPreview: true }));
    const id = String(outputs(stack).id);
    declared.args = { type: "read_write" };
    const replace = await stack.up();
    expect(replace.error?.message).toContain("unable to replace resource");
    expect(replace.requests).toEqual([]);
    const destroy = await stack.destroy();
    expect(destroy.error?.message).toContain("because it is protected");
    expect((await world.api.endpoints.get(world.projectId, id)).id).toBe(id);
    declared.args = { type: "read_only" };
    declared.protect = false;
    ok(await stack.up({ skipPreview: true }));
    ok(await stack.destroy({ skipPreview: true }));
  });
});

describe("many computes changed at once", () => {
  it("twelve replicas created, resized and deleted in one project: every change once, no 423, all converge", async () => {
    let size = 0.25;
    const names = Array.from({ length: 12 }, (_, i) => `r${i}`);
    const stack = world.stack(() =>
      Object.fromEntries(
        names.map((name) => [
          name,
          new Compute(name, {
            projectId: world.projectId,
            branchId: world.branches.staging,
            type: "read_only",
            autoscalingLimitMinCu: size,
            autoscalingLimitMaxCu: size,
          }).id,
        ]),
      ),
    );
    const created = ok(await stack.up({ skipPreview: true }));
    expect(writes(created).filter((w) => w.startsWith("POST"))).toHaveLength(12);
    size = 0.5;
    const resized = ok(await stack.up({ skipPreview: true }));
    expect(ops(resized)).toEqual(names.map((name) => `update ${name}`).sort());
    expect(writes(resized).filter((w) => w.startsWith("PATCH"))).toHaveLength(12);
    const computes = await world.api.endpoints.listForBranch(world.projectId, world.branches.staging);
    expect(computes.map((c) => c.autoscaling_limit_min_cu)).toEqual(names.map(() => 0.5));
    const destroyed = ok(await stack.destroy({ skipPreview: true }));
    const all = [created, resized, destroyed].flatMap((result) => result.requests as { status: number }[]);
    expect(all.filter((r) => r.status === 423 || r.status === 429)).toEqual([]);
    expect(await world.api.endpoints.listForBranch(world.projectId, world.branches.staging)).toEqual([]);
  });
});
