/**
 * A branch move once Neon removes `branch_id` from the update (OpenAPI: deprecated, "will be removed in a future
 * release"). The service may then refuse the field or ignore it; under either the move must fail, record nothing
 * new, say how to move instead, and that way must work. Today's service (it moves) is covered in compute.test.ts.
 */
import { Compute } from "../../provider";
import { BranchMove } from "../../emulator/behaviours";
import { neonWorld, NeonWorld, ok, outputs, writes } from "./world";

describe.each<BranchMove>(["refused", "ignored"])("a service that has %s branch_id in an update", (branchMove) => {
  let world: NeonWorld;
  beforeAll(async () => {
    world = await neonWorld({ emulator: { branchMove } });
  });
  afterAll(() => world.stop());

  const computesOn = async (branch: string) =>
    (await world.api.endpoints.listForBranch(world.projectId, branch)).map((c) => c.id);

  it("a branch move fails naming the way to move, records nothing, and up --replace then moves it", async () => {
    let branch = world.branches.dev;
    const stack = world.stack(() => ({
      id: new Compute("db", { projectId: world.projectId, branchId: branch, type: "read_only" }).id,
    }));
    ok(await stack.up({ skipPreview: true }));
    const id = String(outputs(stack).id);

    branch = world.branches.staging;
    const move = await stack.up({ skipPreview: true });
    expect(move.error?.message).toContain(`the service did not move compute ${id} to branch ${branch}`);
    expect(move.error?.message).toContain("pulumi up --replace");
    expect(writes(move)).toEqual([`PATCH /projects/${world.projectId}/endpoints/${id}`]);
    const stored = stack.state.resources.find((r) => r.urn.endsWith("::db"));
    expect(stored?.inputs.branchId).toBe(world.branches.dev);
    expect(await computesOn(world.branches.dev)).toEqual([id]);

    const replaced = ok(await stack.up({ replace: ["db"], skipPreview: true }));
    const newId = String(outputs(stack).id);
    expect(newId).not.toBe(id);
    expect(writes(replaced)).toEqual([
      `DELETE /projects/${world.projectId}/endpoints/${id}`,
      `POST /projects/${world.projectId}/endpoints`,
    ]);
    expect(await computesOn(world.branches.staging)).toEqual([newId]);
    expect(await computesOn(world.branches.dev)).toEqual([]);
    expect(ok(await stack.up()).requests).toEqual([]);
    ok(await stack.destroy({ skipPreview: true }));
  });

  it("a primary moved onto a branch that has one: the error names that compute before any advice to replace", async () => {
    let branch = world.branches.dev;
    const stack = world.stack(() => ({
      id: new Compute("db", { projectId: world.projectId, branchId: branch }).id,
    }));
    ok(await stack.up({ skipPreview: true }));
    const [mainPrimary] = await computesOn(world.branches.main);
    branch = world.branches.main;
    const move = await stack.up({ skipPreview: true });
    expect(move.error?.message).toContain(`its primary (read_write) compute is ${mainPrimary}`);
    expect(move.error?.message).toContain(`move or delete ${mainPrimary} first`);
    expect(await computesOn(world.branches.main)).toEqual([mainPrimary]);
    branch = world.branches.dev;
    ok(await stack.destroy({ skipPreview: true }));
  });
});

describe("a service that ignores branch_id in an update, asked for a move and a resize at once", () => {
  let world: NeonWorld;
  beforeAll(async () => {
    world = await neonWorld({ emulator: { branchMove: "ignored" } });
  });
  afterAll(() => world.stop());

  it("records the resize it applied, so the next up asks only for the move and warns of no restart", async () => {
    let args = { branchId: world.branches.dev, autoscalingLimitMinCu: 1, autoscalingLimitMaxCu: 1 };
    const stack = world.stack(() => ({
      id: new Compute("db", { projectId: world.projectId, type: "read_only", ...args }).id,
    }));
    ok(await stack.up({ skipPreview: true }));
    const id = String(outputs(stack).id);
    args = { branchId: world.branches.staging, autoscalingLimitMinCu: 2, autoscalingLimitMaxCu: 2 };
    const first = await stack.up({ skipPreview: true });
    expect(first.error?.message).toContain("the other changes of this update were applied");
    const stored = stack.state.resources.find((r) => r.urn.endsWith("::db"));
    expect(stored?.outputs).toMatchObject({ branchId: world.branches.dev, autoscalingLimitMaxCu: 2 });
    const again = await stack.preview();
    // The engine keeps the old inputs of a partly failed update (its step lists their differences), but the
    // provider plans from the recorded outputs: only the move is left, and no restart is announced again.
    expect(again.warnings.join("\n")).toMatch(/connections/);
    expect(again.warnings.join("\n")).not.toMatch(/autoscalingLimit/);
    expect((await world.api.endpoints.get(world.projectId, id)).autoscaling_limit_max_cu).toBe(2);
    args = { ...args, branchId: world.branches.dev };
    ok(await stack.destroy({ skipPreview: true }));
  });
});
