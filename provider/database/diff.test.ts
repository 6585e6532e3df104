import { DATABASE_DIFF_RULES, planDatabaseChange } from "./diff";
import { UNKNOWN } from "../shared/unknown";

const olds = {
  databaseId: 7,
  projectId: "p-1",
  branchId: "br-main",
  name: "app",
  ownerName: "app_user",
  createdAt: "2026-01-01T00:00:00Z",
};
const inputs = { projectId: "p-1", branchId: "br-main", name: "app", ownerName: "app_user" };

describe("planDatabaseChange", () => {
  it("sees no change in the inputs a create recorded", () => {
    expect(planDatabaseChange(olds, inputs)).toEqual({ changes: false, replaces: [], patch: [] });
  });

  it("keeps the table the docs show", () => {
    expect(DATABASE_DIFF_RULES).toEqual({
      projectId: "replace",
      branchId: "replace",
      name: "patch",
      ownerName: "patch",
    });
  });

  it("a new name or owner is one PATCH of what changed", () => {
    expect(planDatabaseChange(olds, { ...inputs, name: "app2" })).toEqual({
      changes: true,
      replaces: [],
      patch: ["name"],
    });
    expect(planDatabaseChange(olds, { ...inputs, name: "app2", ownerName: "neondb_owner" }).patch).toEqual([
      "name",
      "ownerName",
    ]);
    expect(planDatabaseChange(olds, { ...inputs, ownerName: UNKNOWN }).patch).toEqual(["ownerName"]);
  });

  it.each(["projectId", "branchId"])("a new %s replaces", (property) => {
    expect(planDatabaseChange(olds, { ...inputs, [property]: "other-1" })).toEqual({
      changes: true,
      replaces: [property],
      patch: [],
    });
  });
});
