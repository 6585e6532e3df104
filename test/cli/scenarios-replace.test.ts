/**
 * Replacements of a read replica that the engine decides without asking the provider's diff, through the real Pulumi
 * CLI: `pulumi up --replace` and a changed `replacementTrigger` (a move under a new parent:
 * scenarios-replace-parent.test.ts). Each
 * runs on the real CLI (asserted: steps, requests in order, what the service and the state hold, warnings, and the
 * no-change check after every `up`), then the same program on the model of the engine (`LocalStack`), whose
 * transcript must equal the CLI's. The primary's: scenarios-replace-primary. A new `replacementTrigger` makes a new
 * compute (the engine checks the old inputs first: the provider knows the state holds the resource); `--replace` gives
 * the provider no such sign, so its create takes the compute over and the old state's delete leaves it
 * (provider/compute/strays.ts).
 */
import { cliWorld, CliWorld, compareWithModel, Engine, computesOn, ok, stateIds, writes } from "./cli-world";
import { check, CREATE_BEFORE_DELETE, Declared, endpointsOf, firstUp, idOf, run } from "./scenarios-replace-program";

let world: CliWorld;
beforeAll(async () => {
  world = await cliWorld();
});
afterAll(() => world?.stop());

type Outcome = "the compute kept (taken over, not deleted)" | "a new compute, then the old one deleted";
type Case = [label: string, change: (declared: Declared) => void, options: { replace?: string[] }, outcome: Outcome];

const cases: Case[] = [
  ["pulumi up --replace", () => undefined, { replace: ["db"] }, "the compute kept (taken over, not deleted)"],
  [
    "a new replacementTrigger",
    (declared) => (declared.opts = { replacementTrigger: "v2" }),
    {},
    "a new compute, then the old one deleted",
  ],
];

describe("a replica (read_only) replaced by the engine, through the real CLI", () => {
  it.each(cases)("%s: %s; the state points at the one on the service", async (_, change, options, outcome) => {
    const branch = world.branches.staging;
    const scenario = (engine: Engine) => {
      const declared: Declared = { args: { type: "read_only" }, opts: { replacementTrigger: "v1" } };
      return run(world, engine, branch, declared, async (stack, t) => {
        const old = await firstUp(world, stack, t, engine);
        change(declared);
        const up = t.command("replace", ok(await stack.up(options)));
        const now = await idOf(stack);
        if (outcome === "a new compute, then the old one deleted") {
          expect(now).not.toBe(old);
          expect(writes(up)).toEqual([`POST ${endpointsOf(world)}`, `DELETE ${endpointsOf(world)}/${old}`]);
          expect(up.warnings).toEqual([]);
        } else {
          expect(now).toBe(old);
          expect(writes(up)).toEqual([]);
          expect(up.warnings.join("\n")).toContain(`Compute "db" took over compute ${old} on branch ${branch}`);
          expect(up.warnings.join("\n")).toContain(`Compute "db" (${old}) was not deleted`);
        }
        expect(await computesOn(world, branch)).toEqual([now]);
        expect(await stateIds(stack, "db")).toEqual([now]);
        expect(up.outputs).toEqual({ id: now });
        await check(stack, t, engine, "after replace");
      });
    };
    const cli = await scenario("cli");
    expect(cli.entries["replace: preview steps"]).toEqual(CREATE_BEFORE_DELETE);
    expect(cli.entries["replace: steps"]).toEqual(CREATE_BEFORE_DELETE);
    const model = await scenario("model");
    console.log(JSON.stringify(compareWithModel(cli, model), null, 1));
  });
});
