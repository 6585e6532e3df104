import { PROTECTED_ROLE_NAMES, ROLE } from "./declaration";
import { checkInputs } from "../shared/declaration";
import { UNKNOWN } from "../shared/unknown";

const valid = { projectId: "shiny-wind-028834", branchId: "br-aged-salad-637688", name: "app_user" };

function reasonFor(inputs: Record<string, unknown>, property: string): string | undefined {
  return checkInputs(ROLE, inputs).find((failure) => failure.property === property)?.reason;
}

describe("Role: check", () => {
  it("accepts a role, one that cannot log in, password triggers, and a name of exactly 63 bytes", () => {
    expect(checkInputs(ROLE, valid)).toEqual([]);
    expect(checkInputs(ROLE, { ...valid, noLogin: true })).toEqual([]);
    expect(checkInputs(ROLE, { ...valid, passwordTriggers: ["v1", { at: 2 }] })).toEqual([]);
    expect(checkInputs(ROLE, { ...valid, name: "é".repeat(31) + "x" })).toEqual([]); // 63 bytes
    expect(checkInputs(ROLE, { ...valid, name: "PG_upper" })).toEqual([]); // compared exactly, as Postgres does
  });

  it.each([
    ["projectId", { projectId: undefined }, "is required"],
    ["projectId", { projectId: "Shiny_Wind" }, "a project id: 1 to 60 lowercase letters"],
    ["branchId", { branchId: "main" }, "'br-' then 1 to 60"],
    ["name", { name: undefined }, "is required"],
    ["name", { name: "" }, "must not be empty"],
    [
      "name",
      { name: "x".repeat(64) },
      "at most 63 bytes long (Postgres keeps no more of a name: NAMEDATALEN - 1); got 64 bytes",
    ],
    ["name", { name: "é".repeat(32) }, "got 64 bytes"],
    ["name", { name: "a\u0000b" }, "NUL"],
    ["name", { name: "pg_monitor_x" }, "must not start with pg_"],
    ["noLogin", { noLogin: "yes" }, "true or false"],
    ["passwordTriggers", { passwordTriggers: "v1" }, "a list of values"],
    ["passwordTriggers", { noLogin: true, passwordTriggers: ["v1"] }, "no password to reset"],
    [
      "password",
      { password: "x" },
      "is not a Role property; known: projectId, branchId, name, noLogin, passwordTriggers",
    ],
  ])("refuses a bad %s, naming what is allowed", (property, change, allowed) => {
    expect(reasonFor({ ...valid, ...change }, property)).toContain(allowed);
  });

  it.each(PROTECTED_ROLE_NAMES.map((name) => [name]))(
    "refuses the protected role name %s, listing them all",
    (name) => {
      expect(reasonFor({ ...valid, name }, "name")).toBe(
        "is one of Neon's protected role names, which cannot be given to a role (protected: any name starting with " +
          "pg_, neon_superuser, cloud_admin, zenith_admin, public, none)",
      );
    },
  );

  it("never echoes the name it refuses (a name may have been a secret in the program)", () => {
    const reasons = checkInputs(ROLE, { ...valid, name: `s3cr3t${"x".repeat(70)}` }).map((f) => f.reason);
    expect(reasons.join("\n")).not.toContain("s3cr3t");
  });

  it("lets values not known yet pass", () => {
    expect(
      checkInputs(ROLE, { projectId: UNKNOWN, branchId: UNKNOWN, name: UNKNOWN, passwordTriggers: [UNKNOWN] }),
    ).toEqual([]);
  });
});
