import { ApiError } from "./errors";
import { parseEndpointCreate } from "./endpoint-input";
import { parseLimit, resolveSizes, suspendTimeout } from "./validation";

const rejects = (fn: () => unknown, field: string): void => {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).status).toBe(400);
    expect((err as ApiError).message).toContain(field);
    return;
  }
  throw new Error("expected a 400");
};

describe("validation", () => {
  const ep = (extra: Record<string, unknown>) => ({ endpoint: { branch_id: "br-a-1", type: "read_write", ...extra } });

  it.each([0.25, 0.5, 1, 7, 16, 18, 40, 56])("size %p is allowed", (cu) => {
    expect(parseEndpointCreate(ep({ autoscaling_limit_min_cu: cu }), "r").config.autoscaling_limit_min_cu).toBe(cu);
  });

  it.each([0, 0.3, 0.75, 1.5, 17, 19, 57, 64, -1])("size %p is refused", (cu) => {
    rejects(() => parseEndpointCreate(ep({ autoscaling_limit_max_cu: cu }), "r"), "autoscaling_limit_max_cu");
  });

  it.each([
    [{ min: 2 }, { min: 0.25, max: 0.25 }, { min: 2, max: 2 }],
    [{ max: 4 }, { min: 0.25, max: 0.25 }, { min: 0.25, max: 4 }],
    [{ max: 32 }, { min: 1, max: 1 }, { min: 32, max: 32 }],
    [
      { min: 8, max: 16 },
      { min: 0.25, max: 0.25 },
      { min: 8, max: 16 },
    ],
    [{ min: 2 }, { min: 1, max: 4 }, { min: 2, max: 4 }],
  ])("resolves %j over %j to %j", (req, cur, want) => {
    expect(resolveSizes(req, cur, "endpoint")).toEqual(want);
  });

  it.each([
    [{ min: 4, max: 2 }, "autoscaling_limit_min_cu"],
    [{ min: 1, max: 10 }, "autoscaling_limit_max_cu"],
    [{ min: 18, max: 20 }, "autoscaling_limit_max_cu"],
    [{ min: 16, max: 18 }, "autoscaling_limit_max_cu"],
  ])("refuses %j", (req, field) => {
    rejects(() => resolveSizes(req, { min: 0.25, max: 0.25 }, "endpoint"), field);
  });

  it.each([-1, 0, 60, 300, 604800])("suspend_timeout_seconds %p is allowed", (v) => {
    expect(suspendTimeout("s", v)).toBe(v);
  });

  it.each([-2, 1, 59, 604801, 1.5, "60", null])("suspend_timeout_seconds %p is refused", (v) => {
    rejects(() => suspendTimeout("suspend_timeout_seconds", v), "suspend_timeout_seconds");
  });

  it.each(["k8s-pod", "k8s-neonvm", "serverless-platform"])("provisioner %s is allowed (OpenAPI Provisioner)", (p) => {
    expect(parseEndpointCreate(ep({ provisioner: p }), "r").config.provisioner).toBe(p);
  });

  it("limit is an integer within bounds", () => {
    expect(parseLimit(undefined, 400, 10)).toBe(10);
    expect(parseLimit("400", 400, 10)).toBe(400);
    for (const bad of ["0", "401", "-1", "1e2", " 5", "abc"]) rejects(() => parseLimit(bad, 400, 10), "limit");
  });
});
