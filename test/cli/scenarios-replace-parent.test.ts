/**
 * A compute moved under a ComponentResource without an alias, through the real Pulumi CLI. Its URN changes, so the
 * engine sees a new resource and an old one: it creates the new one while the old one still exists, then deletes the
 * old one (steps create and delete, no replacement), and `deleteBeforeReplace` does not reach that pair. A replica
 * moves fine (a new compute, the old deleted). A primary cannot share its branch: the create is refused (409), with or
 * without the option, and the provider's error says to add an alias to the old place, which keeps the compute as it
 * is. Each scenario runs on the real CLI (asserted), then on the model (`LocalStack`), whose transcript must equal
 * the CLI's.
 */
import * as pulumi from "@pulumi/pulumi";
import { cliWorld, CliWorld, compareWithModel, computesOn, Engine, ok, stateIds, writes } from "./cli-world";
import {
  check,
  Declared,
  endpointsOf,
  expectConflictNamed,
  expectNothingLost,
  firstUp,
  idOf,
  run,
} from "./scenarios-replace-program";

let world: CliWorld;
beforeAll(async () => {
  world = await cliWorld();
});
afterAll(() => world?.stop());

/** The advice for a move under a new parent (provider/compute/refusal.ts taggedRemedy). */
const ALIAS_ADVICE = "give the resource an alias to that place (aliases: [{ parent: <the old parent> }]";

describe("a compute moved under a ComponentResource without an alias, through the real CLI", () => {
  it("a replica: a new compute (create), then the old one deleted (delete); the state points at the new one", async () => {
    const branch = world.branches.staging;
    const scenario = (engine: Engine) => {
      const declared: Declared = { args: { type: "read_only" }, opts: {} };
      return run(world, engine, branch, declared, async (stack, t) => {
        const old = await firstUp(world, stack, t, engine);
        declared.parented = true;
        const up = t.command("reparent", ok(await stack.up()));
        const now = await idOf(stack);
        expect(now).not.toBe(old);
        expect(writes(up)).toEqual([`POST ${endpointsOf(world)}`, `DELETE ${endpointsOf(world)}/${old}`]);
        expect(await computesOn(world, branch)).toEqual([now]);
        expect(await stateIds(stack, "db")).toEqual([now]);
        // A new URN's create gets no old inputs: it names the old compute among those named for the resource.
        expect(up.warnings).toEqual([expect.stringContaining(`${old} (pulumi-`)]);
        expect(up.outputs).toEqual({ id: now });
        await check(stack, t, engine, "after reparent");
      });
    };
    const cli = await scenario("cli");
    expect(cli.entries["reparent: preview steps"]).toEqual(["create db", "delete db"]);
    expect(cli.entries["reparent: steps"]).toEqual(["create db", "delete db"]);
    const model = await scenario("model");
    console.log(JSON.stringify(compareWithModel(cli, model), null, 1));
  });

  it("a primary: a 409 with or without deleteBeforeReplace (a new URN, not a replacement), saying to add an alias; the alias keeps the compute", async () => {
    const branch = world.branches.dev;
    const scenario = (engine: Engine) => {
      const declared: Declared = { args: {}, opts: {} };
      return run(world, engine, branch, declared, async (stack, t) => {
        const old = await firstUp(world, stack, t, engine);
        declared.parented = true;
        const refused = t.command("reparent", await stack.up());
        expectConflictNamed(refused.error?.message, branch, old, ALIAS_ADVICE);
        await expectNothingLost(world, stack, refused, old, branch);

        // deleteBeforeReplace does not apply: the engine sees a new resource (create) and an old one (delete).
        declared.opts = { deleteBeforeReplace: true };
        const again = t.command("reparent with option", await stack.up({ skipPreview: true }));
        expectConflictNamed(again.error?.message, branch, old, ALIAS_ADVICE);
        await expectNothingLost(world, stack, again, old, branch);

        // The advice: an alias to the old place. The compute stays; nothing is sent.
        declared.opts = { aliases: [{ parent: pulumi.rootStackResource }] };
        const aliased = t.command("aliased", ok(await stack.up()));
        expect(aliased.requests).toEqual([]);
        expect(await computesOn(world, branch)).toEqual([old]);
        expect(await stateIds(stack, "db")).toEqual([old]);
        await check(stack, t, engine, "after alias");
      });
    };
    const cli = await scenario("cli");
    expect(cli.entries["reparent: preview steps"]).toEqual(["create db", "delete db"]);
    expect(cli.entries["reparent: steps"]).toEqual(["create db"]);
    expect(cli.entries["reparent: failed"]).toEqual(["create db"]);
    expect(cli.entries["reparent with option: steps"]).toEqual(["create db"]);
    expect(cli.entries["aliased: steps"]).toEqual(["same db"]);
    const model = await scenario("model");
    console.log(JSON.stringify(compareWithModel(cli, model), null, 1));
  });
});
