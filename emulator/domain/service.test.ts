import { ApiError, LOCKED_MESSAGE } from "../errors";
import { createRole } from "./roles";
import { settledProject, takeLock } from "./service";
import { T0, testWorld } from "./test-world";

/** The project lock and the settling every project route starts with, without HTTP. */
describe("the project lock (423)", () => {
  it("is free on an idle project, held while an operation is unfinished, and free again once it ends", () => {
    const { svc, project, branch } = testWorld();
    expect(() => takeLock(svc, project.id, T0)).not.toThrow();
    // main's compute is active: a role change there makes one apply_config (running), 1 s of service time
    const { operations } = createRole(svc, project, branch("main"), { name: "app", noLogin: false }, T0);
    expect(operations.map((o) => o.action)).toEqual(["apply_config"]);
    expect(() => takeLock(svc, project.id, T0 + 999)).toThrow(
      expect.objectContaining({ status: 423, message: LOCKED_MESSAGE }),
    );
    expect(() => takeLock(svc, project.id, T0 + 1000)).not.toThrow();
  });

  it("is taken after a rule's own checks, so a refused change leaves the world as it was", () => {
    const { svc, project, branch } = testWorld();
    createRole(svc, project, branch("main"), { name: "app", noLogin: false }, T0);
    const busy = (): unknown => createRole(svc, project, branch("main"), { name: "other", noLogin: false }, T0 + 1);
    expect(busy).toThrow(expect.objectContaining({ status: 423 }));
    expect(svc.store.findRole(branch("main").id, "other")).toBeUndefined();
    // a rule's own refusal comes first: a taken name answers 409 even while the project is busy
    const taken = (): unknown => createRole(svc, project, branch("main"), { name: "app", noLogin: false }, T0 + 1);
    expect(taken).toThrow(expect.objectContaining({ status: 409 }));
  });

  it("is per project: another project's operations do not lock this one", () => {
    const { svc, project } = testWorld();
    svc.ops.create("another-project", T0, [{ action: "apply_config", initial: "running" }]);
    expect(() => takeLock(svc, project.id, T0)).not.toThrow();
    expect(() => takeLock(svc, "another-project", T0)).toThrow(ApiError);
  });
});

describe("settledProject", () => {
  it("deletes a branch whose expires_at passed before anything reads the project", () => {
    const { svc, key, project, branch } = testWorld();
    const staging = branch("staging");
    staging.expiresAt = T0 + 60_000;
    settledProject(svc, key, project.id, T0 + 59_999);
    expect(svc.store.branches.has(staging.id)).toBe(true);
    settledProject(svc, key, project.id, T0 + 60_000);
    expect(svc.store.branches.has(staging.id)).toBe(false);
  });

  it("answers 404 for a project the key may not use, as for one that does not exist", () => {
    const mine = testWorld();
    const other = testWorld();
    expect(() => settledProject(mine.svc, mine.key, "no-such-project", T0)).toThrow(
      expect.objectContaining({ status: 404, message: "project not found" }),
    );
    // the other world's project is unknown to this store; within one store, another account's is refused alike
    mine.svc.store.addProject({ ...other.project, accountId: "someone-else" });
    expect(() => settledProject(mine.svc, mine.key, other.project.id, T0)).toThrow(
      expect.objectContaining({ status: 404, message: "project not found" }),
    );
  });
});
