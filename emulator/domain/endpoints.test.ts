import { BRANCH_NOT_READY, createEndpoint, deleteEndpoint, stepEndpoint, updateEndpoint } from "./endpoints";
import { createBranch } from "./branch-create";
import { T0, testWorld } from "./test-world";

/** The compute rules of domain/endpoints.ts, called directly: no server, no HTTP. */
describe("compute rules", () => {
  it("one primary per branch: a second read_write compute answers 409, a read_only one is made", () => {
    const { svc, project, branch } = testWorld();
    const main = branch("main").id;
    expect(() =>
      createEndpoint(svc, project, { branchId: main, type: "read_write", config: {} }, undefined, T0),
    ).toThrow(expect.objectContaining({ status: 409, message: "read_write endpoint already exists" }));
    const ro = createEndpoint(svc, project, { branchId: main, type: "read_only", config: {} }, undefined, T0);
    expect(ro.endpoint.config.autoscaling_limit_max_cu).toBe(0.25);
    expect(ro.operations.map((o) => o.action)).toEqual(["start_compute"]);
  });

  it("a branch still being created answers 422 branch not ready yet until its create_branch ends", () => {
    const { svc, project } = testWorld();
    const made = createBranch(svc, project, { name: "new", endpoints: [], initSource: "parent-data" }, T0);
    const input = { branchId: made.branch.id, type: "read_write" as const, config: {} };
    expect(() => createEndpoint(svc, project, input, undefined, T0 + 999)).toThrow(
      expect.objectContaining({ status: 422, message: BRANCH_NOT_READY }),
    );
    expect(createEndpoint(svc, project, input, undefined, T0 + 1000).endpoint.branchId).toBe(made.branch.id);
  });

  it("the Free plan refuses sizes above 2 CU (400 naming the field)", () => {
    const { svc, project, branch } = testWorld({ plan: "free" });
    const e = svc.store.endpointsOf(project.id, branch("main").id)[0];
    const input = { config: { autoscaling_limit_min_cu: 4, autoscaling_limit_max_cu: 4 } };
    expect(() => updateEndpoint(svc, project, e, input, "free", T0)).toThrow(
      expect.objectContaining({
        status: 400,
        message: expect.stringMatching(/^endpoint.autoscaling_limit_min_cu: 4 exceeds/),
      }),
    );
  });

  it("a protected branch's compute cannot be deleted (422); an unknown one answers nothing (the route's 204)", () => {
    const { svc, project, branch } = testWorld();
    branch("main").protected = true;
    const e = svc.store.endpointsOf(project.id)[0];
    expect(() => deleteEndpoint(svc, project, e.id, T0)).toThrow(expect.objectContaining({ status: 422 }));
    expect(deleteEndpoint(svc, project, "ep-none-123456", T0)).toBeUndefined();
  });

  it("restart of an idle compute answers 422 (restartRequiresActive); without it, it restarts", () => {
    for (const restartRequiresActive of [true, false]) {
      const { svc, project } = testWorld({ behaviours: { restartRequiresActive } });
      const e = svc.store.endpointsOf(project.id)[0];
      e.currentState = "idle";
      const restart = () => stepEndpoint(svc, project, e, "restart", T0);
      if (restartRequiresActive) expect(restart).toThrow(expect.objectContaining({ status: 422 }));
      else expect(restart().operations.map((o) => o.action)).toEqual(["suspend_compute", "start_compute"]);
    }
  });
});
