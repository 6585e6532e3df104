import { UNKNOWN } from "../shared/unknown";
import { checkBranchInputs, checkReplaceProtected, checkResetProtected } from "./check";
import { withDefaultName } from "./impl";
import { withServiceProtection } from "./resource";

const NOW = Date.parse("2026-03-01T12:00:00Z");
const base = { projectId: "spring-example-302709", name: "dev", resourceName: "dev" };
const failuresOf = (inputs: Record<string, unknown>) => checkBranchInputs({ ...base, ...inputs }, NOW);
const at = (ms: number) => new Date(NOW + ms).toISOString().replace(/\.\d{3}Z$/, "Z");
const HOUR = 3_600_000;

describe("checkBranchInputs", () => {
  it("passes a complete, valid program", () => {
    expect(
      failuresOf({
        parentId: "br-odd-sun-12345678",
        parentLsn: "0/1DE2850",
        initSource: "parent-data",
        protected: false,
        expiresAt: at(2 * HOUR),
        annotations: { "github-commit-ref": "main" },
        resetTriggers: ["v1", { any: 1 }],
      }),
    ).toEqual([]);
    expect(failuresOf({ parentTimestamp: at(-HOUR), initSource: "schema-only" })).toEqual([]);
    expect(failuresOf({ adoptId: "br-odd-sun-12345678", name: undefined })).toEqual([]);
  });

  it.each<[string, Record<string, unknown>, string, RegExp]>([
    ["a property it does not know", { size: 1 }, "size", /is not a Branch property; known: projectId, parentId, name/],
    ["no project", { projectId: undefined }, "projectId", /is required/],
    ["a parent that is no branch id", { parentId: "main" }, "parentId", /a branch id: 'br-' then/],
    ["an empty name", { name: "" }, "name", /must be 1 to 256 characters long \(got 0\)/],
    ["a name too long", { name: "x".repeat(257) }, "name", /must be 1 to 256 characters long \(got 257\)/],
    ["an LSN that is none", { parentLsn: "16/B374D848/1" }, "parentLsn", /two hex numbers such as 0\/1DE2850/],
    ["a time that is no RFC 3339", { parentTimestamp: "2026-02-30T00:00:00Z" }, "parentTimestamp", /RFC 3339/],
    ["a time without a zone", { parentTimestamp: "2026-02-01T00:00:00" }, "parentTimestamp", /with a time zone/],
    ["a point named twice", { parentLsn: "0/1", parentTimestamp: at(-HOUR) }, "parentTimestamp", /set one/],
    [
      "a point in the future",
      { parentTimestamp: at(HOUR) },
      "parentTimestamp",
      /must not be in the future \(it is 1 hour ahead\)/,
    ],
    [
      "an init source it does not know",
      { initSource: "copy" },
      "initSource",
      /one of parent-data, schema-only; got "copy"/,
    ],
    ["protection that is no boolean", { protected: "yes" }, "protected", /must be true or false/],
    ["an expiry in fractions of a second", { expiresAt: "2026-03-01T14:00:00.5Z" }, "expiresAt", /whole seconds/],
    ["an expiry past", { expiresAt: at(-2 * HOUR) }, "expiresAt", /must be in the future; it was 2 hours ago/],
    ["an expiry too far", { expiresAt: at(31 * 24 * HOUR) }, "expiresAt", /at most 30 days ahead .* 31 days ahead/],
    ["an expiry of a protected branch", { expiresAt: at(HOUR), protected: true }, "expiresAt", /protected branch/],
    ["annotations that are no map", { annotations: ["a"] }, "annotations", /must be a map of strings/],
    ["an annotation that is no string", { annotations: { a: 1 } }, "annotations", /"a" is 1/],
    [
      "too many annotations",
      { annotations: Object.fromEntries([...Array(51).keys()].map((i) => [`k${i}`, "v"])) },
      "annotations",
      /at most 50 entries.*got 51/,
    ],
    ["reset triggers that are no list", { resetTriggers: "v1" }, "resetTriggers", /must be a list of values/],
    [
      "a reset of a schema-only branch",
      { initSource: "schema-only", resetTriggers: [1] },
      "resetTriggers",
      /schema-only branch .* no parent to reset from/,
    ],
    ["an adoptId that is no branch id", { adoptId: "ep-cool-123" }, "adoptId", /a branch id/],
  ])("refuses %s, naming the property and what is allowed", (_, inputs, property, reason) => {
    const failures = failuresOf(inputs);
    expect(failures).toHaveLength(1);
    expect(failures[0].property).toBe(property);
    expect(failures[0].reason).toMatch(reason);
  });

  it("never echoes a name (free text may have been a secret): only its length", () => {
    const [failure] = failuresOf({ name: "s3cr3t".repeat(50) });
    expect(failure.reason).not.toContain("s3cr3t");
  });

  it("lets values unknown in a preview pass", () => {
    expect(failuresOf({ parentId: UNKNOWN, expiresAt: UNKNOWN, annotations: { a: UNKNOWN } })).toEqual([]);
  });
});

describe("checkResetProtected: Neon does not reset a protected branch", () => {
  const olds = { ...base, resetTriggers: [1] };
  it("refuses a new trigger on a branch that stays protected", () => {
    const [failure] = checkResetProtected(olds, { ...base, protected: true, resetTriggers: [2] }, true);
    expect(failure).toMatchObject({ property: "resetTriggers" });
    expect(failure.reason).toMatch(/Neon does not reset a protected branch/);
  });
  it("lets an unprotect and a reset go together, and a create reset nothing", () => {
    expect(checkResetProtected(olds, { ...base, protected: false, resetTriggers: [2] }, true)).toEqual([]);
    expect(checkResetProtected({}, { ...base, protected: true, resetTriggers: [2] }, true)).toEqual([]);
    expect(checkResetProtected(olds, { ...base, protected: true, resetTriggers: [1] }, false)).toEqual([]);
  });
});

describe("the name's default", () => {
  it("is the resource's name for a branch Pulumi creates", () => {
    expect(withDefaultName({}, { projectId: "p", resourceName: "db" }).name).toBe("db");
    expect(withDefaultName({}, { projectId: "p", resourceName: "db", name: "x" }).name).toBe("x");
  });
  it("is the branch's own for an adopted one, also once adoptId is removed", () => {
    expect(withDefaultName({}, { resourceName: "db", adoptId: "br-a-1" }).name).toBeUndefined();
    expect(withDefaultName({ resourceName: "db", projectId: "p" }, { resourceName: "db" }).name).toBeUndefined();
  });
});

describe("withServiceProtection: protected: true brings Pulumi's protect option", () => {
  it("adds protect: true for a plain true, and only then", () => {
    expect(withServiceProtection({ protected: true }, undefined)).toEqual({ protect: true });
    expect(withServiceProtection({ protected: true }, { ignoreChanges: ["name"] })).toEqual({
      ignoreChanges: ["name"],
      protect: true,
    });
    expect(withServiceProtection({ protected: false }, undefined)).toBeUndefined();
    expect(withServiceProtection({}, { retainOnDelete: true })).toEqual({ retainOnDelete: true });
  });
  it("not when the program chose what a delete does: retainOnDelete", () => {
    expect(withServiceProtection({ protected: true }, { retainOnDelete: true })).toEqual({ retainOnDelete: true });
  });
  it("leaves an explicit protect as the program set it", () => {
    expect(withServiceProtection({ protected: true }, { protect: false })).toEqual({ protect: false });
  });
  it("cannot read an Output or a Promise: no option added", () => {
    expect(withServiceProtection({ protected: Promise.resolve(true) }, undefined)).toBeUndefined();
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
