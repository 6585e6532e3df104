/**
 * Replacements the engine makes without asking the provider's diff: `pulumi up --replace`, a `replacementTrigger`, a
 * resource moved under a new parent. In each, Create is called while the compute the state holds still exists (it
 * carries this resource's tag); the provider must make a new compute, never take the old one, which the engine then
 * deletes. A primary cannot have a second compute on its branch: that fails with 409, naming the compute and the
 * fix, and loses nothing, unless the program asks for deleteBeforeReplace.
 */
import * as pulumi from "@pulumi/pulumi";
import { Compute, ComputeArgs } from "../../provider";
import { LocalStack } from "../../testing";
import { neonWorld, NeonWorld, ok, ops, outputs } from "./world";

let world: NeonWorld;
beforeAll(async () => {
  world = await neonWorld();
});
afterAll(() => world.stop());

class Group extends pulumi.ComponentResource {
  constructor(name: string, opts?: pulumi.ComponentResourceOptions) {
    super("app:index:Group", name, {}, opts);
  }
}

interface Declared {
  args: Partial<ComputeArgs>;
  opts: pulumi.CustomResourceOptions;
  parented?: boolean;
}

function stackOf(branch: string, declared: Declared): LocalStack {
  return world.stack(() => {
    const parent = declared.parented ? { parent: new Group("group") } : {};
    const db = new Compute(
      "db",
      { projectId: world.projectId, branchId: branch, ...declared.args },
      {
        ...declared.opts,
        ...parent,
      },
    );
    return { id: db.id };
  });
}

async function computesOn(branch: string): Promise<string[]> {
  return (await world.api.endpoints.listForBranch(world.projectId, branch)).map((c) => c.id).sort();
}

describe("a replica replaced by the engine", () => {
  it.each([
    ["pulumi up --replace", (d: Declared) => d, { replace: ["db"] }],
    ["a new replacementTrigger", (d: Declared) => ({ ...d, opts: { replacementTrigger: "v2" } }), {}],
    ["a move under a parent without an alias", (d: Declared) => ({ ...d, parented: true }), {}],
  ])("%s makes a new compute and deletes the old; the state points at the new one", async (_, change, options) => {
    const branch = world.branches.staging;
    const declared: Declared = { args: { type: "read_only" }, opts: { replacementTrigger: "v1" } };
    const stack = stackOf(branch, declared);
    ok(await stack.up({ skipPreview: true }));
    const old = String(outputs(stack).id);
    Object.assign(declared, change(declared));
    const up = ok(await stack.up(options));
    const id = String(outputs(stack).id);
    expect(id).not.toBe(old);
    expect(await computesOn(branch)).toEqual([id]);
    expect(stack.state.resources.filter((r) => r.urn.endsWith("::db")).map((r) => r.id)).toEqual([id]);
    expect(up.steps.some((s) => s.name === "db" && (s.op === "delete-replaced" || s.op === "delete"))).toBe(true);
    ok(await stack.destroy());
    expect(await computesOn(branch)).toEqual([]);
  });
});

describe("a primary replaced by the engine", () => {
  it("up --replace without deleteBeforeReplace fails with 409, names the compute and the option, and loses nothing", async () => {
    const branch = world.branches.dev;
    const stack = stackOf(branch, { args: {}, opts: {} });
    ok(await stack.up({ skipPreview: true }));
    const old = String(outputs(stack).id);
    const up = await stack.up({ replace: ["db"] });
    expect(up.error?.message).toContain(`cannot create a primary compute on branch ${branch}`);
    expect(up.error?.message).toContain(`its primary (read_write) compute is ${old}`);
    expect(up.error?.message).toContain("deleteBeforeReplace: true");
    expect(await computesOn(branch)).toEqual([old]);
    expect(stack.state.resources.filter((r) => r.urn.endsWith("::db")).map((r) => r.id)).toEqual([old]);
    ok(await stack.destroy());
  });

  it("up --replace with deleteBeforeReplace deletes the old primary first, then creates the new one", async () => {
    const branch = world.branches.dev;
    const stack = stackOf(branch, { args: {}, opts: { deleteBeforeReplace: true } });
    ok(await stack.up({ skipPreview: true }));
    const old = String(outputs(stack).id);
    const up = ok(await stack.up({ replace: ["db"] }));
    expect(ops(up)).toEqual(["create-replacement db", "delete-replaced db", "replace db"]);
    const id = String(outputs(stack).id);
    expect(id).not.toBe(old);
    expect(await computesOn(branch)).toEqual([id]);
    ok(await stack.destroy());
  });

  it("a replacementTrigger on a primary without deleteBeforeReplace fails the same way, keeping it", async () => {
    const branch = world.branches.dev;
    const declared: Declared = { args: {}, opts: { replacementTrigger: "v1" } };
    const stack = stackOf(branch, declared);
    ok(await stack.up({ skipPreview: true }));
    const old = String(outputs(stack).id);
    declared.opts = { replacementTrigger: "v2" };
    const up = await stack.up();
    expect(up.error?.message).toContain("deleteBeforeReplace: true");
    expect(await computesOn(branch)).toEqual([old]);
    declared.opts = { replacementTrigger: "v2", deleteBeforeReplace: true };
    ok(await stack.up({ skipPreview: true }));
    expect(String(outputs(stack).id)).not.toBe(old);
    ok(await stack.destroy());
  });
});
