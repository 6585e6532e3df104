/**
 * What Branch promises when the service or the network fails, when a program creates a branch and its computes in
 * one `up`, and when a branch expires, through the local engine against the emulator: a lost create response never
 * makes a duplicate, a branch that exists is never orphaned, no 423 is met, and an expired branch leaves the state on
 * refresh.
 */
import { Branch, Compute } from "../../provider";
import { LocalStack } from "../../testing";
import { neonWorld, NeonWorld, ok, outputs, requests, writes } from "./world";

const BRANCH = "pulumi-nodejs:dynamic/neon:Branch";

describe("Branch under faults", () => {
  let world: NeonWorld;
  let stack: LocalStack;
  beforeAll(async () => {
    world = await neonWorld();
    stack = world.stack(() => ({ id: new Branch("lossy", { projectId: world.projectId }).branchId }), {
      config: { "neon:waitTimeoutSeconds": "1" },
    });
  });
  afterAll(() => world.stop());
  afterEach(() => world.emulator.faults.clear());

  const create = () => `POST /projects/${world.projectId}/branches`;
  const CREATE = /\/branches$/;
  const named = async (name: string) =>
    (await world.api.branches.list(world.projectId)).filter((b) => b.name === name).map((b) => b.id);
  const kept = () => stack.state.resources.find((r) => r.type === BRANCH);

  it.each([
    ["a create whose response is lost (applied) is found by its name, not sent again", "ambiguous", 1, 1],
    ["a create answered 524 (applied, outcome unknown) is found by its name, not sent again", "524", 1, 1],
    ["a create reset before the service acted is sent again, making one branch", "reset", 1, 2],
    ["two lost attempts in a row: read back each time, then sent again; one branch", "reset", 2, 3],
  ] as const)("%s", async (_, kind, times, posts) => {
    world.emulator.faults.add({ method: "POST", path: CREATE, kind, times });
    const up = ok(await stack.up({ skipPreview: true }));
    expect(writes(up)).toEqual(Array(posts).fill(create()));
    expect(await named("lossy")).toEqual([outputs(stack).id]);
    ok(await stack.destroy({ skipPreview: true }));
    expect(await named("lossy")).toEqual([]);
  });

  it("a branch whose create operation fails stays in state with its id, and the next up repairs nothing twice", async () => {
    world.emulator.operations.failNext({ action: "create_branch" });
    const first = await stack.up({ skipPreview: true });
    expect(first.error?.message).toMatch(/br-[a-z0-9-]+ exists but is not ready: .*create_branch/);
    expect(kept()?.id).toMatch(/^br-/);
    expect(kept()?.outputs.__provider).toEqual(expect.stringContaining("branch/impl"));
    expect(await named("lossy")).toEqual([kept()?.id]);
    const again = ok(await stack.up({ skipPreview: true }));
    expect(writes(again)).toEqual([]);
    expect(await named("lossy")).toEqual([kept()?.id]);
    ok(await stack.destroy({ skipPreview: true }));
  });

  it("a delete whose response is lost twice in a row still ends with the branch gone", async () => {
    ok(await stack.up({ skipPreview: true }));
    const id = String(outputs(stack).id);
    world.emulator.faults.add({ method: "DELETE", path: `/branches/${id}`, kind: "502", times: 2 });
    ok(await stack.destroy({ skipPreview: true }));
    expect(await named("lossy")).toEqual([]);
  });
});

describe("a branch and several computes on it in one up, in parallel", () => {
  it("meets no 423: the provider waits for the branch's operations before its computes' creates", async () => {
    const world = await neonWorld({ emulator: { operationDurationMs: 200 } });
    try {
      const stack = world.stack(
        () => {
          const branch = new Branch("busy", { projectId: world.projectId });
          const projectId = world.projectId;
          const computes = [
            new Compute("busy-rw", { projectId, branchId: branch.branchId }),
            ...[1, 2, 3].map(
              (i) => new Compute(`busy-ro-${i}`, { projectId, branchId: branch.branchId, type: "read_only" }),
            ),
          ];
          return { branch: branch.branchId, computes: computes.map((c) => c.id) };
        },
        { parallel: 8 },
      );
      const up = ok(await stack.up({ skipPreview: true }));
      expect(requests(up).filter((r) => r.status === 423)).toEqual([]);
      const branchId = String(outputs(stack).branch);
      expect((await world.api.endpoints.listForBranch(world.projectId, branchId)).length).toBe(4);
      const destroy = ok(await stack.destroy({ skipPreview: true }));
      expect(requests(destroy).filter((r) => r.status === 423)).toEqual([]);
    } finally {
      await world.stop();
    }
  });
});

describe("expiry", () => {
  it("a branch whose expiresAt passed is gone on the service; refresh removes it from the state", async () => {
    const world = await neonWorld({ emulator: { manualClock: true, operationDurationMs: 0 } });
    try {
      const expiresAt = new Date(Date.now() + 3_600_000).toISOString().replace(/\.\d{3}Z$/, "Z");
      const stack = world.stack(() => ({
        id: new Branch("short", { projectId: world.projectId, expiresAt }).branchId,
      }));
      ok(await stack.up({ skipPreview: true }));
      const id = String(outputs(stack).id);
      expect((await world.api.branches.get(world.projectId, id)).branch.expires_at).toBe(expiresAt);
      world.emulator.clock.advance(2 * 3_600_000);
      const refresh = ok(await stack.refresh());
      expect(refresh.steps.filter((s) => s.type === BRANCH).map((s) => s.found)).toEqual(["delete"]);
      expect(stack.state.resources.filter((r) => r.type === BRANCH)).toEqual([]);
      expect(writes(refresh)).toEqual([]);
      // A destroy now has nothing to do.
      expect(writes(ok(await stack.destroy({ skipPreview: true })))).toEqual([]);
    } finally {
      await world.stop();
    }
  });
});
