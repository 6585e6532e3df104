/**
 * No planned update that cannot succeed (issue 23, item 6): Neon sets a branch's annotations only when it creates it
 * (OpenAPI: `annotation_value` is taken by `createProjectBranch` alone; `BranchUpdateRequest` has none). A change is
 * refused at preview, naming annotations and the way out, with nothing sent; it once planned an update that failed
 * at every later `up` until the program was reverted.
 */
import { Branch, BranchArgs } from "../../provider";
import { neonWorld, NeonWorld, ok, outputs, writes } from "./world";

let world: NeonWorld;
beforeAll(async () => {
  world = await neonWorld();
});
afterAll(() => world.stop());

const annotationsOf = async (id: string) => (await world.api.branches.get(world.projectId, id)).annotation?.value ?? {};

function annotatedStack(name: string, args: Partial<BranchArgs>) {
  const declared = { args, trigger: "v1" };
  const stack = world.stack(() => ({
    id: new Branch(name, { projectId: world.projectId, ...declared.args }, { replacementTrigger: declared.trigger })
      .branchId,
  }));
  return { stack, declared, id: () => String(outputs(stack).id) };
}

describe("a change of a branch's annotations", () => {
  it("is refused at preview and at up, naming annotations and the way out; nothing is sent", async () => {
    const { stack, declared, id } = annotatedStack("notes", { annotations: { "pulumi-stack": "pr-1" } });
    ok(await stack.up({ skipPreview: true }));
    const made = id();

    declared.args = { annotations: { "pulumi-stack": "pr-1", "pull-request": "https://example.com/pull/1" } };
    const preview = await stack.preview();
    const message = preview.error?.message ?? "";
    expect(message).toContain("annotations: cannot change on an existing branch");
    expect(message).toContain('add "pull-request"');
    expect(message).toContain("replacementTrigger");
    expect(message).not.toContain("example.com"); // values are not shown: they may be secrets
    expect(preview.requests).toEqual([]);
    const up = await stack.up();
    expect(up.error?.message).toContain("annotations: cannot change on an existing branch");
    expect(writes(up)).toEqual([]);
    expect(await annotationsOf(made)).toEqual({ "pulumi-stack": "pr-1" });

    // The way out: a new replacementTrigger makes a new branch with the new annotations.
    declared.trigger = "v2";
    ok(await stack.up({ skipPreview: true }));
    expect(id()).not.toBe(made);
    expect(await annotationsOf(id())).toEqual({ "pulumi-stack": "pr-1", "pull-request": "https://example.com/pull/1" });
    ok(await stack.destroy({ skipPreview: true }));
  });

  it("first declared on a branch that has others: refused at preview (the Diff, from the service's record)", async () => {
    const { stack, declared, id } = annotatedStack("bare", {});
    ok(await stack.up({ skipPreview: true }));
    declared.args = { annotations: { env: "test" } };
    const preview = await stack.preview();
    expect(preview.error?.message ?? "").toContain(`Branch "bare" (${id()}): annotations: cannot change`);
    expect(preview.requests).toEqual([]);
    ok(await stack.destroy({ skipPreview: true }));
  });

  it("removed from the program: recorded, nothing sent, the branch keeps them; declaring them again changes nothing", async () => {
    const { stack, declared, id } = annotatedStack("kept", { annotations: { env: "test" } });
    ok(await stack.up({ skipPreview: true }));
    declared.args = {};
    const up = ok(await stack.up());
    expect(writes(up)).toEqual([]);
    expect(await annotationsOf(id())).toEqual({ env: "test" });
    declared.args = { annotations: { env: "test" } };
    expect(writes(ok(await stack.up()))).toEqual([]);
    ok(await stack.destroy({ skipPreview: true }));
  });
});
