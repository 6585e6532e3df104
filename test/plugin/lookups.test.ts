/**
 * The lookups in a program run by the local engine (the dynamic plugin, a new process per command), against the
 * emulator with pages of two: a program finds its project's branch by name and declares a Role and a Database on it
 * from the lookup's branchId, reads back lists longer than a page, and the next preview plans nothing (a lookup is a
 * read of the program, never a change). A branch the project lacks fails the program, naming it.
 */
import {
  Database,
  getBranch,
  getBranchesOutput,
  getBranchOutput,
  getComputesOutput,
  getDatabasesOutput,
  getProjectOutput,
  getRolesOutput,
  Role,
} from "../../provider";
import { neonWorld, NeonWorld, ok, outputs, writes } from "./world";

let world: NeonWorld;

beforeAll(async () => {
  world = await neonWorld();
  for (const name of ["qa", "perf"]) await world.api.branches.create(world.projectId, { name });
});
afterAll(() => world.stop());

describe("lookups in a program", () => {
  it("find a branch by name for the resources declared on it, read every page, and change nothing on the next run", async () => {
    const projectId = world.projectId;
    const stack = world.stack(() => {
      const qa = getBranchOutput({ projectId, name: "qa" });
      const role = new Role("reporter", { projectId, branchId: qa.branchId, name: "reporter" });
      const db = new Database("reports", { projectId, branchId: qa.branchId, name: "reports", ownerName: role.name });
      const onQa = { projectId, branchId: qa.branchId };
      return {
        qa: qa.branchId,
        branches: getBranchesOutput({ projectId }).branches.apply((list) => list.map((b) => b.name).sort()),
        defaultBranchId: getProjectOutput({ projectId }).defaultBranchId,
        computes: getComputesOutput({ projectId }).computes.apply((list) => list.map((c) => c.branchId)),
        // read once the role and the database exist
        roles: role.name.apply(() =>
          getRolesOutput(onQa).roles.apply((list) => list.map((r) => [r.name, "password" in r])),
        ),
        databases: db.name.apply(() => getDatabasesOutput(onQa).databases.apply((list) => list.map((d) => d.name))),
      };
    });
    ok(await stack.up());
    const out = outputs(stack);
    const qa = (await world.api.branches.list(projectId)).find((b) => b.name === "qa")!;
    expect(out).toMatchObject({
      qa: qa.id,
      branches: ["dev", "main", "perf", "qa", "staging"], // five branches: three pages of two
      defaultBranchId: world.branches.main,
      computes: [world.branches.main],
      databases: ["neondb", "reports"],
    });
    expect(out.roles).toEqual([
      ["neondb_owner", false],
      ["reporter", false],
    ]); // no passwords
    const preview = ok(await stack.preview());
    expect(preview.steps.every((step) => step.op === "same")).toBe(true);
    expect(writes(preview)).toEqual([]);
    ok(await stack.destroy());
  });

  it("a branch name the project lacks fails the program, naming it and the project", async () => {
    // A program that awaits getBranch: an error inside an Output's apply would escape the local engine.
    const projectId = world.projectId;
    const stack = world.stack(() => getBranch({ projectId, name: "nope" }).then((b) => ({ id: b.branchId })));
    const up = await stack.up();
    expect(up.error?.message).toContain(`getBranch: project ${projectId} has no branch named "nope"`);
  });
});
