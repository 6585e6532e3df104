import { checkDatabaseInputs, PROTECTED_DATABASE_NAMES } from "./check";
import { UNKNOWN } from "../shared/unknown";

const valid = { projectId: "shiny-wind-028834", branchId: "br-aged-salad-637688", name: "app", ownerName: "app_user" };

function reasonFor(inputs: Record<string, unknown>, property: string): string | undefined {
  return checkDatabaseInputs(inputs).find((failure) => failure.property === property)?.reason;
}

describe("checkDatabaseInputs", () => {
  it("accepts a database with an owner, and a name of exactly 63 bytes", () => {
    expect(checkDatabaseInputs(valid)).toEqual([]);
    expect(checkDatabaseInputs({ ...valid, name: "d".repeat(63), ownerName: "neondb_owner" })).toEqual([]);
  });

  it.each([
    ["projectId", { projectId: undefined }, "is required"],
    ["branchId", { branchId: "br_x" }, "'br-' then 1 to 60"],
    ["name", { name: undefined }, "is required"],
    ["name", { name: "" }, "must not be empty"],
    ["name", { name: "d".repeat(64) }, "at most 63 bytes long"],
    ["ownerName", { ownerName: undefined }, "is required"],
    ["ownerName", { ownerName: "" }, "must not be empty (the owner role name"],
    ["ownerName", { ownerName: "o".repeat(64) }, "at most 63 bytes long"],
    ["id", { id: 3 }, "is not a Database property; known: projectId, branchId, name, ownerName"],
  ])("refuses a bad %s, naming what is allowed", (property, change, allowed) => {
    expect(reasonFor({ ...valid, ...change }, property)).toContain(allowed);
  });

  it.each(PROTECTED_DATABASE_NAMES.map((name) => [name]))("refuses the protected database name %s", (name) => {
    expect(reasonFor({ ...valid, name }, "name")).toBe(
      "is one of Neon's protected database names, which cannot be given to a database (protected: postgres, " +
        "template0, template1)",
    );
  });

  it("lets values not known yet pass (an owner from a Role created in the same up)", () => {
    expect(checkDatabaseInputs({ ...valid, ownerName: UNKNOWN, branchId: UNKNOWN })).toEqual([]);
  });
});
