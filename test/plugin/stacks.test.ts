/**
 * Two stacks sharing a name: the same project and stack names in two backends (two developers' local stacks, or a
 * stack copied to a new organisation), running the same program against one Neon project. Their resources have the
 * same URNs, so the same owner tag; neither may take, delete or revoke what the other made, not even after a lost
 * response or during a replacement.
 */
import { ApiKey, Compute } from "../../provider";
import { LocalStack } from "../../testing";
import { neonWorld, NeonWorld, ok, outputs } from "./world";

let world: NeonWorld;
beforeAll(async () => {
  world = await neonWorld();
});
afterAll(() => world.stop());
afterEach(() => world.emulator.faults.clear());

/** One of the twin stacks: project "app", stack "dev", a compute "db" on `branch` and a key "ci". */
function twin(branch: string, type: "read_only" | "read_write"): LocalStack {
  return world.stack(
    () => {
      const db = new Compute("db", { projectId: world.projectId, branchId: branch, type });
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
  it("each gets its own replica and key, even when the second's creates lose their responses", async () => {
    const branch = world.branches.staging;
    const first = twin(branch, "read_only");
    const second = twin(branch, "read_only");
    ok(await first.up({ skipPreview: true }));
    world.emulator.faults.add({ method: "POST", path: "/endpoints", kind: "ambiguous", times: 1 });
    world.emulator.faults.add({ method: "POST", path: "/api_keys", kind: "ambiguous", times: 1 });
    ok(await second.up({ skipPreview: true }));

    const [a, b] = [outputs(first), outputs(second)];
    expect(a.id).not.toBe(b.id);
    expect(await computesOn(branch)).toEqual([a.id, b.id].sort());
    expect(a.keyId).not.toBe(b.keyId);
    expect(await statusWith(a.key)).toBe(200);
    expect(await statusWith(b.key)).toBe(200);

    ok(await second.destroy());
    expect(await computesOn(branch)).toEqual([a.id]);
    expect(await statusWith(a.key)).toBe(200);
    expect((await first.up()).requests).toEqual([]);
    ok(await first.destroy());
  });

  it("up --replace in one stack makes a new replica and leaves the other stack's alone", async () => {
    const branch = world.branches.staging;
    const first = twin(branch, "read_only");
    const second = twin(branch, "read_only");
    ok(await first.up({ skipPreview: true }));
    ok(await second.up({ skipPreview: true }));
    const [before, theirs] = [outputs(first).id, outputs(second).id];

    ok(await first.up({ replace: ["db"] }));
    const after = outputs(first).id;
    expect(after).not.toBe(before);
    expect(after).not.toBe(theirs);
    expect(await computesOn(branch)).toEqual([after, theirs].sort());
    const refreshed = ok(await second.refresh());
    expect(refreshed.steps.find((s) => s.name === "db")).toMatchObject({ op: "refresh", found: "same" });

    ok(await first.destroy());
    ok(await second.destroy());
    expect(await computesOn(branch)).toEqual([]);
  });

  it("a primary on a branch the other stack's primary holds fails naming that compute, and takes nothing", async () => {
    const branch = world.branches.dev;
    const first = twin(branch, "read_write");
    const second = twin(branch, "read_write");
    ok(await first.up({ skipPreview: true }));
    const theirs = outputs(first).id;

    const up = await second.up({ skipPreview: true });
    expect(up.error?.message).toContain(`its primary (read_write) compute is ${theirs}`);
    expect(up.error?.message).toMatch(/another stack with the same project and stack names .*: it is not yours/);
    expect(second.state.resources.some((r) => r.urn.endsWith("::db"))).toBe(false);
    expect(await computesOn(branch)).toEqual([theirs]);

    ok(await second.destroy());
    expect(await computesOn(branch)).toEqual([theirs]);
    expect((await first.up()).requests).toEqual([]);
    ok(await first.destroy());
  });
});
