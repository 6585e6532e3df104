/**
 * Two stacks sharing a name: the same project and stack names in two backends (two developers' local stacks, or a
 * stack copied to a new organisation), running the same program against one Neon project. Their resources have the
 * same URNs, so the same owner tag; neither may take, delete or revoke what the other made, not even after a lost
 * response or during a replacement. A compute named for a resource that the stack's state does not hold is refused
 * before anything is sent (it may be this twin's, or one an interrupted up left: provider/compute/owner-tag.ts), so the
 * second twin renames its resource, as the refusal says.
 */
import { ApiKey, Compute } from "../../provider";
import { LocalStack } from "../../testing";
import { neonWorld, NeonWorld, ok, outputs, writes } from "./world";

let world: NeonWorld;
beforeAll(async () => {
  world = await neonWorld();
});
afterAll(() => world.stop());
afterEach(() => world.emulator.faults.clear());

/** One of the twin stacks: project "app", stack "dev", a compute "db" on `branch` and a key "ci". */
function twin(branch: string, type: "read_only" | "read_write", computeName = "db"): LocalStack {
  return world.stack(
    () => {
      const db = new Compute(computeName, { projectId: world.projectId, branchId: branch, type });
      const key = new ApiKey("ci", { keyName: "ci-dev" });
      return { id: db.id, key: key.key, keyId: key.keyId };
    },
    { project: "app", stack: "dev" },
  );
}

async function computesOn(branch: string): Promise<string[]> {
  return (await world.api.endpoints.listForBranch(world.projectId, branch)).map((c) => c.id).sort();
}

async function statusWith(key: string): Promise<number> {
  const response = await fetch(`${world.emulator.baseUrl}/projects/${world.projectId}`, {
    headers: { authorization: `Bearer ${key}` },
  });
  return response.status;
}

describe("two stacks with the same project and stack names", () => {
  it("the second's replica is refused naming the first's, taking nothing; renamed, each gets its own, even when the second's creates lose their responses", async () => {
    const branch = world.branches.staging;
    const first = twin(branch, "read_only");
    ok(await first.up({ skipPreview: true }));
    const theirs = String(outputs(first).id);

    const refused = await twin(branch, "read_only").up({ skipPreview: true });
    expect(refused.error?.message).toContain(`${theirs} (pulumi-`);
    expect(refused.error?.message).toContain(
      "if another stack with the same project and stack names holds it, it is not yours: rename this resource",
    );
    expect(writes(refused).filter((w) => w.includes("/endpoints"))).toEqual([]);
    expect(await computesOn(branch)).toEqual([theirs]);

    const second = twin(branch, "read_only", "db-2");
    world.emulator.faults.add({ method: "POST", path: "/endpoints", kind: "ambiguous", times: 1 });
    world.emulator.faults.add({ method: "POST", path: "/api_keys", kind: "ambiguous", times: 1 });
    ok(await second.up({ skipPreview: true }));

    const [a, b] = [outputs(first), outputs(second)];
    expect(a.id).not.toBe(b.id);
    expect(await computesOn(branch)).toEqual([a.id, b.id].sort());
    expect(a.keyId).not.toBe(b.keyId);
    expect(await statusWith(a.key)).toBe(200);
    expect(await statusWith(b.key)).toBe(200);

    ok(await second.up({ replace: ["db-2"] }));
    const replaced = outputs(second).id;
    expect(await computesOn(branch)).toEqual([a.id, replaced].sort());
    expect(ok(await first.refresh()).steps.find((s) => s.name === "db")).toMatchObject({
      op: "refresh",
      found: "same",
    });

    ok(await second.destroy());
    expect(await computesOn(branch)).toEqual([a.id]);
    expect(await statusWith(a.key)).toBe(200);
    expect((await first.up()).requests).toEqual([]);
    ok(await first.destroy());
  });

  it("a primary on a branch the other stack's primary holds fails naming that compute, and takes nothing", async () => {
    const branch = world.branches.dev;
    const first = twin(branch, "read_write");
    const second = twin(branch, "read_write");
    ok(await first.up({ skipPreview: true }));
    const theirs = outputs(first).id;

    const up = await second.up({ skipPreview: true });
    expect(up.error?.message).toContain(`${theirs} (pulumi-`);
    expect(up.error?.message).toMatch(/another stack with the same project and stack names holds it, it is not yours/);
    expect(writes(up).filter((w) => w.includes("/endpoints"))).toEqual([]);
    expect(second.state.resources.some((r) => r.urn.endsWith("::db"))).toBe(false);
    expect(await computesOn(branch)).toEqual([theirs]);

    ok(await second.destroy());
    expect(await computesOn(branch)).toEqual([theirs]);
    expect((await first.up()).requests).toEqual([]);
    ok(await first.destroy());
  });
});
