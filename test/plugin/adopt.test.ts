/**
 * Adopting an existing compute by id (Pulumi's `import` cannot reach a dynamic provider), through the local engine;
 * and the rule that keeps an adopted compute: Pulumi never deletes a compute that the state's adoptId names, since a
 * replacement adopts that same compute again while adoptId stays in the program.
 */
import * as pulumi from "@pulumi/pulumi";
import { Compute, ComputeArgs } from "../../provider";
import { LocalStack } from "../../testing";
import { neonWorld, NeonWorld, ok, ops, outputs, writes } from "./world";

let world: NeonWorld;
let primaryId: string;

beforeAll(async () => {
  world = await neonWorld();
  primaryId = (await world.api.endpoints.listForBranch(world.projectId, world.branches.main)).find(
    (c) => c.type === "read_write",
  )!.id;
});
afterAll(() => world.stop());

/** The messages of the preview an `up` ran first. */
const previewText = (up: { preview?: { diagnostics: { message: string }[] } }) =>
  (up.preview?.diagnostics ?? []).map((d) => d.message).join("\n");

function adopting(args: Partial<ComputeArgs>) {
  const declared = { args: { adoptId: primaryId, ...args } as Partial<ComputeArgs> };
  const stack = world.stack(() => ({
    id: new Compute("main", { projectId: world.projectId, branchId: world.branches.main, ...declared.args }).id,
  }));
  return { stack, declared };
}

describe("adoptId", () => {
  it("refuses a compute that does not exist, naming adoptId", async () => {
    const { stack } = adopting({ adoptId: "ep-nothing-000000" });
    const up = await stack.up();
    expect(up.error?.message).toContain(
      `adoptId: compute ep-nothing-000000 does not exist in project ${world.projectId}`,
    );
  });

  it("refuses a compute another Pulumi resource manages (named for its tag): moving a resource takes an alias", async () => {
    const holder = world.stack(() => ({
      id: new Compute("holder", { projectId: world.projectId, branchId: world.branches.dev, type: "read_only" }).id,
    }));
    ok(await holder.up({ skipPreview: true }));
    const heldId = String(outputs(holder).id);
    const mover = world.stack(() => ({
      id: new Compute("mover", {
        projectId: world.projectId,
        branchId: world.branches.dev,
        type: "read_only",
        adoptId: heldId,
      }).id,
    }));
    const up = await mover.up({ skipPreview: true });
    expect(up.error?.message).toMatch(
      new RegExp(`adoptId: compute ${heldId} is named pulumi-[0-9a-f]{12}-[0-9a-f]{8}, .* give it an alias instead`),
    );
    expect(writes(up)).toEqual([]); // nothing renamed or resized
    ok(await holder.destroy({ skipPreview: true }));
  });

  it("refuses to adopt what would need a replacement, naming the property", async () => {
    const { stack } = adopting({ type: "read_only" });
    const up = await stack.up();
    expect(up.error?.message).toContain("type is read_write on the service, and the program declares another value");
  });

  it("says in the preview what adopting may do to a running compute", async () => {
    const { stack } = adopting({ suspendTimeoutSeconds: 600 });
    const preview = ok(await stack.preview());
    expect(preview.warnings.join("\n")).toMatch(
      new RegExp(`Compute "main" adopts ${primaryId}: .* a running compute restarts \\(its open connections drop\\)`),
    );
  });

  it("takes the compute under management with one PATCH of what differs, and no create; a kept adoptId says nothing", async () => {
    const { stack, declared } = adopting({ suspendTimeoutSeconds: 600 });
    const up = ok(await stack.up());
    expect(outputs(stack).id).toBe(primaryId);
    expect(writes(up)).toEqual([`PATCH /projects/${world.projectId}/endpoints/${primaryId}`]);
    const again = ok(await stack.up());
    expect(again.requests).toEqual([]);
    expect(previewText(again)).toBe(""); // quiet when nothing changes, adoptId kept

    // With adoptId still in the program, a replacement adopts the same compute again (it keeps its tagged name: no
    // PATCH), and the replaced resource's delete leaves it: the primary is neither lost nor refused.
    const replaced = ok(await stack.up({ replace: ["main"] }));
    expect(writes(replaced)).toEqual([]);
    expect(outputs(stack).id).toBe(primaryId);
    expect(replaced.warnings.join("\n")).toContain(`Compute "main" (${primaryId}) was not deleted: it was adopted`);
    expect((await world.api.endpoints.get(world.projectId, primaryId)).id).toBe(primaryId);

    // Removing adoptId is recorded by an update that sends nothing.
    delete declared.args.adoptId;
    const removed = ok(await stack.up());
    expect(ops(removed)).toEqual(["update main"]);
    expect(removed.requests).toEqual([]);
    expect(stack.state.resources.find((r) => r.urn.endsWith("::main"))?.outputs.adoptId).toBeUndefined();
    expect((await stack.up()).requests).toEqual([]);
  });
});

class Group extends pulumi.ComponentResource {
  constructor(name: string, opts?: pulumi.ComponentResourceOptions) {
    super("app:index:Group", name, {}, opts);
  }
}

interface Reader {
  args: Partial<ComputeArgs>;
  opts: pulumi.CustomResourceOptions;
  parented?: boolean;
}

/**
 * A read replica made out of band with a name of the user's, adopted by a resource that declares that name: nothing on
 * the service tells this resource's compute from one it has not adopted yet (issue 11 review, R1).
 */
async function adoptedReader(): Promise<{ stack: LocalStack; declared: Reader; id: string }> {
  const branch = world.branches.staging;
  const { endpoint } = await world.api.endpoints.create(world.projectId, {
    endpoint: { branch_id: branch, type: "read_only", name: "legacy-reader" },
  });
  const declared: Reader = {
    args: { type: "read_only", name: "legacy-reader", adoptId: endpoint.id },
    opts: { replacementTrigger: "v1" },
  };
  const stack = world.stack(() => {
    const parent = declared.parented ? { parent: new Group("group") } : {};
    const reader = new Compute(
      "reader",
      { projectId: world.projectId, branchId: branch, ...declared.args },
      { ...declared.opts, ...parent },
    );
    return { id: reader.id };
  });
  ok(await stack.up({ skipPreview: true }));
  expect(outputs(stack).id).toBe(endpoint.id);
  return { stack, declared, id: endpoint.id };
}

const readerIds = (stack: LocalStack) =>
  stack.state.resources.filter((r) => r.urn.endsWith("::reader")).map((r) => r.id);

async function exists(id: string): Promise<boolean> {
  return (await world.api.endpoints.list(world.projectId)).some((c) => c.id === id);
}

/** Removing adoptId is an update that sends nothing; after it, destroy deletes the compute. */
async function releaseAndDestroy(stack: LocalStack, declared: Reader, id: string): Promise<void> {
  delete declared.args.adoptId;
  const released = ok(await stack.up());
  expect(ops(released)).toEqual(["update reader"]);
  expect(released.requests).toEqual([]);
  const destroyed = ok(await stack.destroy());
  expect(writes(destroyed)).toEqual([`DELETE /projects/${world.projectId}/endpoints/${id}`]);
  expect(await exists(id)).toBe(false);
}

describe("an adopted compute is never deleted while the state's adoptId names it", () => {
  it.each([
    ["pulumi up --replace", (d: Reader) => d, { replace: ["reader"] }],
    ["a new replacementTrigger", (d: Reader) => ({ ...d, opts: { replacementTrigger: "v2" } }), {}],
    ["a move under a parent without an alias", (d: Reader) => ({ ...d, parented: true }), {}],
  ])("%s adopts it again, the replaced resource leaves it, and the state points at it", async (_, change, options) => {
    const { stack, declared, id } = await adoptedReader();
    Object.assign(declared, change(declared));
    const up = ok(await stack.up(options));
    expect(ops(up).some((op) => op.startsWith("delete"))).toBe(true);
    expect(previewText(up)).toContain(
      `If this resource already holds ${id} (a replacement: pulumi up --replace, a replacementTrigger, a new ` +
        `parent), it adopts it again, and the replaced resource leaves it on the service`,
    );
    expect(writes(up)).toEqual([]);
    expect(up.warnings.join("\n")).toContain(
      `Compute "reader" (${id}) was not deleted: it was adopted, and its state still records adoptId ${id}.`,
    );
    expect(readerIds(stack)).toEqual([id]);
    expect(await exists(id)).toBe(true);
    await releaseAndDestroy(stack, declared, id);
  });

  it("an adopted primary replaced with deleteBeforeReplace: the delete leaves it, and the create adopts it again", async () => {
    // Earlier tests' resource "main" left the primary named for its tag: name it as nobody's, as an unmanaged one is.
    await world.api.endpoints.update(world.projectId, primaryId, { name: "legacy-primary" });
    const stack = world.stack(() => ({
      id: new Compute(
        "primary",
        { projectId: world.projectId, branchId: world.branches.main, adoptId: primaryId },
        { deleteBeforeReplace: true },
      ).id,
    }));
    ok(await stack.up({ skipPreview: true }));
    const up = ok(await stack.up({ replace: ["primary"] }));
    expect(ops(up)).toEqual(["create-replacement primary", "delete-replaced primary", "replace primary"]);
    expect(writes(up)).toEqual([]);
    expect(up.warnings.join("\n")).toContain(`Compute "primary" (${primaryId}) was not deleted: it was adopted`);
    expect(outputs(stack).id).toBe(primaryId);
    expect((await world.api.endpoints.get(world.projectId, primaryId)).type).toBe("read_write");
  });

  it("a destroy with adoptId still set leaves the compute and says how to delete it", async () => {
    const { stack, id } = await adoptedReader();
    const destroyed = ok(await stack.destroy());
    expect(destroyed.requests).toEqual([]);
    expect(stack.state.resources).toEqual([]);
    expect(destroyed.warnings.join("\n")).toMatch(
      new RegExp(
        `Compute "reader" \\(${id}\\) was not deleted: .* is no longer managed: it goes when its project is deleted .*; to delete it before, delete it in the Neon console`,
      ),
    );
    expect(await exists(id)).toBe(true);
    await world.api.endpoints.delete(world.projectId, id);
  });

  it("the preview of a replacing change says the adopted compute is kept, and a kept adoptId refuses it at preview", async () => {
    const { stack, declared, id } = await adoptedReader();
    declared.args = { ...declared.args, type: "read_write" };
    const refused = await stack.up();
    expect(refused.error?.message).toContain(
      `Compute "reader" (${id}) cannot be replaced (type changed) while adoptId names it`,
    );
    expect(refused.requests).toEqual([]);
    expect(readerIds(stack)).toEqual([id]);

    delete declared.args.adoptId;
    const preview = ok(await stack.preview());
    expect(preview.warnings.join("\n")).toContain(
      `Compute "reader" (${id}) is replaced (type changed) by a new compute, and ${id} stays on the service`,
    );
    declared.args = { ...declared.args, type: "read_only", adoptId: id };
    await releaseAndDestroy(stack, declared, id);
  });
});
