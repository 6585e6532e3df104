import { API_KEY, planApiKeyChange } from "./declaration";
import { checkInputs } from "../shared/declaration";
import { declaredInputs, scopeOf } from "./routes";
import { UNKNOWN } from "../shared/unknown";

const ORG = "org-morning-bread-81040908";
const PROJECT = "spring-example-302709";

/** Check's verdict on ApiKey inputs (the rows' rules and the orgId a projectId needs), as impl.ts's check gives it. */
const checkApiKeyInputs = (news: Record<string, unknown>) => checkInputs(API_KEY, news);

describe("checkApiKeyInputs", () => {
  it("accepts the three kinds: personal, organization-wide, project-scoped (and ids like the OpenAPI examples)", () => {
    expect(checkApiKeyInputs({ keyName: "ci" })).toEqual([]);
    expect(checkApiKeyInputs({ keyName: "ci", orgId: ORG })).toEqual([]);
    expect(checkApiKeyInputs({ keyName: "ci", orgId: ORG, projectId: PROJECT })).toEqual([]);
    expect(checkApiKeyInputs({ keyName: "ci", orgId: "my-organization-morning-bread-81040908" })).toEqual([]);
    expect(checkApiKeyInputs({ keyName: "ci", orgId: null, projectId: null })).toEqual([]);
  });

  it("refuses a projectId without orgId, naming projectId, its value and what it needs", () => {
    expect(checkApiKeyInputs({ keyName: "ci", projectId: PROJECT })).toEqual([
      {
        property: "projectId",
        reason: expect.stringMatching(/^needs orgId: .*set orgId.*; got "spring-example-302709"/),
      },
    ]);
  });

  it.each([
    ["orgId", "Org_Acme"],
    ["orgId", ""],
    ["orgId", "o".repeat(61)],
    ["projectId", "Spring Example"],
    ["projectId", "spring/../example"],
  ])("refuses a malformed %s (%j), naming what is allowed and the value (an id, no secret)", (property, value) => {
    const failures = checkApiKeyInputs({ keyName: "ci", orgId: ORG, [property]: value });
    expect(failures).toEqual([{ property, reason: expect.stringContaining("1 to 60 lowercase letters, digits") }]);
    expect(failures[0].reason).toMatch(/; got ".*"$/);
    if (value.length > 3 && value.length <= 80) expect(failures[0].reason).toContain(JSON.stringify(value));
  });

  it("shows no key name (free text, which may hold anything)", () => {
    const failures = checkApiKeyInputs({ keyName: "s3cr3t".repeat(12) });
    expect(failures).toEqual([{ property: "keyName", reason: "must be 1 to 64 characters long (got 72)" }]);
  });

  it("refuses a non-string id, and unknown properties listing the known ones", () => {
    expect(checkApiKeyInputs({ keyName: "ci", orgId: 5 })).toEqual([
      { property: "orgId", reason: "must be a string, got 5" },
    ]);
    expect(checkApiKeyInputs({ keyName: "ci", org: ORG })).toEqual([
      { property: "org", reason: "is not an ApiKey property; known: keyName, orgId, projectId" },
    ]);
  });

  it("lets unknown values pass in preview", () => {
    expect(checkApiKeyInputs({ keyName: UNKNOWN, orgId: UNKNOWN, projectId: UNKNOWN })).toEqual([]);
    // A projectId not known yet may resolve to nothing: it needs no orgId until it is known.
    expect(checkApiKeyInputs({ keyName: "ci", projectId: UNKNOWN })).toEqual([]);
    expect(checkApiKeyInputs({ keyName: "ci", projectId: PROJECT, orgId: UNKNOWN })).toEqual([]);
  });
});

describe("planApiKeyChange", () => {
  const personalState = { keyName: "ci", keyId: 1, projectId: null };
  const scopedState = { keyName: "ci", orgId: ORG, keyId: 2, projectId: PROJECT };

  it("no change: state's projectId null equals an absent input; a scoped key's stays the same", () => {
    expect(planApiKeyChange(personalState, { keyName: "ci" }).changes).toBe(false);
    expect(planApiKeyChange({ keyName: "ci" }, { keyName: "ci" }).changes).toBe(false); // state of 0.2.0
    expect(planApiKeyChange(scopedState, { keyName: "ci", orgId: ORG, projectId: PROJECT }).changes).toBe(false);
  });

  // The projectId output is the service's answer: one that left project_id out (null) must not replace the key.
  it("compares projectId with the declared one recorded in state, not with the service's answer", () => {
    const unconfirmed = { ...scopedState, projectId: null, declaredProjectId: PROJECT };
    expect(planApiKeyChange(unconfirmed, { keyName: "ci", orgId: ORG, projectId: PROJECT }).changes).toBe(false);
    expect(planApiKeyChange(unconfirmed, { keyName: "ci", orgId: ORG }).replaces).toEqual(["projectId"]);
    const wide = { keyName: "ci", orgId: ORG, keyId: 4, projectId: null, declaredProjectId: null };
    expect(planApiKeyChange(wide, { keyName: "ci", orgId: ORG }).changes).toBe(false);
    expect(planApiKeyChange(wide, { keyName: "ci", orgId: ORG, projectId: PROJECT }).replaces).toEqual(["projectId"]);
  });

  it.each([
    [personalState, { keyName: "ci", orgId: ORG }, ["orgId"]],
    [scopedState, { keyName: "ci", orgId: ORG }, ["projectId"]],
    [scopedState, { keyName: "ci", orgId: ORG, projectId: "other-project-1" }, ["projectId"]],
    [scopedState, { keyName: "ci" }, ["orgId", "projectId"]],
    [scopedState, { keyName: "cd", orgId: ORG, projectId: PROJECT }, ["keyName"]],
    [scopedState, { keyName: "ci", orgId: UNKNOWN, projectId: PROJECT }, ["orgId"]],
  ])("%j → %j replaces %j, new before old", (olds, news, replaces) => {
    expect(planApiKeyChange(olds, news)).toEqual({ changes: true, replaces, deleteBeforeReplace: false });
  });
});

describe("scopeOf and declaredInputs", () => {
  it("take orgId and projectId from inputs or state, projectId only with an orgId", () => {
    expect(scopeOf({ keyName: "ci", projectId: null })).toEqual({});
    expect(scopeOf({ projectId: PROJECT })).toEqual({});
    expect(scopeOf({ orgId: ORG, projectId: null })).toEqual({ orgId: ORG });
    expect(declaredInputs("ci", scopeOf(scopedStateOf()))).toEqual({ keyName: "ci", orgId: ORG, projectId: PROJECT });
  });

  it("take the declared projectId from state's record, not the service's answer in projectId", () => {
    const state = { ...scopedStateOf(), projectId: null, declaredProjectId: PROJECT };
    expect(scopeOf(state)).toEqual({ orgId: ORG, projectId: PROJECT });
    expect(scopeOf({ ...scopedStateOf(), projectId: "other-project-1", declaredProjectId: null })).toEqual({
      orgId: ORG,
    });
  });
});

function scopedStateOf() {
  return { keyName: "ci", orgId: ORG, projectId: PROJECT, key: "s", keyId: 3, __provider: "p" };
}
