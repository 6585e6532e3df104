/**
 * Lists read to the end, through the real plugin against an emulator that answers pages of one item where the API
 * pages (branches, operations, projects): a provider that reads one page takes "not in that page" for "gone". The
 * case of issue 23: a branch removed from the program stayed on the service while the state forgot it.
 */
import { Branch } from "../../provider";
import { neonWorld, NeonWorld, ok, outputs, writes } from "./world";

let world: NeonWorld;
beforeAll(async () => {
  world = await neonWorld({ emulator: { pageSize: 1 } });
});
afterAll(() => world.stop());

const branchesPath = () => `/projects/${world.projectId}/branches`;
const onService = async (id: string) => (await world.api.branches.list(world.projectId)).some((b) => b.id === id);

/** Branches made outside Pulumi after the stack's, so that the stack's is on no first page, whatever the sort. */
async function branchesAfter(...names: string[]): Promise<void> {
  for (const name of names) await world.api.branches.create(world.projectId, { branch: { name } });
}

describe("with more branches than a page holds", () => {
  it("removing a branch from the program deletes it on the service (it was forgotten and left there)", async () => {
    const declared = { present: true };
    const stack = world.stack(() =>
      declared.present ? { id: new Branch("paged-out", { projectId: world.projectId }).branchId } : {},
    );
    ok(await stack.up({ skipPreview: true }));
    const id = String(outputs(stack).id);
    await branchesAfter("later-1", "later-2");
    declared.present = false;
    const up = ok(await stack.up({ skipPreview: true }));
    expect(writes(up)).toEqual([`DELETE ${branchesPath()}/${id}`]);
    expect(await onService(id)).toBe(false);
  });

  it("a Branch named like a branch on a later page is refused, naming that branch's id, and sends nothing", async () => {
    await branchesAfter("later-3", "later-4");
    const stack = world.stack(() => ({ id: new Branch("dup", { projectId: world.projectId, name: "dev" }).branchId }));
    const up = await stack.up({ skipPreview: true });
    expect(up.error?.message).toContain(
      `a branch named "dev" already exists in project ${world.projectId}: ${world.branches.dev}.`,
    );
    expect(writes(up)).toEqual([]);
  });
});
