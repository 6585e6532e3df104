/**
 * Branch through the real Pulumi CLI (`CliStack`: the Automation API, an inline program, a file backend) against the
 * emulator: a branch with a compute on it created, then the no-change check (a preview of only `same` steps sending
 * nothing, a refresh finding nothing); an update (one PATCH); a reset with the preview's warning (one restore); a
 * replacement with the compute on it (the compute moves, the old branch is deleted once); `pulumi up --replace`, which
 * the provider cannot tell from a first create (refused, nothing created); a delete refusal (a child
 * branch made outside Pulumi: no DELETE of the branch, the message names the child); and the destroy. Then a
 * protected branch: `protected: true` brings Pulumi's `protect`, so the destroy fails in its preview, naming the
 * branch, and sends nothing (the compute on it stays); `destroy --exclude-protected` keeps its compute, role and
 * database (the provider refuses their deletes), until the program unprotects it.
 */
import { Branch, BranchArgs, Compute, Database, Role } from "../../provider";
import { CliStack } from "../../testing/cli-stack";
import { cliWorld, CliWorld, expectNoChange, ok, ops, outputsOf, writes } from "./cli-world";

let world: CliWorld;

/** A message with the CLI's line breaks and indentation folded into single spaces. */
const oneLine = (text: string | undefined) => (text ?? "").replace(/\s+/g, " ");
beforeAll(async () => {
  world = await cliWorld();
});
afterAll(() => world?.stop());

describe("Branch through the real CLI", () => {
  it("create, update, reset, replace with a compute on it, a refused delete, destroy", async () => {
    const declared: { args: Partial<BranchArgs> } = { args: { parentId: world.branches.dev, resetTriggers: ["v1"] } };
    const stack: CliStack = world.stack(() => {
      const branch = new Branch("cli-app", { projectId: world.projectId, ...declared.args });
      const db = new Compute("cli-db", { projectId: world.projectId, branchId: branch.branchId });
      return { branch: branch.branchId, name: branch.name, compute: db.id, computeBranch: db.branchId };
    });
    const branches = `/projects/${world.projectId}/branches`;
    const endpoints = `/projects/${world.projectId}/endpoints`;
    const started = Date.now();
    try {
      // Create: the branch, then the compute on it; then nothing to do.
      const created = ok(await stack.up({ skipPreview: true }));
      expect(ops(created).sort()).toEqual(["create cli-app", "create cli-db"]);
      expect(writes(created)).toEqual([`POST ${branches}`, `POST ${endpoints}`]);
      const first = await outputsOf(stack);
      const computeId = String(first.compute);
      expect(first).toMatchObject({ name: "cli-app", computeBranch: first.branch });
      await expectNoChange(stack);

      // An update: a rename is one PATCH.
      declared.args = { ...declared.args, name: "cli-app-renamed" };
      const renamed = ok(await stack.up({ skipPreview: true }));
      expect(writes(renamed)).toEqual([`PATCH ${branches}/${String(first.branch)}`]);
      await expectNoChange(stack);

      // A reset: the preview warns; the update is one restore.
      declared.args = { ...declared.args, resetTriggers: ["v2"] };
      const reset = ok(await stack.up());
      const previewWarnings = (reset.preview?.diagnostics ?? []).map((d) => d.message).join("\n");
      expect(previewWarnings).toContain(
        `Branch "cli-app" (${String(first.branch)}) will be reset from its parent ${world.branches.dev}: ` +
          "resetTriggers changed. The branch takes its parent's latest data",
      );
      expect(writes(reset)).toEqual([`POST ${branches}/${String(first.branch)}/restore`]);
      await expectNoChange(stack);

      // A replacement (a new parent): the compute moves to the new branch, the old one is deleted once.
      declared.args = { ...declared.args, parentId: world.branches.staging };
      const replaced = ok(await stack.up());
      const now = await outputsOf(stack);
      const old = String(first.branch);
      expect(now.branch).not.toBe(old);
      expect(now).toMatchObject({ compute: computeId, computeBranch: now.branch, name: "cli-app-renamed" });
      expect(writes(replaced)).toEqual([
        `PATCH ${branches}/${old}`,
        `POST ${branches}`,
        `PATCH ${endpoints}/${computeId}`,
        `DELETE ${branches}/${old}`,
      ]);
      const names = (await world.api.branches.list(world.projectId)).map((b) => b.name).sort();
      expect(names).toEqual(["cli-app-renamed", "dev", "main", "staging"]);
      await expectNoChange(stack);

      // pulumi up --replace: the real engine checks the inputs without the old ones and calls no Diff, so the
      // provider cannot tell the old branch from any other with the name: refused before anything is created.
      const forced = await stack.up({ replace: ["cli-app"], skipPreview: true });
      expect(forced.error?.message ?? "").toContain(
        `a branch named "cli-app-renamed" already exists in project ${world.projectId}: ${String(now.branch)}`,
      );
      expect(writes(forced)).toEqual([]);

      // A delete refused: a child branch made outside Pulumi. The compute goes first (Pulumi deletes dependents
      // first); the branch's delete is refused without a DELETE, naming the child.
      const child = (await world.api.branches.create(world.projectId, { parent_id: String(now.branch), name: "kid" }))
        .branch;
      const refused = await stack.destroy({ skipPreview: true });
      expect(refused.error?.message ?? "").toContain(`has child branches "kid" (${child.id})`);
      expect(writes(refused)).toEqual([`DELETE ${endpoints}/${computeId}`]);
      await world.api.branches.delete(world.projectId, child.id);
      const destroyed = ok(await stack.destroy({ skipPreview: true }));
      expect(writes(destroyed)).toEqual([`DELETE ${branches}/${String(now.branch)}`]);
      expect((await world.api.branches.list(world.projectId)).map((b) => b.name).sort()).toEqual([
        "dev",
        "main",
        "staging",
      ]);
    } finally {
      await stack.destroy({ skipPreview: true }).catch(() => undefined);
      await stack.dispose();
      console.log(`Branch through the real CLI: ${Date.now() - started} ms`);
    }
  });

  it("protected: true brings Pulumi's protect: pulumi destroy is refused in its preview, naming the branch, before the compute on it is deleted", async () => {
    const declared: { args: Partial<BranchArgs> } = { args: { protected: true } };
    const stack: CliStack = world.stack(() => {
      const branch = new Branch("cli-vault", { projectId: world.projectId, ...declared.args });
      const db = new Compute("cli-vault-db", { projectId: world.projectId, branchId: branch.branchId });
      return { branch: branch.branchId, compute: db.id };
    });
    const branches = `/projects/${world.projectId}/branches`;
    const endpoints = `/projects/${world.projectId}/endpoints`;
    const started = Date.now();
    try {
      ok(await stack.up({ skipPreview: true }));
      const { branch, compute } = (await outputsOf(stack)) as Record<string, string>;
      const urn = await stack.urnOf("cli-vault");
      expect((await stack.state()).resources.filter((r) => r.protect).map((r) => r.urn)).toEqual([urn]);
      await expectNoChange(stack);

      const refused = await stack.destroy();
      const message = oneLine(refused.error?.message);
      expect(message).toContain(`resource "${urn}" cannot be deleted because it is protected`);
      expect(writes(refused)).toEqual([]);
      expect((await world.api.endpoints.list(world.projectId)).map((e) => e.id)).toContain(compute);

      // A replacement with protected: false and a new name in the same up would unprotect only the new branch:
      // Check refuses it, naming the property, so the preview fails, and nothing is sent.
      declared.args = { protected: false, name: "cli-vault-2", parentId: world.branches.staging };
      const replacing = await stack.up();
      const refusal = oneLine(replacing.error?.message);
      expect(refusal).toContain("parentId");
      expect(refusal).toContain("changed on a protected branch: the replacement would make a new branch");
      expect(replacing.requests).toEqual([]);

      // Unprotected in the program: one PATCH, the option goes with it, and the destroy deletes both.
      declared.args = { protected: false };
      const unprotected = ok(await stack.up({ skipPreview: true }));
      expect(writes(unprotected)).toEqual([`PATCH ${branches}/${branch}`]);
      expect((await stack.state()).resources.filter((r) => r.protect)).toEqual([]);
      const destroyed = ok(await stack.destroy());
      expect(writes(destroyed)).toEqual([`DELETE ${endpoints}/${compute}`, `DELETE ${branches}/${branch}`]);
    } finally {
      declared.args = { protected: false };
      await stack.up({ skipPreview: true }).catch(() => undefined);
      await stack.destroy({ skipPreview: true }).catch(() => undefined);
      await stack.dispose();
      console.log(`a protected Branch through the real CLI: ${Date.now() - started} ms`);
    }
  });

  // Issue 23, item 14: --exclude-protected leaves out the branch and what it depends on, not what depends on it
  // (pulumi/pulumi destroy.go getProtectedExcludes): the database and role on it were deleted, then Neon refused the
  // compute, and the branch survived without its data.
  it("destroy --exclude-protected keeps a protected branch whole: its compute, role and database stay, and the destroy says why", async () => {
    const declared: { args: Partial<BranchArgs> } = { args: { protected: true } };
    const stack: CliStack = world.stack(() => {
      const projectId = world.projectId;
      const branch = new Branch("cli-keep", { projectId, ...declared.args });
      const db = new Compute("cli-keep-db", { projectId, branchId: branch.branchId });
      const role = new Role("cli-keep-role", { projectId, branchId: branch.branchId, name: "keeper" });
      new Database("cli-keep-data", { projectId, branchId: branch.branchId, name: "kept", ownerName: role.name });
      return { branch: branch.branchId, compute: db.id };
    });
    const onBranch = async (branch: string) => ({
      computes: (await world.api.endpoints.list(world.projectId)).filter((e) => e.branch_id === branch).length,
      roles: (await world.api.roles.list(world.projectId, branch)).map((r) => r.name).filter((n) => n === "keeper"),
      databases: (await world.api.databases.list(world.projectId, branch))
        .map((d) => d.name)
        .filter((n) => n === "kept"),
    });
    try {
      ok(await stack.up({ skipPreview: true }));
      const { branch } = (await outputsOf(stack)) as Record<string, string>;
      const whole = { computes: 1, roles: ["keeper"], databases: ["kept"] };
      expect(await onBranch(branch)).toEqual(whole);

      const excluded = await stack.destroy({ excludeProtected: true });
      const message = oneLine(excluded.error?.message);
      expect(message).toContain(`database kept was not deleted: its branch ${branch} is protected on Neon`);
      expect(message).toContain(`unprotect branch ${branch} first (protected: false in the program, then pulumi up)`);
      expect(writes(excluded)).toEqual([]);
      expect(await onBranch(branch)).toEqual(whole);

      // Unprotected in the program first: the same destroy deletes what is on the branch, and keeps nothing back.
      declared.args = { protected: false };
      ok(await stack.up({ skipPreview: true }));
      ok(await stack.destroy({ excludeProtected: true }));
      expect((await world.api.branches.list(world.projectId)).map((b) => b.id)).not.toContain(branch);
    } finally {
      declared.args = { protected: false };
      await stack.up({ skipPreview: true }).catch(() => undefined);
      await stack.destroy({ skipPreview: true }).catch(() => undefined);
      await stack.dispose();
    }
  });
});
