import {
  ApiEndpoint,
  inputsFromOutputs,
  outputsAfter,
  toCreateBody,
  toOutputs,
  toPatchBody,
  unreadOutputs,
  planComputeChange,
} from "./plan";
import { poolerHost } from "../shared/ids";

const record = {
  id: "ep-cool-darkness-123456",
  host: "ep-cool-darkness-123456.us-east-2.aws.neon.tech",
  project_id: "p-1",
  branch_id: "br-main",
  region_id: "aws-us-east-2",
  type: "read_write",
  autoscaling_limit_min_cu: 2,
  autoscaling_limit_max_cu: 4,
  suspend_timeout_seconds: 0,
  settings: { pg_settings: { work_mem: "64MB" } },
  current_state: "active",
  created_at: "2026-01-01T00:00:00Z",
};

describe("Compute: bodies and outputs", () => {
  it("sends in a create only what the program set, with read_write as the default type", () => {
    expect(
      toCreateBody({ projectId: "p-1", branchId: "br-main", autoscalingLimitMinCu: 1, pgSettings: { a: "b" } }),
    ).toEqual({
      endpoint: {
        branch_id: "br-main",
        type: "read_write",
        autoscaling_limit_min_cu: 1,
        settings: { pg_settings: { a: "b" } },
      },
    });
  });

  it("puts only the named properties in a PATCH (a branch move is branch_id alone)", () => {
    const inputs = { projectId: "p-1", branchId: "br-dev", autoscalingLimitMinCu: 1, name: "x" };
    expect(toPatchBody(inputs, ["branchId"])).toEqual({ endpoint: { branch_id: "br-dev" } });
  });

  it("reports every field in camelCase, the pooled host and max_connections of the minimum size", () => {
    const outputs = toOutputs(record, { restartTriggers: [1], resourceName: "db" });
    expect(outputs).toMatchObject({
      endpointId: record.id,
      autoscalingLimitMinCu: 2,
      pgSettings: { work_mem: "64MB" },
      poolerHost: "ep-cool-darkness-123456-pooler.us-east-2.aws.neon.tech",
      maxConnections: 901,
      restartTriggers: [1],
      resourceName: "db",
    });
  });

  it("keeps the program's value of a field the service left out, and reports none where the program set none", () => {
    const { settings: _settings, ...bare } = record;
    const declared = { disabled: false, pgSettings: { a: "b" }, passwordlessAccess: true, provisioner: "k8s-pod" };
    expect(toOutputs(bare, declared)).toMatchObject(declared);
    expect(toOutputs(bare, {})).toMatchObject({ pgSettings: {} });
    expect(toOutputs(bare, {})).not.toHaveProperty("disabled");
    expect(toOutputs(record, { pgSettings: { a: "b" } }).pgSettings).toEqual({ work_mem: "64MB" }); // reported wins
  });

  it("reports no output for a field the service answers as null", () => {
    expect(toOutputs({ ...record, pending_state: null, proxy_host: null }, {})).not.toHaveProperty("pendingState");
    expect(toOutputs({ ...record, proxy_host: null }, {})).not.toHaveProperty("proxyHost");
  });

  it("inserts -pooler only after the compute id", () => {
    expect(poolerHost("ep-a", "ep-a.eu.neon.tech")).toBe("ep-a-pooler.eu.neon.tech");
    expect(poolerHost("ep-a", "proxy.eu.neon.tech")).toBe("proxy.eu.neon.tech");
  });

  it("derives refreshed inputs from the outputs", () => {
    const inputs = inputsFromOutputs(toOutputs(record, { resourceName: "db" }));
    expect(inputs).toMatchObject({
      projectId: "p-1",
      branchId: "br-main",
      autoscalingLimitMaxCu: 4,
      resourceName: "db",
    });
    expect(inputs).not.toHaveProperty("host");
  });

  it("keeps the program's value of a field the answer leaves out (pooler fields, disabled, …), but not a name's", () => {
    const inputs = {
      poolerEnabled: true,
      poolerMode: "transaction",
      disabled: false,
      passwordlessAccess: false,
      provisioner: "k8s-neonvm",
      name: "db",
    };
    const outputs = toOutputs(record as unknown as ApiEndpoint, inputs);
    const { name: _name, ...kept } = inputs;
    expect(outputs).toMatchObject(kept);
    // An answer without a name says the compute has none: the next diff shows the program's name as a change.
    expect(outputs).not.toHaveProperty("name");
    expect(toOutputs({ ...record, disabled: true } as unknown as ApiEndpoint, inputs).disabled).toBe(true);
  });
});

describe("unreadOutputs", () => {
  it.each([
    [{ projectId: "p-1", branchId: "br-main" }],
    [{ projectId: "p-1", branchId: "br-main", type: "read_only", autoscalingLimitMinCu: 1 }],
  ])("never plans a replacement of a compute that failed to start and could not be read (%o)", (inputs) => {
    const plan = planComputeChange(unreadOutputs("ep-x", inputs), inputs);
    expect(plan.replaces).toEqual([]);
  });
});

/** A compute of 1 CU with no settings (the record above, without them). */
const { settings: _settings, created_at: _createdAt, ...unsettled } = record;
const endpoint = { ...unsettled, autoscaling_limit_min_cu: 1, autoscaling_limit_max_cu: 1 } as unknown as ApiEndpoint;

describe("outputsAfter", () => {
  let stderr: jest.SpyInstance;
  beforeEach(() => (stderr = jest.spyOn(process.stderr, "write").mockImplementation(() => true)));
  afterEach(() => stderr.mockRestore());

  it("records a value the service answered otherwise than asked, once, with a warning", () => {
    const outputs = outputsAfter(endpoint, { suspendTimeoutSeconds: 600 }, ["suspendTimeoutSeconds"]);
    expect(outputs.overridden).toEqual({ suspendTimeoutSeconds: { requested: 600, service: 0 } });
    expect(stderr).toHaveBeenCalledTimes(1);
  });

  it("records no override for a value the answer does not report (nothing undefined reaches the state)", () => {
    const outputs = outputsAfter(endpoint, { name: "db" }, ["name"]);
    expect(outputs).not.toHaveProperty("overridden");
    expect(stderr).not.toHaveBeenCalled();
  });
});
