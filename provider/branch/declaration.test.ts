import type { Branch } from "../../client";
import { checkInputs, Declaration } from "../shared/declaration";
import { UNKNOWN } from "../shared/unknown";
import { BRANCH } from "./declaration";
import { BRANCH_RECORD } from "./branch-record.test-fixture";
import { checkSeveral } from "./refusal";
import { withDefaultName } from "../shared/adoption";
import { withServiceProtection } from "./resource";
import {
  inputsFromOutputs,
  originOf,
  originOfRecord,
  outputsWith,
  recordedOutputs,
  toCreateBody,
  toOutputs,
  toPatchFields,
} from "./plan";

const NOW = Date.parse("2026-03-01T12:00:00Z");
const base = { projectId: "spring-example-302709", name: "dev", resourceName: "dev" };
/** The declaration's Check as of NOW (its rules over several inputs read the clock). */
const AT_NOW: Declaration = { ...BRANCH, crossChecks: [(news) => checkSeveral(BRANCH, news, NOW)] };
const failuresOf = (inputs: Record<string, unknown>) => checkInputs(AT_NOW, { ...base, ...inputs });
const at = (ms: number) => new Date(NOW + ms).toISOString().replace(/\.\d{3}Z$/, "Z");
const HOUR = 3_600_000;

describe("Branch: check, from the declaration", () => {
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

  it("says what a change of each input does: the table the docs show", () => {
    const changes = Object.fromEntries(Object.entries(BRANCH.inputs).map(([name, row]) => [name, row.change]));
    expect(changes).toEqual({
      ...{ projectId: "replace", parentId: "replace", parentLsn: "replace", parentTimestamp: "replace" },
      ...{ initSource: "replace", name: "update", protected: "update", expiresAt: "update", annotations: "refused" },
      ...{ resetTriggers: "action", adoptId: "record", resourceName: "record" },
    });
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

const record = { ...BRANCH_RECORD, expires_at: "2026-03-02T12:00:00Z" } as Branch;

describe("toCreateBody", () => {
  it("sends only what the program set, the resolved parent, and annotations as annotation_value", () => {
    const inputs = { projectId: "p", name: "dev", parentTimestamp: "2026-03-01T10:00:00Z", annotations: { a: "b" } };
    expect(toCreateBody({ ...inputs, resourceName: "dev", resetTriggers: [1] }, "br-main-1")).toEqual({
      branch: { name: "dev", parent_timestamp: "2026-03-01T10:00:00Z", parent_id: "br-main-1" },
      annotation_value: { a: "b" },
    });
    expect(toCreateBody({ initSource: "schema-only", protected: true }, undefined)).toEqual({
      branch: { init_source: "schema-only", protected: true },
    });
  });
});

describe("toPatchFields", () => {
  it("carries only the changed fields; a removed expiry is null (removes it)", () => {
    expect(toPatchFields({ name: "x", protected: true, expiresAt: "t" }, ["name"])).toEqual({ name: "x" });
    expect(toPatchFields({ protected: false }, ["protected", "expiresAt"])).toEqual({
      protected: false,
      expires_at: null,
    });
  });
  it("a removed protection is protected: false (unprotects)", () => {
    expect(toPatchFields({ name: "x" }, ["protected"])).toEqual({ protected: false });
  });
});

describe("outputs", () => {
  it("are the record in camelCase, with the annotations read back and the provider's records", () => {
    const inputs = { projectId: "p", name: "dev", resetTriggers: ["v1"], resourceName: "dev" };
    const outputs = outputsWith(record, { a: "b" }, inputs, originOf({ ...inputs, parentId: "br-main-00000001" }));
    expect(outputs).toMatchObject({
      branchId: record.id,
      parentId: "br-main-00000001",
      parentLsn: "0/1A0001F8",
      default: false,
      currentState: "ready",
      expiresAt: "2026-03-02T12:00:00Z",
      annotations: { a: "b" },
      resetTriggers: ["v1"],
      declared: ["name", "projectId", "resetTriggers", "resourceName"],
      origin: { parentId: "br-main-00000001" },
    });
    expect(outputs).not.toHaveProperty("primary"); // deprecated by Neon: `default`
  });

  it("keep the annotations last known when an answer carries none", () => {
    expect(toOutputs(record, undefined, { annotations: { a: "b" } }).annotations).toEqual({ a: "b" });
  });

  it("a refresh hands back the declared inputs: made-from ones from origin, the others from the record", () => {
    const outputs = toOutputs(
      { ...record, parent_lsn: "0/FFFF", name: "renamed" },
      {},
      {
        declared: ["name", "parentLsn", "projectId"],
        origin: { parentId: "br-main-00000001", parentLsn: "0/1DE2850" },
      },
    );
    expect(inputsFromOutputs(outputs)).toEqual({
      name: "renamed",
      parentLsn: "0/1DE2850",
      projectId: record.project_id,
    });
  });

  it("an update that sends nothing records the new carried inputs", () => {
    const olds = toOutputs(record, {}, { resetTriggers: [1], adoptId: record.id, declared: ["adoptId"] });
    const outputs = recordedOutputs(olds, { projectId: "p", resetTriggers: [1] });
    expect(outputs.adoptId).toBeUndefined();
    expect(outputs.declared).toEqual(["projectId", "resetTriggers"]);
  });

  it("an adopted branch's origin is its record's", () => {
    expect(originOfRecord(record)).toEqual({
      parentId: "br-main-00000001",
      parentLsn: "0/1A0001F8",
      initSource: "parent-data",
    });
  });
});
