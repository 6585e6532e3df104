import { DATABASE, PROTECTED_DATABASE_NAMES, planDatabaseChange, toOutputs } from "./declaration";
import { apiBody, checkInputs, recordedInputs } from "../shared/declaration";
import { UNKNOWN } from "../shared/unknown";

const valid = { projectId: "shiny-wind-028834", branchId: "br-aged-salad-637688", name: "app", ownerName: "app_user" };

function reasonFor(inputs: Record<string, unknown>, property: string): string | undefined {
  return checkInputs(DATABASE, inputs).find((failure) => failure.property === property)?.reason;
}

describe("Database: check", () => {
  it("accepts a database with an owner, and a name of exactly 63 bytes", () => {
    expect(checkInputs(DATABASE, valid)).toEqual([]);
    expect(checkInputs(DATABASE, { ...valid, name: "d".repeat(63), ownerName: "neondb_owner" })).toEqual([]);
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
    expect(checkInputs(DATABASE, { ...valid, ownerName: UNKNOWN, branchId: UNKNOWN })).toEqual([]);
  });
});

const olds = {
  databaseId: 7,
  projectId: "p-1",
  branchId: "br-main",
  name: "app",
  ownerName: "app_user",
  createdAt: "2026-01-01T00:00:00Z",
};
const news = { projectId: "p-1", branchId: "br-main", name: "app", ownerName: "app_user" };

describe("Database: diff", () => {
  it("sees no change in the inputs a create recorded", () => {
    expect(planDatabaseChange(olds, news)).toEqual({ changes: false, changed: [], replaces: [], patch: [] });
  });

  it("keeps the table the docs show", () => {
    const changes = Object.fromEntries(Object.entries(DATABASE.inputs).map(([name, row]) => [name, row.change]));
    expect(changes).toEqual({
      projectId: "replace",
      branchId: "replace",
      name: "update",
      ownerName: "update",
      adoptId: "record",
    });
  });

  it("a new name or owner is one PATCH of what changed", () => {
    expect(planDatabaseChange(olds, { ...news, name: "app2" })).toEqual({
      changes: true,
      changed: ["name"],
      replaces: [],
      patch: ["name"],
    });
    expect(planDatabaseChange(olds, { ...news, name: "app2", ownerName: "neondb_owner" }).patch).toEqual([
      "name",
      "ownerName",
    ]);
    expect(planDatabaseChange(olds, { ...news, ownerName: UNKNOWN }).patch).toEqual(["ownerName"]);
  });

  it.each(["projectId", "branchId"])("a new %s replaces", (property) => {
    expect(planDatabaseChange(olds, { ...news, [property]: "other-1" })).toEqual({
      changes: true,
      changed: [property],
      replaces: [property],
      patch: [],
    });
  });
});

const record = {
  id: 834686,
  branch_id: "br-main",
  name: "app",
  owner_name: "casey",
  created_at: "2022-11-30T18:25:15Z",
  updated_at: "2022-11-30T18:25:15Z",
};

describe("Database: outputs and bodies", () => {
  it("outputs the record in camelCase with its project; a refresh records the four inputs", () => {
    const outputs = toOutputs(record, "p-1");
    expect(outputs).toEqual({
      databaseId: 834686,
      projectId: "p-1",
      branchId: "br-main",
      name: "app",
      ownerName: "casey",
      createdAt: "2022-11-30T18:25:15Z",
      updatedAt: "2022-11-30T18:25:15Z",
    });
    expect(recordedInputs(DATABASE, outputs)).toEqual({
      projectId: "p-1",
      branchId: "br-main",
      name: "app",
      ownerName: "casey",
    });
  });

  it("a PATCH carries only what changed", () => {
    const news = { name: "app2", ownerName: "alex" };
    expect(apiBody(DATABASE, news, ["name"])).toEqual({ name: "app2" });
    expect(apiBody(DATABASE, news, ["ownerName"])).toEqual({ owner_name: "alex" });
    expect(apiBody(DATABASE, news, ["name", "ownerName"])).toEqual({ name: "app2", owner_name: "alex" });
  });
});
