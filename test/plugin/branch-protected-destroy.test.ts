/**
 * What is on a protected branch survives a destroy (issue 23, item 14; the real CLI's --exclude-protected is in
 * test/cli/branch.test.ts). A branch protected in the console, which the program does not say is protected, has no
 * Pulumi protect: a destroy reached the database and role on it (deleted), then Neon refused the compute and the
 * branch, which survived without its data. Now each delete reads the branch first and refuses, sending nothing.
 */
import { Branch, Compute, Database, Role } from "../../provider";
import { neonWorld, NeonWorld, ok, outputs, writes } from "./world";

let world: NeonWorld;
beforeAll(async () => {
  world = await neonWorld();
});
afterAll(() => world.stop());

it("a destroy keeps the compute, role and database of a branch protected on Neon, and says why", async () => {
  const stack = world.stack(() => {
    const projectId = world.projectId;
    const branch = new Branch("guarded", { projectId });
    const compute = new Compute("guarded-db", { projectId, branchId: branch.branchId });
    const role = new Role("guarded-role", { projectId, branchId: branch.branchId, name: "keeper" });
    new Database("guarded-data", { projectId, branchId: branch.branchId, name: "kept", ownerName: role.name });
    return { branch: branch.branchId, compute: compute.id };
  });
  ok(await stack.up({ skipPreview: true }));
  const branch = String(outputs(stack).branch);
  const onBranch = async () => ({
    computes: (await world.api.endpoints.list(world.projectId)).filter((e) => e.branch_id === branch).length,
    roles: (await world.api.roles.list(world.projectId, branch)).map((r) => r.name).filter((n) => n === "keeper"),
    databases: (await world.api.databases.list(world.projectId, branch)).map((d) => d.name).filter((n) => n === "kept"),
  });
  const whole = { computes: 1, roles: ["keeper"], databases: ["kept"] };
  await world.api.branches.update(world.projectId, branch, { branch: { protected: true } }); // in the console

  const refused = await stack.destroy({ skipPreview: true });
  expect(refused.error?.message).toContain(`database kept was not deleted: its branch ${branch} is protected on Neon`);
  expect(refused.error?.message).toContain("Nothing on the branch was deleted");
  expect(writes(refused)).toEqual([]);
  expect(await onBranch()).toEqual(whole);

  // Unprotected: the same destroy deletes them all, the branch last.
  await world.api.branches.update(world.projectId, branch, { branch: { protected: false } });
  ok(await stack.destroy({ skipPreview: true }));
  expect((await world.api.branches.list(world.projectId)).map((b) => b.id)).not.toContain(branch);
}, 180_000); // four resources made and two destroys: over jest's 60 s on a loaded machine
