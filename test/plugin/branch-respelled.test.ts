/**
 * Check and Diff agree (issue 23, item 7): an LSN re-spelled in the program (a leading zero, another case) is the same
 * point on the parent. It once planned a replacement of an unprotected branch (a new branch, then the old one deleted
 * with its data), and failed the preview of a protected one as a replacement the Diff would not plan.
 */
import { Branch, BranchArgs } from "../../provider";
import { neonWorld, NeonWorld, ok, outputs, writes } from "./world";

const BRANCH = "pulumi-nodejs:dynamic/neon:Branch";

let world: NeonWorld;
beforeAll(async () => {
  world = await neonWorld();
});
afterAll(() => world.stop());

describe("a re-spelled parentLsn plans no change at all", () => {
  it.each([
    ["an unprotected branch", false],
    ["a protected branch", true],
  ])("on %s: the preview and the up change nothing and send nothing", async (_, guarded) => {
    const name = guarded ? "lsn-guarded" : "lsn-open";
    const declared: Partial<BranchArgs> = { parentId: world.branches.dev, parentLsn: "0/19623D8", protected: guarded };
    const stack = world.stack(() => ({ id: new Branch(name, { projectId: world.projectId, ...declared }).branchId }));
    ok(await stack.up({ skipPreview: true }));
    const id = String(outputs(stack).id);

    declared.parentLsn = "0/019623d8";
    const preview = await stack.preview();
    expect(preview.error?.message).toBeUndefined();
    expect(preview.steps.filter((s) => s.type === BRANCH).map((s) => s.op)).toEqual(["same"]);
    const up = ok(await stack.up());
    expect(up.steps.filter((s) => s.type === BRANCH).map((s) => s.op)).toEqual(["same"]);
    expect(writes(up)).toEqual([]);
    expect(outputs(stack).id).toBe(id);

    declared.protected = false;
    ok(await stack.up({ skipPreview: true }));
    ok(await stack.destroy({ skipPreview: true }));
  });
});
