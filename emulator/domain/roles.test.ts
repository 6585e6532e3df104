import { createDatabase, deleteDatabase } from "./databases";
import { createRole, deleteRole, resetPassword, revealPassword } from "./roles";
import { T0, testWorld } from "./test-world";

/** The role rules of domain/roles.ts, called directly: no server, no HTTP (routes/roles.test.ts covers the routes). */
describe("role rules", () => {
  it("a role that owns a database cannot be deleted (422 naming the database); once it owns none, it can", () => {
    const { svc, project, branch } = testWorld();
    const dev = branch("dev"); // no compute: changes make no operations, so the lock never holds
    createRole(svc, project, dev, { name: "app", noLogin: false }, T0);
    createDatabase(svc, project, dev, { name: "appdb", ownerName: "app" }, T0);
    expect(() => deleteRole(svc, project, dev, "app", T0)).toThrow(
      expect.objectContaining({ status: 422, message: expect.stringMatching(/^role app owns database\(s\) appdb:/) }),
    );
    svc.store.removeDatabase(svc.store.database(dev.id, "appdb"));
    expect(deleteRole(svc, project, dev, "app", T0)).toMatchObject({ role: { name: "app" }, operations: [] });
    expect(deleteRole(svc, project, dev, "app", T0)).toBeUndefined(); // the route's 204
  });

  it("a database whose delete runs: not counted by default (the lock answers 423), counted until it finishes under databaseOwnedUntil finished (422)", () => {
    for (const [until, status] of [
      ["answered", 423],
      ["finished", 422],
    ] as const) {
      const { svc, project, branch } = testWorld({ behaviours: { databaseOwnedUntil: until } });
      const main = branch("main"); // a running primary: the delete makes an apply_config that holds the lock
      createRole(svc, project, main, { name: "app", noLogin: false }, T0);
      createDatabase(svc, project, main, { name: "appdb", ownerName: "app" }, T0 + 60_000);
      deleteDatabase(svc, project, main, "appdb", T0 + 120_000);
      expect(() => deleteRole(svc, project, main, "app", T0 + 120_001)).toThrow(expect.objectContaining({ status }));
      expect(deleteRole(svc, project, main, "app", T0 + 180_000)).toMatchObject({ role: { name: "app" } });
    }
  });

  it("a name taken on the branch answers 409; a no_login role has no password to reveal or reset (422)", () => {
    const { svc, project, branch } = testWorld();
    const dev = branch("dev");
    expect(() => createRole(svc, project, dev, { name: "neondb_owner", noLogin: false }, T0)).toThrow(
      expect.objectContaining({ status: 409 }),
    );
    createRole(svc, project, dev, { name: "reader", noLogin: true }, T0);
    expect(() => revealPassword(svc, dev, "reader", T0)).toThrow(expect.objectContaining({ status: 422 }));
    expect(() => resetPassword(svc, project, dev, "reader", T0)).toThrow(expect.objectContaining({ status: 422 }));
  });

  it("reveal answers 412 when the project does not store passwords", () => {
    const { svc, branch } = testWorld({ behaviours: { storePasswords: false } });
    expect(() => revealPassword(svc, branch("dev"), "neondb_owner", T0)).toThrow(
      expect.objectContaining({ status: 412, message: "Storing passwords is disabled" }),
    );
  });

  it("with revealAfterReset old, reveal answers the old password until the reset's operations end", () => {
    const { svc, project, branch } = testWorld({ behaviours: { revealAfterReset: "old" } });
    const main = branch("main"); // its active compute makes the reset an apply_config of 1 s
    const before = revealPassword(svc, main, "neondb_owner", T0);
    const { role, operations } = resetPassword(svc, project, main, "neondb_owner", T0);
    expect(operations.map((o) => o.action)).toEqual(["apply_config"]);
    expect(role.password).not.toBe(before);
    expect(revealPassword(svc, main, "neondb_owner", T0 + 999)).toBe(before);
    expect(revealPassword(svc, main, "neondb_owner", T0 + 1000)).toBe(role.password);
  });
});
