import { COMPUTE } from "./declaration";
import { checkInputs } from "../shared/declaration";
import { UNKNOWN } from "../shared/unknown";

const checkComputeInputs = (inputs: Record<string, unknown>) => checkInputs(COMPUTE, inputs);

const valid = { projectId: "shiny-wind-028834", branchId: "br-aged-salad-637688" };

function reasonFor(inputs: Record<string, unknown>, property: string): string | undefined {
  return checkComputeInputs(inputs).find((failure) => failure.property === property)?.reason;
}

describe("Compute: check", () => {
  it("accepts the minimal compute and every documented size", () => {
    expect(checkComputeInputs(valid)).toEqual([]);
    for (const size of [0.25, 0.5, 1, 7, 16, 18, 56]) {
      expect(checkComputeInputs({ ...valid, autoscalingLimitMinCu: size, autoscalingLimitMaxCu: size })).toEqual([]);
    }
  });

  it.each([
    ["projectId", { projectId: undefined }, "is required"],
    ["branchId", { branchId: "main" }, "'br-'"],
    ["type", { type: "primary" }, "read_write, read_only"],
    ["autoscalingLimitMinCu", { autoscalingLimitMinCu: 0.3 }, "0.25, 0.5, any integer from 1 to 16"],
    ["autoscalingLimitMaxCu", { autoscalingLimitMaxCu: 17 }, "even integer from 18 to 56"],
    ["suspendTimeoutSeconds", { suspendTimeoutSeconds: 30 }, "from 60 to 604800"],
    ["suspendTimeoutSeconds", { suspendTimeoutSeconds: 604801 }, "7 days"],
    ["poolerMode", { poolerMode: "session" }, "transaction"],
    ["provisioner", { provisioner: "docker" }, "k8s-pod, k8s-neonvm, serverless-platform"],
    ["name", { name: "x".repeat(65) }, "1 to 64 characters"],
    ["pgSettings", { pgSettings: { work_mem: 4 } }, '"work_mem"'],
    ["disabled", { disabled: "yes" }, "true or false"],
    ["adoptId", { adoptId: "compute-1" }, "'ep-'"],
  ])("refuses a bad %s and names the allowed values", (property, change, allowed) => {
    expect(reasonFor({ ...valid, ...change }, property)).toContain(allowed);
  });

  // Guard: "br-…" (a placeholder) was refused as "must be a branch id starting with 'br-'", which it is: the message
  // now says the whole pattern, so what is wrong shows.
  it.each([
    ["projectId", "Shiny_Wind", 'a project id: 1 to 60 lowercase letters, digits and hyphens; got "Shiny_Wind"'],
    ["branchId", "br-…", "a branch id: 'br-' then 1 to 60 lowercase letters, digits and hyphens; got \"br-…\""],
    ["adoptId", "ep-X", "a compute id: 'ep-' then 1 to 60 lowercase letters, digits and hyphens; got \"ep-X\""],
  ])("says the whole pattern of an id (%s %s)", (property, value, reason) => {
    expect(reasonFor({ ...valid, [property]: value }, property)).toBe(`must be ${reason}`);
  });

  // Issue 19: the engine prints the refused value beside the reason anyway (`property type value {read_many} has a
  // problem`), so a reason that hid it ("got a string of 9 characters") only made the user count characters. Values
  // of ids and enumerations are shown; free text (a name, restart triggers) may hold a secret and is not.
  it.each([
    ["type", "read_many", 'must be one of read_write, read_only; got "read_many"'],
    ["provisioner", "docker", 'got "docker"'],
    ["poolerMode", "session", 'got "session"'],
    ["regionId", "us-east-2 ", 'got "us-east-2 "'],
    ["suspendTimeoutSeconds", 30, "got 30"],
    ["autoscalingLimitMinCu", 0.3, "got 0.3"],
    ["disabled", "yes", "got a string of 3 characters"],
  ])("shows the refused value of %s (%j)", (property, value, says) => {
    expect(reasonFor({ ...valid, [property]: value }, property)).toContain(says);
  });

  it("shows no free text: a name, restart triggers", () => {
    const secret = "s3cr3t-value";
    expect(reasonFor({ ...valid, name: secret.repeat(6) }, "name")).not.toContain(secret);
    expect(reasonFor({ ...valid, restartTriggers: secret }, "restartTriggers")).not.toContain(secret);
    expect(reasonFor({ ...valid, pgSettings: secret }, "pgSettings")).not.toContain(secret);
  });

  it("shows the delay refused for a compute above 16 CU", () => {
    const big = { ...valid, autoscalingLimitMinCu: 18, autoscalingLimitMaxCu: 18, suspendTimeoutSeconds: 300 };
    expect(reasonFor(big, "suspendTimeoutSeconds")).toMatch(/always active; got 300$/);
  });

  it.each([
    [1, 10, "at most 8 CU"],
    [4, 2, "larger than the maximum"],
    [8, 18, "fixed"],
  ])("refuses the size pair %s..%s", (min, max, reason) => {
    expect(
      reasonFor({ ...valid, autoscalingLimitMinCu: min, autoscalingLimitMaxCu: max }, "autoscalingLimitMaxCu"),
    ).toContain(reason);
  });

  it.each([
    [{ autoscalingLimitMaxCu: 10 }, "autoscalingLimitMinCu"],
    [{ autoscalingLimitMinCu: 4 }, "autoscalingLimitMaxCu"],
  ])("refuses one size without the other (%o): the service checks them as a pair", (sizes, missing) => {
    expect(reasonFor({ ...valid, ...sizes }, missing)).toContain("checked as a pair");
  });

  it.each(["k8s-pod", "k8s-neonvm", "serverless-platform"])(
    "accepts the provisioner %s (OpenAPI's Provisioner: the service may accept each)",
    (provisioner) => {
      expect(checkComputeInputs({ ...valid, provisioner })).toEqual([]);
    },
  );

  it("refuses restartTriggers that is not a list", () => {
    expect(reasonFor({ ...valid, restartTriggers: "v1" }, "restartTriggers")).toContain("must be a list");
  });

  it("accepts autoscaling within 8 CU up to 16", () => {
    expect(checkComputeInputs({ ...valid, autoscalingLimitMinCu: 8, autoscalingLimitMaxCu: 16 })).toEqual([]);
  });

  it("lets values unknown during preview pass", () => {
    expect(
      checkComputeInputs({
        projectId: UNKNOWN,
        branchId: UNKNOWN,
        autoscalingLimitMinCu: UNKNOWN,
        autoscalingLimitMaxCu: 2,
      }),
    ).toEqual([]);
  });

  it("refuses a property Compute does not have, listing the known ones", () => {
    expect(reasonFor({ ...valid, size: 2 }, "size")).toContain("autoscalingLimitMinCu");
  });
});

describe("Compute: what a change does", () => {
  it("keeps the table the docs show", () => {
    const rows = Object.entries(COMPUTE.inputs).map(([name, row]) => [
      name,
      `${row.change}${"connections" in row ? ` (${row.connections})` : ""}`,
    ]);
    expect(Object.fromEntries(rows)).toEqual({
      projectId: "replace",
      branchId: "update (drop)",
      type: "replace",
      autoscalingLimitMinCu: "update (drop)",
      autoscalingLimitMaxCu: "update (drop)",
      suspendTimeoutSeconds: "update",
      pgSettings: "update (may-drop)",
      preloadLibraries: "update (may-drop)",
      poolerEnabled: "update",
      poolerMode: "update",
      disabled: "update (drop)",
      passwordlessAccess: "update",
      provisioner: "update (may-drop)",
      name: "update",
      regionId: "replace",
      restartTriggers: "action (drop)",
      adoptId: "record",
      resourceName: "record",
      ownerTag: "record",
    });
  });
});
