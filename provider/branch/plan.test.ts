import { UNKNOWN } from "../shared/unknown";
import { BRANCH } from "./declaration";
import { changeWarnings, checkReplaceProtected, checkResetProtected, planBranchChange } from "./plan";

const ID = "br-odd-sun-12345678";
const PARENT = "br-main-00000001";

/** Old outputs: a branch created from the default branch (resolved), with an expiry and annotations declared. */
const olds = {
  branchId: ID,
  projectId: "spring-example-302709",
  parentId: PARENT,
  parentLsn: "0/1A0001F8",
  name: "dev",
  protected: false,
  expiresAt: "2026-03-02T12:00:00Z",
  annotations: { ref: "main" },
  resetTriggers: ["v1"],
  resourceName: "dev",
  initSource: "parent-data",
  declared: ["annotations", "expiresAt", "name", "projectId", "resetTriggers", "resourceName"],
  origin: { parentId: PARENT },
};
const same = {
  projectId: olds.projectId,
  name: "dev",
  expiresAt: "2026-03-02T12:00:00Z",
  annotations: { ref: "main" },
  resetTriggers: ["v1"],
  resourceName: "dev",
};

describe("planBranchChange: the diff table", () => {
  it("finds nothing when the program asks for what the branch is (a property left out never diffs)", () => {
    expect(planBranchChange(olds, same)).toEqual({
      changes: false,
      changed: [],
      replaces: [],
      patch: [],
      refused: [],
      reset: false,
    });
  });

  it.each<[string, Record<string, unknown>, Partial<ReturnType<typeof planBranchChange>>]>([
    ["a new project", { projectId: "other-project-1" }, { replaces: ["projectId"] }],
    ["a new parent", { parentId: "br-other-2" }, { replaces: ["parentId"] }],
    ["a point in time", { parentLsn: "0/2" }, { replaces: ["parentLsn"] }],
    ["a point by time", { parentTimestamp: "2026-03-01T00:00:00Z" }, { replaces: ["parentTimestamp"] }],
    ["schema-only", { initSource: "schema-only" }, { replaces: ["initSource"] }],
    ["a parent not known yet (preview)", { parentId: UNKNOWN }, { replaces: ["parentId"] }],
    ["a new name", { name: "dev-2" }, { patch: ["name"] }],
    ["protection", { protected: true }, { patch: ["protected"] }],
    ["a new expiry", { expiresAt: "2026-03-03T00:00:00Z" }, { patch: ["expiresAt"] }],
    ["the expiry removed", { expiresAt: undefined }, { patch: ["expiresAt"] }],
    ["new annotations (refused: no call changes them)", { annotations: { ref: "dev" } }, { refused: ["annotations"] }],
    ["the annotations removed (recorded: the branch keeps them)", { annotations: undefined }, { refused: [] }],
    ["annotations not known yet (preview)", { annotations: { ref: UNKNOWN } }, { refused: [] }],
    ["new reset triggers", { resetTriggers: ["v2"] }, { reset: true, patch: [] }],
    ["the reset triggers removed (recorded, no reset)", { resetTriggers: undefined }, { reset: false, patch: [] }],
    ["a first reset trigger (recorded, no reset)", { resetTriggers: ["v1"], _from: "none" }, { reset: false }],
    ["a new resource name (recorded)", { resourceName: "dev2" }, { replaces: [], patch: [] }],
  ])("%s", (_, change, expected) => {
    const { _from, ...rest } = change;
    const old = _from === "none" ? { ...olds, resetTriggers: undefined } : olds;
    const plan = planBranchChange(old, { ...same, ...rest });
    expect(plan.changes).toBe(true);
    expect(plan).toMatchObject({ replaces: [], patch: [], refused: [], reset: false, ...expected });
  });

  it("compares the parent with what the branch was made from: the default it was given, not the record", () => {
    expect(planBranchChange(olds, { ...same, parentId: PARENT }).changes).toBe(false);
    // A schema-only branch has no parent_id on the service; its origin keeps the branch the schema came from.
    const schemaOnly = {
      ...olds,
      parentId: undefined,
      initSource: "schema-only",
      origin: { parentId: PARENT, initSource: "schema-only" },
    };
    expect(planBranchChange(schemaOnly, { ...same, parentId: PARENT, initSource: "schema-only" }).changes).toBe(false);
  });

  it("a reset that moved the record's point is no change of the program (origin is compared)", () => {
    const asked = { ...olds, origin: { parentId: PARENT, parentTimestamp: "2026-03-01T10:00:00Z" } };
    const reset = {
      ...asked,
      parentLsn: "0/1A0009F0",
      parentTimestamp: undefined,
      lastResetAt: "2026-03-01T12:00:00Z",
    };
    expect(planBranchChange(reset, { ...same, parentTimestamp: "2026-03-01T10:00:00Z" }).changes).toBe(false);
  });

  it("reads one instant in any spelling, and an LSN in either case", () => {
    expect(planBranchChange(olds, { ...same, expiresAt: "2026-03-02T13:00:00+01:00" }).changes).toBe(false);
    const fromLsn = { ...olds, origin: { parentId: PARENT, parentLsn: "0/1DE2850" } };
    expect(planBranchChange(fromLsn, { ...same, parentLsn: "0/1de2850" }).changes).toBe(false);
  });

  it("a removal is a change only of what the program had declared", () => {
    const undeclared = { ...olds, declared: ["name", "projectId", "resourceName"] };
    expect(planBranchChange(undeclared, { ...same, expiresAt: undefined, annotations: undefined }).changes).toBe(false);
    expect(planBranchChange({ ...olds, protected: true }, { ...same }).changes).toBe(false);
  });

  it("every input the Branch takes has a row", () => {
    expect(Object.keys(BRANCH.inputs).sort()).toEqual(
      [
        "adoptId",
        "annotations",
        "expiresAt",
        "initSource",
        "name",
        "parentId",
        "parentLsn",
        "parentTimestamp",
        "projectId",
        "protected",
        "resetTriggers",
        "resourceName",
      ].sort(),
    );
  });
});

describe("planBranchChange: protected removed from the program", () => {
  const guarded = { ...olds, protected: true, declared: [...olds.declared, "protected"] };
  it("unprotects (one PATCH) when the program had declared protected: true", () => {
    expect(planBranchChange(guarded, same)).toEqual({
      changes: true,
      changed: ["protected"],
      replaces: [],
      patch: ["protected"],
      refused: [],
      reset: false,
    });
  });
  it("a declaration of the value the branch has is recorded (no PATCH), so that removing it later unprotects", () => {
    const outside = { ...olds, protected: true };
    expect(planBranchChange(outside, { ...same, protected: true })).toEqual({
      changes: true,
      changed: [], // recorded: the value is the branch's own
      replaces: [],
      patch: [],
      refused: [],
      reset: false,
    });
    expect(planBranchChange(outside, same).changes).toBe(false); // never declared: nothing to record
  });
  it("the same for an expiry written with the branch's own value: recorded, and its removal later sends null", () => {
    const undeclared = { ...olds, declared: olds.declared.filter((p) => p !== "expiresAt") };
    expect(planBranchChange(undeclared, same)).toMatchObject({ changes: true, patch: [] });
    expect(planBranchChange(olds, { ...same, expiresAt: undefined })).toMatchObject({ patch: ["expiresAt"] });
  });
});

describe("changeWarnings", () => {
  it("a replacement says the data is deleted, which computes move, and that the old branch gives up its name", () => {
    const news = { ...same, parentId: "br-other-2" };
    const [warning] = changeWarnings(ID, olds, news, planBranchChange(olds, news));
    expect(warning).toContain(`Branch "dev" (${ID}) will be replaced (parentId changed)`);
    expect(warning).toContain(`${ID} is then deleted with its data`);
    expect(warning).toContain("Computes whose branchId is this branch's branchId move to the new branch first");
    expect(warning).toContain("renamed <name>-replaced-<mark>");
  });

  it("an adopted branch's replacement (its project replaced) says what it adopts and that the old one is left", () => {
    const adopted = { ...olds, adoptId: ID };
    const news = { ...same, projectId: "other-project-1", adoptId: UNKNOWN };
    const [warning] = changeWarnings(ID, adopted, news, planBranchChange(adopted, news));
    expect(warning).toBe(
      `Branch "dev" (${ID}) will be replaced (projectId changed): it adopts the branch adoptId names (known after ` +
        `apply), and ${ID} is left on the service (adopted).`,
    );
  });

  it("a branch protected outside the program, which says nothing of it, is warned of: it has no Pulumi protect", () => {
    const guarded = { ...olds, protected: true };
    const [warning] = changeWarnings(ID, guarded, same, planBranchChange(guarded, same));
    expect(warning).toContain(`Branch "dev" (${ID}) is protected on Neon (set outside this program)`);
    expect(warning).toContain("Write protected: true (it brings Pulumi's protect) to keep it, or protected: false");
    const declared = { ...guarded, declared: [...olds.declared, "protected"] };
    const stated = { ...same, protected: true };
    expect(changeWarnings(ID, declared, stated, planBranchChange(declared, stated))).toEqual([]);
  });

  it("a reset says the branch's own changes are discarded and its computes' connections drop", () => {
    const news = { ...same, resetTriggers: ["v2"] };
    expect(changeWarnings(ID, olds, news, planBranchChange(olds, news))).toEqual([
      `Branch "dev" (${ID}) will be reset from its parent ${PARENT}: resetTriggers changed. The branch takes its ` +
        "parent's latest data: every change made on it since it was created or last reset is discarded, and the open " +
        "connections of its computes drop (a running compute restarts). Its roles and databases become its " +
        "parent's: a Role or Database this stack made on the branch (not inherited) is gone after the reset, and a " +
        "role's password is the parent's again; run pulumi up --refresh after this up to make them again.",
    ]);
  });

  it("adoptId removed from the project's default branch: says Neon never deletes it, and to keep adoptId", () => {
    const main = { ...olds, default: true, adoptId: ID };
    const news = { ...same, adoptId: undefined };
    const [warning] = changeWarnings(ID, main, news, planBranchChange(main, news));
    expect(warning).toContain(`Branch "dev" (${ID}) is the project's default branch (${ID}), which Neon never deletes`);
    expect(warning).toContain(`Keep adoptId: ${ID}`);
    expect(changeWarnings(ID, { ...olds, adoptId: ID }, news, planBranchChange(olds, news))).toEqual([]);
    expect(changeWarnings(ID, main, { ...same, adoptId: ID }, planBranchChange(main, same))).toEqual([]);
  });

  it("an update of the name, protection or expiry warns of nothing", () => {
    const news = { ...same, name: "x", protected: true };
    expect(changeWarnings(ID, olds, news, planBranchChange(olds, news))).toEqual([]);
  });
});

describe("checkResetProtected: Neon does not reset a protected branch", () => {
  const base = { projectId: "spring-example-302709", name: "dev", resourceName: "dev" };
  const olds = { ...base, resetTriggers: [1] };
  it("refuses a new trigger on a branch that stays protected", () => {
    const [failure] = checkResetProtected(olds, { ...base, protected: true, resetTriggers: [2] });
    expect(failure).toMatchObject({ property: "resetTriggers" });
    expect(failure.reason).toMatch(/Neon does not reset a protected branch/);
  });
  it("lets an unprotect and a reset go together, and a create reset nothing", () => {
    expect(checkResetProtected(olds, { ...base, protected: false, resetTriggers: [2] })).toEqual([]);
    expect(checkResetProtected({}, { ...base, protected: true, resetTriggers: [2] })).toEqual([]);
    expect(checkResetProtected(olds, { ...base, protected: true, resetTriggers: [1] })).toEqual([]);
  });
});

describe("checkReplaceProtected: a protected branch is not replaced", () => {
  const olds = { projectId: "p", parentId: "br-a-1", protected: true, name: "x" };
  it("names each replacing input that changed, with what to do", () => {
    const [failure, ...rest] = checkReplaceProtected(olds, { ...olds, parentId: "br-b-2", protected: false });
    expect(rest).toEqual([]);
    expect(failure.property).toBe("parentId");
    expect(failure.reason).toContain("changed on a protected branch");
    expect(failure.reason).toContain("Unprotect it first in an up of its own");
  });
  it("says nothing of an update, a branch that was not protected, or an unknown value", () => {
    expect(checkReplaceProtected(olds, { ...olds, name: "y", protected: false })).toEqual([]);
    expect(checkReplaceProtected({ ...olds, protected: false }, { ...olds, parentId: "br-b-2" })).toEqual([]);
    expect(checkReplaceProtected(olds, { ...olds, parentId: UNKNOWN })).toEqual([]);
  });
});
