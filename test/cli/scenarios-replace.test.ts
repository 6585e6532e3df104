/**
 * Replacements of a read replica that the engine decides without asking the provider's diff, through the real Pulumi
 * CLI: `pulumi up --replace` and a changed `replacementTrigger` (a move under a new parent:
 * scenarios-replace-parent.test.ts). The Compute class's default `deleteBeforeReplace` deletes the old compute first,
 * so the create meets no compute named for the resource (provider/compute/owner-tag.ts). Each
 * runs on the real CLI (asserted: steps, requests in order, what the service and the state hold, warnings, and the
 * no-change check after every `up`), then the same program on the model of the engine (`LocalStack`), whose
 * transcript must equal the CLI's. The primary's: scenarios-replace-primary.
 */
import { cliWorld, CliWorld, compareWithModel, Engine, computesOn, ok, stateIds, writes } from "./cli-world";
import { check, DELETE_BEFORE_CREATE, Declared, endpointsOf, firstUp, idOf, run } from "./scenarios-replace-program";

let world: CliWorld;
beforeAll(async () => {
  world = await cliWorld();
});
afterAll(() => world?.stop());

type Case = [label: string, change: (declared: Declared) => void, options: { replace?: string[] }, steps: string[]];

const cases: Case[] = [
  ["pulumi up --replace", () => undefined, { replace: ["db"] }, DELETE_BEFORE_CREATE],
  ["a new replacementTrigger", (declared) => (declared.opts = { replacementTrigger: "v2" }), {}, DELETE_BEFORE_CREATE],
];

describe("a replica (read_only) replaced by the engine, through the real CLI", () => {
  it.each(cases)(
    "%s: the old compute deleted, then a new one; the state points at the new one",
    async (_, change, options, steps) => {
      const branch = world.branches.staging;
      const scenario = (engine: Engine) => {
        const declared: Declared = { args: { type: "read_only" }, opts: { replacementTrigger: "v1" } };
        return run(world, engine, branch, declared, async (stack, t) => {
          const old = await firstUp(world, stack, t, engine);
          change(declared);
          const up = t.command("replace", ok(await stack.up(options)));
          const now = await idOf(stack);
          expect(now).not.toBe(old);
          expect(writes(up)).toEqual([`DELETE ${endpointsOf(world)}/${old}`, `POST ${endpointsOf(world)}`]);
          expect(await computesOn(world, branch)).toEqual([now]);
          expect(await stateIds(stack, "db")).toEqual([now]);
          expect(up.warnings).toEqual([]);
          expect(up.outputs).toEqual({ id: now });
          await check(stack, t, engine, "after replace");
        });
      };
      const cli = await scenario("cli");
      expect(cli.entries["replace: preview steps"]).toEqual(steps);
      expect(cli.entries["replace: steps"]).toEqual(steps);
      const model = await scenario("model");
      console.log(JSON.stringify(compareWithModel(cli, model), null, 1));
    },
  );
});
