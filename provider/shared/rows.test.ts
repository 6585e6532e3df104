import { DECLARATIONS } from "../declarations";

describe("rows", () => {
  it("keptIfUnreported is set only where an output reads it (Compute's toOutputs): elsewhere it would keep nothing", () => {
    const setting = DECLARATIONS.filter((d) => Object.values(d.outputs).some((row) => row.keptIfUnreported));
    expect(setting.map((d) => d.name)).toEqual(["Compute"]);
  });
});
