import { planRoleChange, ROLE } from "./declaration";
import { createWarning, deleteFirstWarning, resetWarning } from "./impl";
import { UNKNOWN } from "../shared/unknown";

const olds = {
  projectId: "p-1",
  branchId: "br-main",
  name: "app_user",
  noLogin: false,
  password: "Pw0ldSecret42",
  passwordTriggers: ["v1"],
  createdAt: "2026-01-01T00:00:00Z",
};
const inputs = { projectId: "p-1", branchId: "br-main", name: "app_user", passwordTriggers: ["v1"] };

describe("planRoleChange", () => {
  it("sees no change in the inputs a create recorded (noLogin left out is false)", () => {
    expect(planRoleChange(olds, inputs)).toEqual({
      changes: false,
      changed: [],
      replaces: [],
      deleteBeforeReplace: false,
      reset: false,
    });
  });

  it("keeps the table the docs show", () => {
    const changes = Object.fromEntries(Object.entries(ROLE.inputs).map(([name, row]) => [name, row.change]));
    expect(changes).toEqual({
      projectId: "replace",
      branchId: "replace",
      name: "replace",
      noLogin: "replace",
      passwordTriggers: "action", // a password reset
      adoptId: "record", // acts at creation only
    });
  });

  it.each(["projectId", "branchId", "name"])("a new %s replaces, creating the new role first", (property) => {
    const plan = planRoleChange(olds, { ...inputs, [property]: property === "branchId" ? "br-dev" : "other" });
    expect(plan).toEqual({
      changes: true,
      changed: [property],
      replaces: [property],
      deleteBeforeReplace: false,
      reset: false,
    });
  });

  it("a new noLogin replaces, deleting the old role first (the name is taken)", () => {
    expect(planRoleChange(olds, { ...inputs, noLogin: true, passwordTriggers: undefined })).toMatchObject({
      replaces: ["noLogin"],
      deleteBeforeReplace: true,
      reset: false,
    });
  });

  it("new passwordTriggers reset the password; equal ones in another key order do not", () => {
    expect(planRoleChange(olds, { ...inputs, passwordTriggers: ["v2"] })).toMatchObject({ changes: true, reset: true });
    const withObject = { ...olds, passwordTriggers: [{ a: 1, b: 2 }] };
    expect(planRoleChange(withObject, { ...inputs, passwordTriggers: [{ b: 2, a: 1 }] }).changes).toBe(false);
    expect(planRoleChange(olds, { ...inputs, passwordTriggers: [UNKNOWN] })).toMatchObject({ reset: true });
  });

  it("a first value of passwordTriggers (none before) is recorded: no reset, as with a Branch's resetTriggers", () => {
    expect(planRoleChange({ ...olds, passwordTriggers: undefined }, inputs)).toMatchObject({
      changes: true,
      reset: false,
    });
  });

  it("a first value resets a role whose state has no password (one not read back), not one that cannot log in", () => {
    const unread = { ...olds, passwordTriggers: undefined, password: undefined };
    expect(planRoleChange(unread, inputs)).toMatchObject({ changes: true, reset: true });
    expect(planRoleChange({ ...unread, noLogin: true }, { ...inputs, noLogin: true })).toMatchObject({ reset: false });
  });

  it("removed passwordTriggers are a change that resets nothing (recorded)", () => {
    expect(planRoleChange(olds, { ...inputs, passwordTriggers: undefined })).toEqual({
      changes: true,
      changed: ["passwordTriggers"],
      replaces: [],
      deleteBeforeReplace: false,
      reset: false,
    });
  });

  it("a replacement resets nothing (the new role has a new password anyway)", () => {
    expect(planRoleChange(olds, { ...inputs, name: "other", passwordTriggers: ["v2"] }).reset).toBe(false);
  });
});

describe("deleteFirstWarning", () => {
  it("a noLogin change says the old role goes first, its connections drop, and a database it owns stops it", () => {
    const plan = planRoleChange(olds, { ...inputs, noLogin: true });
    expect(deleteFirstWarning("p-1/br-main/app_user", olds, plan)).toBe(
      "Role app_user of branch br-main (p-1/br-main/app_user) will be replaced (noLogin changed), the old role " +
        "deleted first since the new one takes its name: its connections drop, and a role that owns a database " +
        "cannot be deleted (Neon refuses): give such a database another owner (its ownerName) first.",
    );
    expect(deleteFirstWarning("x", olds, planRoleChange(olds, { ...inputs, name: "other" }))).toBeUndefined();
  });
});

describe("resetWarning", () => {
  it("names the role, its branch and the property, never a value", () => {
    const plan = planRoleChange(olds, { ...inputs, passwordTriggers: ["s3cr3t"] });
    const warning = resetWarning("p-1/br-main/app_user", olds, plan);
    expect(warning).toBe(
      "Role app_user of branch br-main (p-1/br-main/app_user) will get a new password (passwordTriggers changed): " +
        "the computes of branch br-main apply it, and their open connections will drop; clients still using the " +
        "old password fail once the reset is in force: give them the new password output.",
    );
    expect(warning).not.toContain("s3cr3t");
    expect(warning).not.toContain("Pw0ldSecret42");
  });

  it("says nothing when nothing is reset", () => {
    expect(resetWarning("id", olds, planRoleChange(olds, inputs))).toBeUndefined();
    expect(resetWarning("id", olds, planRoleChange(olds, { ...inputs, passwordTriggers: undefined }))).toBeUndefined();
  });
});

describe("createWarning", () => {
  it("names the role and the branch whose connections drop; a replacement names the old role and why", () => {
    expect(createWarning(inputs)).toBe(
      "Role app_user of branch br-main will be created: the computes of branch br-main apply it, and their open " +
        "connections will drop.",
    );
    const plan = planRoleChange(olds, { ...inputs, name: "other" });
    expect(createWarning({ ...inputs, name: "other" }, { id: "p-1/br-main/app_user", plan })).toBe(
      "Role other of branch br-main will be created (replacing p-1/br-main/app_user: name changed): the computes of " +
        "branch br-main apply it, and their open connections will drop.",
    );
  });

  it("says nothing of a branch the preview does not know yet: one this update creates, with nothing connected", () => {
    expect(createWarning({ ...inputs, branchId: UNKNOWN })).toBeUndefined();
  });
});
