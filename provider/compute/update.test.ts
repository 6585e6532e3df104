import { outputsAfter } from "./update";
import { ApiEndpoint } from "./mapping";

const endpoint = {
  id: "ep-cool-darkness-123456",
  host: "ep-cool-darkness-123456.us-east-2.aws.neon.tech",
  project_id: "p-1",
  branch_id: "br-main",
  region_id: "aws-us-east-2",
  type: "read_write",
  autoscaling_limit_min_cu: 1,
  autoscaling_limit_max_cu: 1,
  suspend_timeout_seconds: 0,
  current_state: "active",
} as unknown as ApiEndpoint;

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
