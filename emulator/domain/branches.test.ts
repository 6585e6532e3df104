import type { BranchCreateInput } from "../branch-input";
import { createBranch } from "./branch-create";
import { restoreBranch } from "./branch-restore";
import { deleteBranch, updateBranch } from "./branches";
import { T0, testWorld } from "./test-world";

/** The branch rules of domain/, called directly: no server, no HTTP (routes/branches.test.ts covers the routes). */

const child = (over: Partial<BranchCreateInput> = {}): BranchCreateInput => ({
  endpoints: [],
  initSource: "parent-data",
  ...over,
});

describe("deleteBranch", () => {
  it("refuses the default branch, a protected branch and a branch with children (422 naming why)", () => {
    const { svc, project, branch } = testWorld();
    const del = (id: string) => () => deleteBranch(svc, project, id, T0);
    expect(del(branch("main").id)).toThrow(
      expect.objectContaining({ status: 422, message: expect.stringMatching(/default branch/) }),
    );
    branch("dev").protected = true;
    expect(del(branch("dev").id)).toThrow(
      expect.objectContaining({ status: 422, message: expect.stringMatching(/is protected/) }),
    );
    createBranch(svc, project, child({ name: "feature", parentId: branch("staging").id }), T0);
    expect(del(branch("staging").id)).toThrow(
      expect.objectContaining({ status: 422, message: expect.stringMatching(/has child branches \(feature\)/) }),
    );
  });

  it("answers nothing for an unknown branch (the route's 204), and removes a leaf with its roles", () => {
    const { svc, project, branch } = testWorld();
    expect(deleteBranch(svc, project, "br-none-123456", T0)).toBeUndefined();
    const staging = branch("staging");
    const deleted = deleteBranch(svc, project, staging.id, T0);
    // no compute on staging: a lone delete_timeline, running
    expect(deleted?.operations.map((o) => `${o.action}:${o.initialStatus}`)).toEqual(["delete_timeline:running"]);
    expect(svc.store.branches.has(staging.id)).toBe(false);
    expect(svc.store.rolesOf(staging.id)).toEqual([]);
  });
});

describe("updateBranch", () => {
  it("refuses an expiry on the default branch (422) and a protected branch that would expire (400)", () => {
    const { svc, project, branch } = testWorld();
    const main = branch("main");
    const inAnHour = T0 + 3_600_000;
    expect(() => updateBranch(svc, project, main, { expiresAt: inAnHour }, T0)).toThrow(
      expect.objectContaining({ status: 422, message: expect.stringMatching(/default branch cannot expire/) }),
    );
    expect(() => updateBranch(svc, project, branch("dev"), { expiresAt: inAnHour, protected: true }, T0)).toThrow(
      expect.objectContaining({ status: 400 }),
    );
  });

  it("sets expires_at with its TTL, and a name another branch has answers 409", () => {
    const { svc, project, branch } = testWorld();
    const dev = updateBranch(svc, project, branch("dev"), { expiresAt: T0 + 3_600_000 }, T0);
    expect(dev).toMatchObject({ expiresAt: T0 + 3_600_000, ttlSeconds: 3600 });
    expect(() => updateBranch(svc, project, dev, { name: "staging" }, T0)).toThrow(
      expect.objectContaining({ status: 409, message: 'branch already exists; branch_name:"staging"' }),
    );
  });
});

describe("createBranch", () => {
  it("copies the parent's roles with their passwords, but a child of a protected branch gets new ones", () => {
    const { svc, project, branch } = testWorld();
    const password = (id: string) => svc.store.findRole(id, "neondb_owner")?.password;
    const plain = createBranch(svc, project, child({ name: "a", parentId: branch("dev").id }), T0);
    expect(password(plain.branch.id)).toBe(password(branch("dev").id));
    branch("staging").protected = true;
    const fromProtected = createBranch(svc, project, child({ name: "b", parentId: branch("staging").id }), T0 + 2000);
    expect(password(fromProtected.branch.id)).not.toBe(password(branch("staging").id));
  });

  it("refuses a child of an expiring branch (422), and offers a connection for one role and one database", () => {
    const { svc, project, branch } = testWorld();
    branch("dev").expiresAt = T0 + 3_600_000;
    expect(() => createBranch(svc, project, child({ parentId: branch("dev").id }), T0)).toThrow(
      expect.objectContaining({ status: 422, message: expect.stringMatching(/created from an expiring branch/) }),
    );
    const endpoints = [{ type: "read_write" as const, config: { ...svc.store.endpointsOf(project.id)[0].config } }];
    const made = createBranch(svc, project, child({ name: "c", endpoints }), T0);
    expect(made.connection).toMatchObject({ role: { name: "neondb_owner" }, database: { name: "neondb" } });
    expect(made.operations.map((o) => o.action)).toEqual(["create_branch", "start_compute"]);
  });
});

describe("restoreBranch", () => {
  it("refuses a reset from the parent of a protected branch (422) and a restore to itself without a point (400)", () => {
    const { svc, project, branch } = testWorld();
    const dev = branch("dev");
    dev.protected = true;
    expect(() => restoreBranch(svc, project, dev, { sourceBranchId: branch("main").id }, T0)).toThrow(
      expect.objectContaining({ status: 422, message: expect.stringMatching(/cannot be reset from its parent/) }),
    );
    expect(() => restoreBranch(svc, project, dev, { sourceBranchId: dev.id }, T0)).toThrow(
      expect.objectContaining({ status: 400, message: expect.stringMatching(/source_lsn or source_timestamp/) }),
    );
  });

  it("with preserve_under_name, the backup takes the branch's place and becomes its parent", () => {
    const { svc, project, branch } = testWorld();
    const dev = branch("dev");
    const mainId = branch("main").id;
    restoreBranch(svc, project, dev, { sourceBranchId: mainId, preserveUnderName: "dev-old" }, T0);
    const backup = branch("dev-old");
    expect(backup.parentId).toBe(mainId);
    expect(dev.parentId).toBe(backup.id);
    expect(dev.lastResetAt).toBe(T0);
  });
});
