/**
 * Adopting an existing compute by id (Pulumi's `import` cannot reach a dynamic provider), through the local engine.
 */
import { Compute, ComputeArgs } from "../../provider";
import { neonWorld, NeonWorld, ok, outputs, writes } from "./world";

let world: NeonWorld;
let primaryId: string;

beforeAll(async () => {
  world = await neonWorld();
  primaryId = (await world.api.endpoints.listForBranch(world.projectId, world.branches.main)).find(
    (c) => c.type === "read_write",
  )!.id;
});
afterAll(() => world.stop());

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

  it("takes the compute under management with one PATCH of what differs, and no create; a kept adoptId warns", async () => {
    const { stack, declared } = adopting({ suspendTimeoutSeconds: 600 });
    const up = ok(await stack.up());
    expect(outputs(stack).id).toBe(primaryId);
    expect(writes(up)).toEqual([`PATCH /projects/${world.projectId}/endpoints/${primaryId}`]);
    const again = ok(await stack.up());
    expect(again.requests).toEqual([]);
    expect(again.preview?.diagnostics.map((d) => d.message).join("\n")).toContain("adoptId only acts on the first up");

    // With adoptId still in the program, a replacement would adopt the compute it replaces: it refuses instead.
    const replaced = await stack.up({ replace: ["main"] });
    expect(replaced.error?.message).toContain(`adoptId: compute ${primaryId} already belongs to this resource`);
    expect((await world.api.endpoints.get(world.projectId, primaryId)).id).toBe(primaryId);

    // Removing adoptId changes nothing on the service.
    delete declared.args.adoptId;
    expect((await stack.up()).requests).toEqual([]);
  });
});
