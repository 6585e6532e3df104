import { planComputeChange } from "./diff";
import { unreadOutputs } from "./create";

describe("unreadOutputs", () => {
  it.each([
    [{ projectId: "p-1", branchId: "br-main" }],
    [{ projectId: "p-1", branchId: "br-main", type: "read_only", autoscalingLimitMinCu: 1 }],
  ])("never plans a replacement of a compute that failed to start and could not be read (%o)", (inputs) => {
    const plan = planComputeChange(unreadOutputs("ep-x", inputs), inputs);
    expect(plan.replaces).toEqual([]);
  });
});
