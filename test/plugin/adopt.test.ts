/**
 * Adopting an existing compute by id (Pulumi's `import` cannot reach a dynamic provider).
 */
import { Compute, ComputeArgs } from "../../provider";
import { NeonClient } from "../../sdk";
import { run } from "../harness/program";
import { startWorld, World, writes } from "../harness/world";

let world: World;
let mainBranch: string;
let primaryId: string;

beforeAll(async () => {
  world = await startWorld();
  const api = new NeonClient({ apiKey: world.emulator.apiKey, apiUrl: world.emulator.baseUrl });
  mainBranch = (await api.branches.list(world.emulator.projectId)).find((b) => b.name === "main")!.id;
  primaryId = (await api.endpoints.listForBranch(world.emulator.projectId, mainBranch)).find(
    (c) => c.type === "read_write",
  )!.id;
});
afterAll(() => world.stop());
afterEach(() => {
  world.engine.errors = [];
});

const adopting = (args: Partial<ComputeArgs>) => () =>
  new Compute("main", { projectId: world.emulator.projectId, branchId: mainBranch, adoptId: primaryId, ...args }).id;

describe("adoptId", () => {
  it("refuses a compute that does not exist, naming adoptId", async () => {
    const result = await run(world.engine, adopting({ adoptId: "ep-nothing-000000" }));
    expect(result.errors[0]?.message).toContain(
      `adoptId: compute ep-nothing-000000 does not exist in project ${world.emulator.projectId}`,
    );
  });

  it("refuses to adopt what would need a replacement, naming the property", async () => {
    const result = await run(world.engine, adopting({ type: "read_only" }));
    expect(result.errors[0]?.message).toContain(
      "type is read_write on the service, and the program declares another value",
    );
  });

  it("takes the compute under management with one PATCH of what differs, and no create", async () => {
    const mark = world.mark();
    const result = await run(world.engine, adopting({ suspendTimeoutSeconds: 600 }));
    expect(result.errors).toEqual([]);
    expect(result.exports).toBe(primaryId);
    expect(writes(world.requestsSince(mark))).toEqual([
      `PATCH /projects/${world.emulator.projectId}/endpoints/${primaryId}`,
    ]);
    const again = world.mark();
    await run(world.engine, adopting({ suspendTimeoutSeconds: 600 }));
    expect(world.requestsSince(again)).toEqual([]);
  });
});
