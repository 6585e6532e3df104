/**
 * A compute moved under a ComponentResource without an alias, through the real Pulumi CLI. Its URN changes, so the
 * engine sees a new resource and an old one: it would create the new one while the old one still exists, then delete
 * the old one (steps create and delete, no replacement: `deleteBeforeReplace` does not reach that pair). The create
 * meets the old compute, named for the resource and held by no state the provider can see, and is refused before
 * anything is sent, replica or primary alike, with the advice to add an alias to the old place, which keeps the
 * compute as it is (provider/compute/owner-tag.ts). Each scenario runs on the real CLI (asserted), then on the model
 * (`LocalStack`), whose transcript must equal the CLI's.
 */
import * as pulumi from "@pulumi/pulumi";
import { cliWorld, CliWorld, compareWithModel, computesOn, Engine, ok, stateIds } from "./cli-world";
import { check, Declared, expectRefusedBeforeSending, firstUp, run } from "./scenarios-replace-program";

let world: CliWorld;
beforeAll(async () => {
  world = await cliWorld();
});
afterAll(() => world?.stop());

/** The advice for a move under a new parent (provider/compute/owner-tag.ts). */
const ALIAS_ADVICE = "if you moved this resource under a new parent, give it an alias to its old place";

describe("a compute moved under a ComponentResource without an alias, through the real CLI", () => {
  it.each([
    ["a replica", "staging", { type: "read_only" as const }],
    ["a primary", "dev", {}],
  ])(
    "%s: refused before anything is sent, with or without deleteBeforeReplace, saying to add an alias; the alias keeps the compute",
    async (_, branchName, args) => {
      const branch = world.branches[branchName as "staging" | "dev"];
      const scenario = (engine: Engine) => {
        const declared: Declared = { args, opts: {} };
        return run(world, engine, branch, declared, async (stack, t) => {
          const old = await firstUp(world, stack, t, engine);
          declared.parented = true;
          const refused = t.command("reparent", await stack.up());
          await expectRefusedBeforeSending(world, stack, refused, old, branch, ALIAS_ADVICE);

          // deleteBeforeReplace does not apply: the engine sees a new resource (create) and an old one (delete).
          declared.opts = { deleteBeforeReplace: true };
          const again = t.command("reparent with option", await stack.up({ skipPreview: true }));
          await expectRefusedBeforeSending(world, stack, again, old, branch, ALIAS_ADVICE);

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
    },
  );
});
