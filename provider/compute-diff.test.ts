import { planComputeChange, restartWarning } from "./compute-diff";
import { UNKNOWN } from "./unknown";

/** Old outputs as the service reported them after a create that set only project and branch. */
const olds = {
  projectId: "p-1",
  branchId: "br-main",
  type: "read_write",
  regionId: "aws-us-east-2",
  autoscalingLimitMinCu: 1,
  autoscalingLimitMaxCu: 2,
  suspendTimeoutSeconds: 0,
  pgSettings: {},
  poolerEnabled: false,
  poolerMode: "transaction",
  disabled: false,
  passwordlessAccess: true,
  provisioner: "k8s-neonvm",
  resourceName: "db",
};
const declared = { projectId: "p-1", branchId: "br-main" };

describe("planComputeChange", () => {
  it("sees no change when the program leaves out what the service defaulted (no permanent diff)", () => {
    expect(planComputeChange(olds, declared).changes).toBe(false);
    expect(planComputeChange(olds, { ...declared, type: "read_write", pgSettings: {} }).changes).toBe(false);
  });

  it("treats an autosuspend of 0 and of 300 seconds as the same setting", () => {
    expect(planComputeChange(olds, { ...declared, suspendTimeoutSeconds: 300 }).changes).toBe(false);
    expect(
      planComputeChange({ ...olds, suspendTimeoutSeconds: 300 }, { ...declared, suspendTimeoutSeconds: 0 }).changes,
    ).toBe(false);
  });

  it.each([
    ["projectId", "p-2"],
    ["type", "read_only"],
    ["regionId", "aws-eu-central-1"],
  ])("replaces the compute when %s changes", (property, value) => {
    const plan = planComputeChange(olds, { ...declared, [property]: value });
    expect(plan.replaces).toEqual([property]);
  });

  it.each([
    ["autoscalingLimitMinCu", 2],
    ["autoscalingLimitMaxCu", 4],
  ])("updates in place and flags the restart when %s changes", (property, value) => {
    const plan = planComputeChange(olds, { ...declared, [property]: value });
    expect(plan).toMatchObject({ changes: true, replaces: [], patch: [property], restartsBySize: true });
  });

  it.each([
    ["branchId", "br-dev"],
    ["suspendTimeoutSeconds", 600],
    ["poolerEnabled", true],
    ["disabled", true],
    ["passwordlessAccess", false],
    ["pgSettings", { work_mem: "64MB" }],
    ["provisioner", "k8s-pod"],
    ["name", "analytics"],
  ])("only PATCHes %s, without a restart", (property, value) => {
    const plan = planComputeChange(olds, { ...declared, [property]: value });
    expect(plan).toMatchObject({
      changes: true,
      replaces: [],
      patch: [property],
      restartsBySize: false,
      restartByTrigger: false,
    });
  });

  it("restarts through the restart API when restartTriggers change, and only then", () => {
    const withTrigger = { ...olds, restartTriggers: ["v1"] };
    expect(planComputeChange(withTrigger, { ...declared, restartTriggers: ["v2"] })).toMatchObject({
      patch: [],
      restartByTrigger: true,
    });
    expect(planComputeChange(withTrigger, { ...declared, restartTriggers: ["v1"] }).changes).toBe(false);
  });

  it("treats a value unknown during preview as a change of its kind", () => {
    expect(planComputeChange(olds, { ...declared, projectId: UNKNOWN }).replaces).toEqual(["projectId"]);
    expect(planComputeChange(olds, { ...declared, branchId: UNKNOWN }).patch).toEqual(["branchId"]);
  });

  it("creates before deleting, except for a primary replaced on the same branch", () => {
    expect(planComputeChange(olds, { ...declared, type: "read_only" }).deleteBeforeReplace).toBe(false);
    expect(planComputeChange(olds, { ...declared, projectId: "p-2" }).deleteBeforeReplace).toBe(false);
    expect(planComputeChange(olds, { ...declared, regionId: "aws-eu-central-1" }).deleteBeforeReplace).toBe(true);
  });
});

describe("restartWarning", () => {
  it("names the compute and says that its connections drop", () => {
    const text = restartWarning("ep-cool-1", olds, { ...declared, autoscalingLimitMinCu: 2 });
    expect(text).toBe(
      'warning: Compute "db" (ep-cool-1) will restart: autoscalingLimitMinCu 1 -> 2; its open connections will drop.',
    );
  });
});
