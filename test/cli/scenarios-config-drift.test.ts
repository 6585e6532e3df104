/**
 * What the engine decides from the state and the resource options, through the real Pulumi CLI: a refresh after a
 * compute was resized outside Pulumi (the refresh records the new size; the next `up` puts the program's size back
 * with one PATCH, its preview warning of the restart), and `ignoreChanges` on a size (a changed size in the program
 * is no step and no request). Each runs on the real CLI (asserted), then on the model of the engine (`LocalStack`),
 * whose transcript must equal the CLI's except for the disagreements recorded here.
 */
import { Compute } from "../../provider";
import {
  AnyStack,
  checkNoChange,
  cliWorld,
  CliWorld,
  compareWithModel,
  Engine,
  ok,
  outputsOf,
  runOn,
  stateOf,
  writes,
} from "./cli-world";

let world: CliWorld;
beforeAll(async () => {
  world = await cliWorld();
});
afterAll(() => world?.stop());

const idOf = async (stack: AnyStack) => String((await outputsOf(stack)).id);
const sizesOf = async (id: string) => {
  const compute = await world.api.endpoints.get(world.projectId, id);
  return [compute.autoscaling_limit_min_cu, compute.autoscaling_limit_max_cu];
};

describe("a compute resized outside Pulumi, through the real CLI", () => {
  it("refresh records the new size; the next up puts the program's back with one PATCH, its preview warning of the restart", async () => {
    const branch = world.branches.staging;
    const program = () => {
      const db = new Compute("db", {
        projectId: world.projectId,
        branchId: branch,
        type: "read_only",
        autoscalingLimitMinCu: 0.25,
        autoscalingLimitMaxCu: 1,
      });
      return { id: db.id, min: db.autoscalingLimitMinCu, max: db.autoscalingLimitMaxCu };
    };
    const scenario = (engine: Engine) =>
      runOn(world, engine, program, {}, async (stack, t) => {
        t.command("first up", ok(await stack.up({ skipPreview: true })));
        await checkNoChange(stack, t, engine, "after first up");
        const id = await idOf(stack);

        await world.api.endpoints.update(world.projectId, id, {
          endpoint: { autoscaling_limit_min_cu: 1, autoscaling_limit_max_cu: 2 },
        });
        const refresh = t.command("refresh", ok(await stack.refresh()));
        expect(writes(refresh)).toEqual([]);
        expect(refresh.warnings).toEqual([]); // a refresh plans no change: no restart warning
        const { inputs, outputs } = await stateOf(stack, "db");
        expect([outputs.autoscalingLimitMinCu, outputs.autoscalingLimitMaxCu]).toEqual([1, 2]);
        expect([inputs.autoscalingLimitMinCu, inputs.autoscalingLimitMaxCu]).toEqual([1, 2]);
        t.note("after refresh: stack outputs", refresh.outputs);

        const up = t.command("up", ok(await stack.up()));
        expect(writes(up)).toEqual([`PATCH /projects/${world.projectId}/endpoints/${id}`]);
        const warning =
          `Compute "db" (${id}) will restart if it is running: autoscalingLimitMinCu 1 -> 0.25, ` +
          `autoscalingLimitMaxCu 2 -> 1; its open connections will drop.`;
        expect(up.preview?.diagnostics.filter((d) => d.severity === "warning").map((d) => d.message)).toEqual([
          warning,
        ]);
        expect(await sizesOf(id)).toEqual([0.25, 1]);
        expect(up.outputs).toEqual({ id, min: 0.25, max: 1 });
        await checkNoChange(stack, t, engine, "after up");

        const destroy = t.command("destroy", ok(await stack.destroy({ skipPreview: true })));
        expect(writes(destroy)).toEqual([`DELETE /projects/${world.projectId}/endpoints/${id}`]);
      });
    const cli = await scenario("cli");
    expect(cli.entries["refresh: preview steps"]).toEqual(["refresh db"]);
    expect(cli.entries["refresh: steps"]).toEqual(["refresh db"]);
    expect(cli.entries["refresh: preview found"]).toEqual(["db update"]);
    expect(cli.entries["refresh: found"]).toEqual(["db update"]);
    expect(cli.entries["up: preview steps"]).toEqual(["update db"]);
    expect(cli.entries["up: steps"]).toEqual(["update db"]);
    expect(cli.entries["up: preview diffs"]).toEqual(["db: autoscalingLimitMaxCu,autoscalingLimitMinCu"]);
    // A refresh does not run the program: the stack's outputs stay those of the last up.
    expect(cli.entries["after refresh: stack outputs"]).toEqual({ id: "ep#1", min: 0.25, max: 1 });
    const model = await scenario("model");
    console.log(JSON.stringify(compareWithModel(cli, model), null, 1));
  });
});

describe("ignoreChanges on a size, through the real CLI", () => {
  it('ignoreChanges: ["autoscalingLimitMaxCu"]: a new maximum in the program is no step and no request', async () => {
    const branch = world.branches.staging;
    const declared = { max: 2 };
    const program = () => {
      const db = new Compute(
        "db",
        {
          projectId: world.projectId,
          branchId: branch,
          type: "read_only",
          autoscalingLimitMinCu: 1,
          autoscalingLimitMaxCu: declared.max,
        },
        { ignoreChanges: ["autoscalingLimitMaxCu"] },
      );
      return { id: db.id, max: db.autoscalingLimitMaxCu };
    };
    const scenario = (engine: Engine) => {
      declared.max = 2;
      return runOn(world, engine, program, {}, async (stack, t) => {
        t.command("first up", ok(await stack.up({ skipPreview: true })));
        await checkNoChange(stack, t, engine, "after first up");
        const id = await idOf(stack);

        declared.max = 4;
        const up = t.command("up", ok(await stack.up()));
        expect(up.requests).toEqual([]);
        expect(up.warnings).toEqual([]);
        expect(up.preview?.diagnostics.filter((d) => d.severity === "warning")).toEqual([]);
        expect(up.outputs).toEqual({ id, max: 2 });
        expect(await sizesOf(id)).toEqual([1, 2]);
        expect((await stateOf(stack, "db")).inputs.autoscalingLimitMaxCu).toBe(2);
        await checkNoChange(stack, t, engine, "after up");

        t.command("destroy", ok(await stack.destroy({ skipPreview: true })));
      });
    };
    const cli = await scenario("cli");
    expect(cli.entries["up: preview steps"]).toEqual(["same db"]);
    expect(cli.entries["up: steps"]).toEqual(["same db"]);
    const model = await scenario("model");
    console.log(JSON.stringify(compareWithModel(cli, model), null, 1));
  });
});
