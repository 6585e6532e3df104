/**
 * Replacements the engine makes without asking the provider's diff: `pulumi up --replace`, a `replacementTrigger`, a
 * resource moved under a new parent. The Compute class gives every compute `deleteBeforeReplace`, so a replacement
 * deletes the old compute, then creates the new one, for a replica and a primary alike. A create that meets a compute
 * named for the resource that no state is known to hold (a move under a new parent without an alias, a replacement
 * whose program turned the option off) is refused before anything is sent, naming it, and loses nothing
 * (provider/compute/owner-tag.ts); a primary whose state is known gets the branch's 409 explained.
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

const idsInState = (stack: LocalStack) => stack.state.resources.filter((r) => r.urn.endsWith("::db")).map((r) => r.id);
const writes = (up: Awaited<ReturnType<LocalStack["up"]>>) =>
  (up.requests as { method: string; path: string }[]).filter((r) => r.method !== "GET").map((r) => r.method);

describe("a replica replaced by the engine", () => {
  it.each([
    ["pulumi up --replace", (d: Declared) => d, { replace: ["db"] }],
    ["a new replacementTrigger", (d: Declared) => ({ ...d, opts: { replacementTrigger: "v2" } }), {}],
  ])("%s deletes the old compute, then makes a new one; the state points at it", async (_, change, options) => {
    const branch = world.branches.staging;
    const declared: Declared = { args: { type: "read_only" }, opts: { replacementTrigger: "v1" } };
    const stack = stackOf(branch, declared);
    ok(await stack.up({ skipPreview: true }));
    const old = String(outputs(stack).id);
    Object.assign(declared, change(declared));
    const up = ok(await stack.up(options));
    const id = String(outputs(stack).id);
    expect(id).not.toBe(old);
    expect(writes(up)).toEqual(["DELETE", "POST"]);
    expect(up.warnings).toEqual([]);
    expect(await computesOn(branch)).toEqual([id]);
    expect(idsInState(stack)).toEqual([id]);
    ok(await stack.destroy());
    expect(await computesOn(branch)).toEqual([]);
  });

  it("a move under a parent without an alias is refused naming the old compute; an alias keeps it", async () => {
    const branch = world.branches.staging;
    const declared: Declared = { args: { type: "read_only" }, opts: {} };
    const stack = stackOf(branch, declared);
    ok(await stack.up({ skipPreview: true }));
    const old = String(outputs(stack).id);
    declared.parented = true;
    const refused = await stack.up();
    expect(refused.error?.message).toContain(`${old} (pulumi-`);
    expect(refused.error?.message).toContain("if you moved this resource under a new parent, give it an alias");
    expect(writes(refused)).toEqual([]);
    expect(await computesOn(branch)).toEqual([old]);
    expect(idsInState(stack)).toEqual([old]);
    declared.opts = { aliases: [{ parent: pulumi.rootStackResource }] };
    const moved = ok(await stack.up());
    expect(writes(moved)).toEqual([]);
    expect(idsInState(stack)).toEqual([old]);
    ok(await stack.destroy());
    expect(await computesOn(branch)).toEqual([]);
  });

  it("up --replace with deleteBeforeReplace: false is refused naming the old compute, and loses nothing", async () => {
    const branch = world.branches.staging;
    const stack = stackOf(branch, { args: { type: "read_only" }, opts: { deleteBeforeReplace: false } });
    ok(await stack.up({ skipPreview: true }));
    const old = String(outputs(stack).id);
    const refused = await stack.up({ replace: ["db"] });
    expect(refused.error?.message).toContain(`${old} (pulumi-`);
    expect(refused.error?.message).toContain("if this is a replacement, set deleteBeforeReplace: true");
    expect(writes(refused)).toEqual([]);
    expect(await computesOn(branch)).toEqual([old]);
    expect(idsInState(stack)).toEqual([old]);
    ok(await stack.destroy());
  });
});

describe("a primary replaced by the engine", () => {
  it("up --replace deletes the old primary first, then creates the new one", async () => {
    const branch = world.branches.dev;
    const stack = stackOf(branch, { args: {}, opts: {} });
    ok(await stack.up({ skipPreview: true }));
    const old = String(outputs(stack).id);
    const up = ok(await stack.up({ replace: ["db"] }));
    expect(ops(up)).toEqual(["create-replacement db", "delete-replaced db", "replace db"]);
    expect(writes(up)).toEqual(["DELETE", "POST"]);
    const id = String(outputs(stack).id);
    expect(id).not.toBe(old);
    expect(await computesOn(branch)).toEqual([id]);
    ok(await stack.destroy());
  });

  it("a replacementTrigger with deleteBeforeReplace: false fails with the 409 explained, keeping it; the default replaces", async () => {
    const branch = world.branches.dev;
    const declared: Declared = { args: {}, opts: { replacementTrigger: "v1", deleteBeforeReplace: false } };
    const stack = stackOf(branch, declared);
    ok(await stack.up({ skipPreview: true }));
    const old = String(outputs(stack).id);
    declared.opts = { replacementTrigger: "v2", deleteBeforeReplace: false };
    const up = await stack.up();
    expect(up.error?.message).toContain(`cannot create a primary compute on branch ${branch}`);
    expect(up.error?.message).toContain(`its primary (read_write) compute is ${old}`);
    expect(up.error?.message).toContain("If the resource sets deleteBeforeReplace: false");
    expect(await computesOn(branch)).toEqual([old]);
    expect(idsInState(stack)).toEqual([old]);
    declared.opts = { replacementTrigger: "v2" };
    ok(await stack.up({ skipPreview: true }));
    expect(String(outputs(stack).id)).not.toBe(old);
    ok(await stack.destroy());
  });
});
