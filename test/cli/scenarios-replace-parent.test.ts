/**
 * A compute moved under a ComponentResource without an alias, through the real Pulumi CLI. Its URN changes, so the
 * engine sees a new resource and an old one: it creates the new one while the old one still exists, then deletes the
 * old one (steps create and delete, no replacement), and `deleteBeforeReplace` does not reach that pair. The create
 * gets no old inputs and no diff, so to the provider the compute named for the resource is one the state forgot: it
 * takes it over, and the delete of the old URN in the same up leaves it (provider/compute/strays.ts), replica and
 * primary alike: the compute stays as it is, as with an alias. Each scenario runs on the real CLI (asserted), then on
 * the model (`LocalStack`), whose transcript must equal the CLI's.
 */
import { cliWorld, CliWorld, compareWithModel, computesOn, Engine, ok, stateIds, writes } from "./cli-world";
import { check, Declared, firstUp, idOf, run } from "./scenarios-replace-program";

let world: CliWorld;
beforeAll(async () => {
  world = await cliWorld();
});
afterAll(() => world?.stop());

describe("a compute moved under a ComponentResource without an alias, through the real CLI", () => {
  it.each([
    ["a replica", { type: "read_only" as const }, "staging"],
    ["a primary", {}, "dev"],
  ])(
    "%s: the create (new URN) takes the compute over, the delete (old URN) leaves it; the state points at it",
    async (_, args, branchName) => {
      const branch = world.branches[branchName];
      const scenario = (engine: Engine) => {
        const declared: Declared = { args, opts: {} };
        return run(world, engine, branch, declared, async (stack, t) => {
          const old = await firstUp(world, stack, t, engine);
          declared.parented = true;
          const up = t.command("reparent", ok(await stack.up()));
          expect(await idOf(stack)).toBe(old);
          expect(writes(up)).toEqual([]);
          expect(await computesOn(world, branch)).toEqual([old]);
          expect(await stateIds(stack, "db")).toEqual([old]);
          expect(up.warnings.join("\n")).toContain(`Compute "db" took over compute ${old} on branch ${branch}`);
          expect(up.warnings.join("\n")).toContain(`Compute "db" (${old}) was not deleted`);
          expect(up.outputs).toEqual({ id: old });
          await check(stack, t, engine, "after reparent");
        });
      };
      const cli = await scenario("cli");
      expect(cli.entries["reparent: preview steps"]).toEqual(["create db", "delete db"]);
      expect(cli.entries["reparent: steps"]).toEqual(["create db", "delete db"]);
      const model = await scenario("model");
      console.log(JSON.stringify(compareWithModel(cli, model), null, 1));
    },
  );
});
