/**
 * Compute as a user's `pulumi up` drives it, through the local engine and the real plugin: create, no-op, resizes,
 * moves, restart triggers, type change, refresh after out-of-band changes, bad input, previews with unknowns, destroy.
 */
import { Compute, ComputeArgs } from "../../provider";
import { LocalStack } from "../../testing";
import { neonWorld, NeonWorld, ok, ops, outputs, requests, writes } from "./world";

let world: NeonWorld;
let stack: LocalStack;
let primary: Partial<ComputeArgs>;
let replica: Partial<ComputeArgs> | undefined;

beforeAll(async () => {
  world = await neonWorld();
  primary = { autoscalingLimitMinCu: 1, autoscalingLimitMaxCu: 2 };
  replica = {};
  stack = world.stack(() => {
    const projectId = world.projectId;
    const db = new Compute("db", { projectId, branchId: world.branches.dev, ...primary });
    const out: Record<string, unknown> = { id: db.id, host: db.host, minCu: db.autoscalingLimitMinCu };
    if (replica) {
      out.replica = new Compute("replica", {
        projectId,
        branchId: world.branches.main,
        type: "read_only",
        ...replica,
      }).id;
    }
    return out;
  });
});
afterAll(() => world.stop());

const path = (id?: string) => `/projects/${world.projectId}/endpoints${id ? `/${id}` : ""}`;
const dbId = () => String(outputs(stack).id);

/** A stack of one read replica named `name` on `branchId`; a test changes `replica.args` between commands. */
function replicaStack(name: string, branchId: string) {
  const replica: { args: Partial<ComputeArgs> } = { args: {} };
  const stack = world.stack(() => ({
    id: new Compute(name, { projectId: world.projectId, branchId, type: "read_only", ...replica.args }).id,
  }));
  return { stack, replica };
}

describe("Compute through the local engine", () => {
  it("up creates the computes and waits for them", async () => {
    const up = ok(await stack.up());
    expect(ops(up)).toEqual(["create db", "create replica"]);
    const log = requests(up).map((r) => `${r.method} ${r.path}`);
    const lastCreate = log.lastIndexOf(`POST ${path()}`);
    expect(
      log.slice(lastCreate + 1).some((line) => line.startsWith(`GET /projects/${world.projectId}/operations`)),
    ).toBe(true);
    const created = await world.api.endpoints.get(world.projectId, dbId());
    expect(created).toMatchObject({ branch_id: world.branches.dev, type: "read_write", autoscaling_limit_min_cu: 1 });
    expect(outputs(stack).host).toBe(created.host);
  });

  it("a second up changes nothing and sends no request at all", async () => {
    const up = ok(await stack.up());
    expect(ops(up)).toEqual(["same db", "same replica"]);
    expect(up.requests).toEqual([]);
  });

  it("a size change is an update the preview warns about, and one PATCH; the next up sends nothing", async () => {
    primary = { autoscalingLimitMinCu: 2, autoscalingLimitMaxCu: 2 };
    const preview = ok(await stack.preview());
    expect(ops(preview)).toEqual(["same replica", "update db"]);
    expect(preview.requests).toEqual([]);
    expect(preview.warnings).toContainEqual(
      `Compute "db" (${dbId()}) will restart if it is running: autoscalingLimitMinCu 1 -> 2; its open connections will drop.`,
    );
    const up = ok(await stack.up());
    expect(writes(up)).toEqual([`PATCH ${path(dbId())}`]);
    expect(outputs(stack).minCu).toBe(2);
    expect((await stack.up()).requests).toEqual([]);
  });

  it("a change of one size sends both, and the next up is a no-op (no merge of a lone size is relied on)", async () => {
    primary = { autoscalingLimitMinCu: 0.5, autoscalingLimitMaxCu: 2 };
    const up = ok(await stack.up());
    expect(writes(up)).toEqual([`PATCH ${path(dbId())}`]);
    expect(await world.api.endpoints.get(world.projectId, dbId())).toMatchObject({
      autoscaling_limit_min_cu: 0.5,
      autoscaling_limit_max_cu: 2,
    });
    expect((await stack.up()).requests).toEqual([]);
  });

  it("a branch move is one PATCH, keeps the id, and the preview says connections drop", async () => {
    primary = { ...primary, branchId: world.branches.staging };
    const id = dbId();
    const preview = ok(await stack.preview());
    expect(preview.warnings.join("\n")).toContain(`Compute "db" (${id}) will restart if it is running: branchId`);
    const up = ok(await stack.up());
    expect(ops(up)).toEqual(["same replica", "update db"]);
    expect(writes(up)).toEqual([`PATCH ${path(id)}`]);
    expect(outputs(stack).id).toBe(id);
  });

  it("moving a primary onto a branch that has one names the branch and the compute already there", async () => {
    const mainPrimary = (await world.api.endpoints.listForBranch(world.projectId, world.branches.main)).find(
      (c) => c.type === "read_write",
    );
    const declared = primary;
    primary = { ...primary, branchId: world.branches.main };
    const up = await stack.up();
    primary = declared;
    expect(up.error?.message).toContain(`cannot move compute ${dbId()}`);
    expect(up.error?.message).toContain(
      `to branch ${world.branches.main}: its primary (read_write) compute is ${mainPrimary?.id}`,
    );
  });

  it("a restart trigger calls the restart API and nothing else", async () => {
    primary = { ...primary, restartTriggers: ["v1"] };
    ok(await stack.up({ skipPreview: true }));
    primary = { ...primary, restartTriggers: ["v2"] };
    const up = ok(await stack.up());
    expect(writes(up)).toEqual([`POST ${path(dbId())}/restart`]);
  });

  it("a size change and a new trigger restart the compute once: one PATCH, no restart call", async () => {
    primary = { ...primary, autoscalingLimitMinCu: 1, autoscalingLimitMaxCu: 2, restartTriggers: ["v3"] };
    const before = new Set((await world.api.operations.list(world.projectId)).map((op) => op.id));
    const up = ok(await stack.up());
    expect(writes(up)).toEqual([`PATCH ${path(dbId())}`]);
    const starts = (await world.api.operations.list(world.projectId)).filter(
      (op) => !before.has(op.id) && op.endpoint_id === dbId() && op.action === "start_compute",
    );
    expect(starts).toHaveLength(1);
  });

  it("a new trigger on an idle compute restarts nothing and records the trigger", async () => {
    await world.api.endpoints.suspend(world.projectId, dbId());
    primary = { ...primary, restartTriggers: ["v4"] };
    const up = ok(await stack.up());
    expect(writes(up)).toEqual([]);
    expect((await world.api.endpoints.get(world.projectId, dbId())).current_state).toBe("idle");
    expect((await stack.up()).requests).toEqual([]);
  });

  it("disabling a running compute with a new trigger sends the PATCH and no restart (nothing runs once disabled)", async () => {
    const { stack: own, replica } = replicaStack("off", world.branches.staging);
    replica.args = { restartTriggers: ["a"] };
    ok(await own.up({ skipPreview: true }));
    const id = String(outputs(own).id);
    expect((await world.api.endpoints.get(world.projectId, id)).current_state).toBe("active");
    replica.args = { restartTriggers: ["b"], disabled: true };
    const up = ok(await own.up());
    expect(requests(up).filter((r) => r.path.endsWith("/restart"))).toEqual([]);
    expect(writes(up)).toEqual([`PATCH ${path(id)}`]);
    expect(up.preview?.diagnostics.map((d) => d.message)).toContainEqual(
      `Compute "off" (${id}) will be suspended and stay down: disabled is set to true; its open connections will ` +
        "drop, and it accepts no new ones until disabled is false again.",
    );
    expect(await world.api.endpoints.get(world.projectId, id)).toMatchObject({ disabled: true, current_state: "idle" });
    expect((await own.up()).requests).toEqual([]);
    ok(await own.destroy());
  });

  it("a type change replaces the compute, deleting the old one before creating the new (the class's deleteBeforeReplace)", async () => {
    const oldReplica = String(outputs(stack).replica);
    replica = { type: "read_write", branchId: world.branches.dev };
    const up = ok(await stack.up());
    const replaced = ["create-replacement replica", "delete-replaced replica", "replace replica", "same db"];
    expect([...ops(up)].sort()).toEqual(replaced);
    const order = writes(up);
    expect(order[0]).toBe(`DELETE ${path(oldReplica)}`);
    expect(order[order.length - 1]).toBe(`POST ${path()}`);
  });

  it("refresh records an out-of-band change in the declared inputs only, warns of nothing, and the next up puts it back", async () => {
    await world.api.endpoints.update(world.projectId, dbId(), {
      endpoint: { autoscaling_limit_min_cu: 2, autoscaling_limit_max_cu: 3, suspend_timeout_seconds: 3600 },
    });
    const refresh = ok(await stack.refresh());
    expect(refresh.steps.find((s) => s.name === "db")).toMatchObject({ op: "refresh", found: "update" });
    expect(refresh.warnings).toEqual([]);
    expect(refresh.preview?.diagnostics.filter((d) => d.severity === "warning")).toEqual([]);
    const state = stack.state.resources.find((r) => r.urn.endsWith("::db"));
    expect(Object.keys(state?.inputs ?? {}).sort()).toEqual([
      "__provider",
      "autoscalingLimitMaxCu",
      "autoscalingLimitMinCu",
      "branchId",
      "ownerTag",
      "projectId",
      "resourceName",
      "restartTriggers",
    ]);
    const up = ok(await stack.up());
    expect(ops(up)).toEqual(["same replica", "update db"]);
    expect(up.preview?.diagnostics.map((d) => d.message).join("\n")).toContain("autoscalingLimitMinCu 2 -> 1");
    expect((await stack.up()).requests).toEqual([]);
  });

  it("a pgSettings change: the preview warns the compute may restart; a refresh that finds one never warns", async () => {
    // Issue 11, item 4: the "may drop" warning, through the engine (the unit test sees only connectionWarning).
    const { stack: own, replica } = replicaStack("tuned", world.branches.main);
    ok(await own.up({ skipPreview: true }));
    const id = String(outputs(own).id);
    const mayRestart =
      `Compute "tuned" (${id}) may restart if it is running: pgSettings changes (Postgres applies many settings only ` +
      `at a restart; the service does not document which); its open connections may drop.`;
    replica.args = { pgSettings: { work_mem: "65536" } };
    const preview = ok(await own.preview());
    expect(preview.warnings).toContainEqual(mayRestart);
    expect(writes(ok(await own.up({ skipPreview: true })))).toEqual([`PATCH ${path(id)}`]);
    await world.api.endpoints.update(world.projectId, id, {
      endpoint: { settings: { pg_settings: { work_mem: "131072" } } },
    } as never);
    const refresh = ok(await own.refresh());
    expect(refresh.steps.find((s) => s.name === "tuned")).toMatchObject({ op: "refresh", found: "update" });
    expect(refresh.warnings).toEqual([]);
    expect(refresh.preview?.diagnostics.filter((d) => d.severity === "warning")).toEqual([]);
    const back = ok(await own.up());
    expect(back.preview?.diagnostics.map((d) => d.message)).toContainEqual(mayRestart);
    expect(writes(back)).toEqual([`PATCH ${path(id)}`]);
    ok(await own.destroy());
  });

  it("refresh drops a compute deleted outside Pulumi, and the next up creates it again", async () => {
    await world.api.endpoints.delete(world.projectId, String(outputs(stack).replica));
    ok(await stack.refresh());
    expect(stack.state.resources.some((r) => r.urn.endsWith("::replica"))).toBe(false);
    expect(ops(ok(await stack.up()))).toEqual(["create replica", "same db"]);
  });

  it("check refuses bad input by property, echoes no free text, and no request reaches the API", async () => {
    // Issue 11, item 13: a string may have been a secret in the program; the plugin cannot know, so free text (a
    // name) is not echoed. Issue 19: ids and enumerations are (the engine's line shows them anyway): `got "…"`.
    const marker = "s3cr3t";
    const declared = primary;
    primary = {
      autoscalingLimitMinCu: 0.3,
      autoscalingLimitMaxCu: 2,
      suspendTimeoutSeconds: 5,
      name: `${marker}-name-`.padEnd(70, "x"),
      provisioner: "shown-provisioner-value" as ComputeArgs["provisioner"],
      regionId: "SHOWN-REGION x",
      type: "shown-type" as ComputeArgs["type"],
    };
    const preview = await stack.preview();
    primary = declared;
    expect(preview.error).toBeDefined();
    const problems = preview.diagnostics.filter((d) => d.severity === "error").map((d) => d.message);
    expect(problems.join("\n")).toMatch(/property autoscalingLimitMinCu .* must be a compute size/);
    expect(problems.join("\n")).toMatch(/property suspendTimeoutSeconds .* got 5/);
    expect(problems.join("\n")).toMatch(/property name .* must be 1 to 64 characters long \(got 70\)/);
    expect(problems.join("\n")).toMatch(
      /property provisioner .* must be one of k8s-pod, k8s-neonvm, serverless-platform; got "shown-provisioner-value"/,
    );
    expect(problems.join("\n")).toMatch(/property regionId .* got "SHOWN-REGION x"/);
    expect(problems.join("\n")).toMatch(/property type .* got "shown-type"/);
    // The engine's own line shows the refused value ("property name value {…} has a problem": pulumi/pulumi
    // issueCheckFailures); everything else, the provider's reasons above all, must not.
    const engineValue = /^(.* resource '.*': property \w+ value )\{.*\}( has a problem: )/;
    expect(problems.filter((p) => engineValue.test(p))).toHaveLength(problems.length);
    const said = [preview.error?.message, ...preview.diagnostics.map((d) => d.message), ...preview.warnings];
    const withoutEngineValues = said.map((text) => text?.replace(engineValue, "$1{…}$2"));
    expect(withoutEngineValues.join("\n").toLowerCase()).not.toContain(marker);
    expect(preview.requests).toEqual([]);
  });

  it("a preview with values not known yet plans without calling the API", async () => {
    const planned = world.stack(() => {
      const fresh = new Compute("fresh", {
        projectId: world.projectId,
        branchId: world.branches.dev,
        type: "read_only",
      });
      new Compute("follower", { projectId: world.projectId, branchId: fresh.branchId, type: "read_only" });
    });
    const preview = ok(await planned.preview());
    expect(ops(preview)).toEqual(["create follower", "create fresh"]);
    expect(preview.requests).toEqual([]);
  });

  it("destroy deletes every compute", async () => {
    const ids = [dbId(), String(outputs(stack).replica)];
    ok(await stack.destroy());
    expect(stack.state.resources).toEqual([]);
    const left = (await world.api.endpoints.list(world.projectId)).map((c) => c.id);
    for (const id of ids) expect(left).not.toContain(id);
  });
});
