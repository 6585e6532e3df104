import { inputsOf, toOutputs, toPatchBody } from "./mapping";

const record = {
  id: 834686,
  branch_id: "br-main",
  name: "app",
  owner_name: "casey",
  created_at: "2022-11-30T18:25:15Z",
  updated_at: "2022-11-30T18:25:15Z",
};

describe("database mapping", () => {
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
    expect(inputsOf(outputs)).toEqual({ projectId: "p-1", branchId: "br-main", name: "app", ownerName: "casey" });
  });

  it("a PATCH carries only what changed", () => {
    const news = { name: "app2", ownerName: "alex" };
    expect(toPatchBody(news, ["name"])).toEqual({ name: "app2" });
    expect(toPatchBody(news, ["ownerName"])).toEqual({ owner_name: "alex" });
    expect(toPatchBody(news, ["name", "ownerName"])).toEqual({ name: "app2", owner_name: "alex" });
  });
});
