/**
 * Replacements the engine makes without asking the provider's diff: `pulumi up --replace`, a `replacementTrigger`, a
 * resource moved under a new parent. In each, Create is called while the compute the state holds still exists (it
 * carries this resource's tag). A new `replacementTrigger` checks the old inputs first, so the provider knows the
 * state holds the resource: it makes a new compute (a primary cannot have a second on its branch: that fails with
 * 409, naming the compute and the fix, and loses nothing), which the engine then deletes. `--replace` and a new
 * parent give no such sign and look like a compute the state forgot (strays.ts): the create takes the compute over,
 * and the delete of the old state in the same up leaves it, with warnings. Nothing is lost either way.
 */
import * as pulumi from "@pulumi/pulumi";
import { Compute, ComputeArgs } from "../../provider";
import { LocalStack } from "../../testing";
import { neonWorld, NeonWorld, ok, ops, outputs, writes } from "./world";

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
  it("a new replacementTrigger makes a new compute and deletes the old; the state points at the new one", async () => {
    const branch = world.branches.staging;
    const declared: Declared = { args: { type: "read_only" }, opts: { replacementTrigger: "v1" } };
    const stack = stackOf(branch, declared);
    ok(await stack.up({ skipPreview: true }));
    const old = String(outputs(stack).id);
    declared.opts = { replacementTrigger: "v2" };
    const up = ok(await stack.up());
    const id = String(outputs(stack).id);
    expect(id).not.toBe(old);
    expect(await computesOn(branch)).toEqual([id]);
    expect(stack.state.resources.filter((r) => r.urn.endsWith("::db")).map((r) => r.id)).toEqual([id]);
    expect(up.steps.some((s) => s.name === "db" && s.op === "delete-replaced")).toBe(true);
    ok(await stack.destroy());
    expect(await computesOn(branch)).toEqual([]);
  });

  it.each([
    ["pulumi up --replace", (d: Declared) => d, { replace: ["db"] }],
    ["a move under a parent without an alias", (d: Declared) => ({ ...d, parented: true }), {}],
  ])("%s keeps the compute: the create takes it over, the old state's delete leaves it", async (_, change, options) => {
    const branch = world.branches.staging;
    const declared: Declared = { args: { type: "read_only" }, opts: {} };
    const stack = stackOf(branch, declared);
    ok(await stack.up({ skipPreview: true }));
    const old = String(outputs(stack).id);
    Object.assign(declared, change(declared));
    const up = ok(await stack.up(options));
    expect(String(outputs(stack).id)).toBe(old);
    expect(await computesOn(branch)).toEqual([old]);
    expect(stack.state.resources.filter((r) => r.urn.endsWith("::db")).map((r) => r.id)).toEqual([old]);
    expect(writes(up)).toEqual([]);
    const warnings = up.warnings.join("\n");
    expect(warnings).toContain(`Compute "db" took over compute ${old} on branch ${branch}`);
    expect(warnings).toContain(`Compute "db" (${old}) was not deleted: this up's create of the resource took it over`);
    ok(await stack.destroy());
    expect(await computesOn(branch)).toEqual([]);
  });
});

describe("a primary replaced by the engine", () => {
  it("up --replace without deleteBeforeReplace keeps the primary (taken over, not deleted), saying how to replace it", async () => {
    const branch = world.branches.dev;
    const stack = stackOf(branch, { args: {}, opts: {} });
    ok(await stack.up({ skipPreview: true }));
    const old = String(outputs(stack).id);
    const up = ok(await stack.up({ replace: ["db"] }));
    expect(writes(up)).toEqual([]);
    expect(up.warnings.join("\n")).toContain("For a new compute, give the resource deleteBeforeReplace: true");
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
