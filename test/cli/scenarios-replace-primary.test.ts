/**
 * Replacements of a primary (read_write) compute that the engine decides without asking the provider's diff, through
 * the real Pulumi CLI. A branch holds one primary; the Compute class's default `deleteBeforeReplace` deletes the old
 * one first, so `--replace` and a changed `replacementTrigger` are clean. A program that sets `deleteBeforeReplace:
 * false` is refused, nothing lost: `--replace` (no old inputs reach the provider) before anything is sent, naming the
 * compute (provider/compute/owner-tag.ts); a new trigger (its Check gets the old inputs) by the branch's 409, explained.
 * Each scenario runs on the real CLI, then on the model (`LocalStack`), whose transcript must equal the CLI's. A move
 * under a new parent: scenarios-replace-parent.test.ts.
 */
import { cliWorld, CliWorld, compareWithModel, Engine, computesOn, ok, stateIds, writes } from "./cli-world";
import {
  check,
  CREATE_BEFORE_DELETE,
  Declared,
  DELETE_BEFORE_CREATE,
  endpointsOf,
  expectConflictNamed,
  expectNothingLost,
  expectRefusedBeforeSending,
  firstUp,
  idOf,
  run,
} from "./scenarios-replace-program";

let world: CliWorld;
beforeAll(async () => {
  world = await cliWorld();
});
afterAll(() => world?.stop());

describe("a primary (read_write) replaced by the engine, through the real CLI", () => {
  it("pulumi up --replace: with deleteBeforeReplace: false refused before anything is sent, naming the compute, nothing lost; by default replaced cleanly", async () => {
    const branch = world.branches.dev;
    const scenario = (engine: Engine) => {
      const declared: Declared = { args: {}, opts: { deleteBeforeReplace: false } };
      return run(world, engine, branch, declared, async (stack, t) => {
        const old = await firstUp(world, stack, t, engine);
        const refused = t.command("replace", await stack.up({ replace: ["db"] }));
        await expectRefusedBeforeSending(world, stack, refused, old, branch, "set deleteBeforeReplace: true");
        expect(refused.outputs).toEqual({ id: old });
        await check(stack, t, engine, "after refused replace");

        declared.opts = {};
        const up = t.command("replace by default", ok(await stack.up({ replace: ["db"] })));
        const now = await idOf(stack);
        expect(writes(up)).toEqual([`DELETE ${endpointsOf(world)}/${old}`, `POST ${endpointsOf(world)}`]);
        expect(await computesOn(world, branch)).toEqual([now]);
        expect(await stateIds(stack, "db")).toEqual([now]);
        expect(up.outputs).toEqual({ id: now });
        await check(stack, t, engine, "after replace by default");
      });
    };
    const cli = await scenario("cli");
    expect(cli.entries["replace: preview steps"]).toEqual(CREATE_BEFORE_DELETE);
    expect(cli.entries["replace: steps"]).toEqual(["create-replacement db"]);
    expect(cli.entries["replace: failed"]).toEqual(["create-replacement db"]);
    expect(cli.entries["replace by default: preview steps"]).toEqual(DELETE_BEFORE_CREATE);
    expect(cli.entries["replace by default: steps"]).toEqual(DELETE_BEFORE_CREATE);
    const model = await scenario("model");
    console.log(JSON.stringify(compareWithModel(cli, model), null, 1));
  });

  it("a new replacementTrigger: with deleteBeforeReplace: false the branch's 409, explained, the old kept; by default replaced cleanly", async () => {
    const branch = world.branches.dev;
    const scenario = (engine: Engine) => {
      const declared: Declared = { args: {}, opts: { replacementTrigger: "v1", deleteBeforeReplace: false } };
      return run(world, engine, branch, declared, async (stack, t) => {
        const old = await firstUp(world, stack, t, engine);
        declared.opts = { replacementTrigger: "v2", deleteBeforeReplace: false };
        const refused = t.command("replace", await stack.up());
        expectConflictNamed(refused.error?.message, branch, old, "If the resource sets deleteBeforeReplace: false");
        await expectNothingLost(world, stack, refused, old, branch, false);
        // The state keeps trigger v1: the program still asks for the replacement; a preview sends nothing.
        const still = t.command("preview after refusal", ok(await stack.preview()));
        expect(still.requests).toEqual([]);

        declared.opts = { replacementTrigger: "v2" };
        const up = t.command("replace by default", ok(await stack.up()));
        const now = await idOf(stack);
        expect(writes(up)).toEqual([`DELETE ${endpointsOf(world)}/${old}`, `POST ${endpointsOf(world)}`]);
        expect(await computesOn(world, branch)).toEqual([now]);
        expect(await stateIds(stack, "db")).toEqual([now]);
        await check(stack, t, engine, "after replace by default");
      });
    };
    const cli = await scenario("cli");
    expect(cli.entries["replace: steps"]).toEqual(["create-replacement db"]);
    expect(cli.entries["preview after refusal: steps"]).toEqual(CREATE_BEFORE_DELETE);
    expect(cli.entries["replace by default: steps"]).toEqual(DELETE_BEFORE_CREATE);
    const model = await scenario("model");
    console.log(JSON.stringify(compareWithModel(cli, model), null, 1));
  });
});
