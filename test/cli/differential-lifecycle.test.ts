/**
 * The differential suite, on the engine's lifecycle rules (pulumi/pulumi v3.248.0): failures, refresh, secrets,
 * scheduling, plugin processes and their configuration. Programs of recording resources run through the local engine
 * and the real CLI, each command compared (differential-rules.ts says what); testing/README.md ("How the model is
 * checked") lists which scenario checks which rule.
 */
import * as pulumi from "@pulumi/pulumi";
import { CommandResult, Program } from "../../testing";
import { findPulumiCli } from "../../testing/cli";
import { EmptyId, SlowRead } from "../engine/fixtures";
import { RecorderArgs } from "../engine/recorder";
import {
  before,
  dependentKeys,
  Documented,
  Extra,
  initErrorUpdateDiffs,
  initErrorWording,
  overlap,
  rec,
  RulesOptions,
  RulesPair,
  secretDiffs,
} from "./differential-rules";

const cliRoot = findPulumiCli();
let pair: RulesPair | undefined;
afterEach(async () => {
  await pair?.close();
  pair = undefined;
});

function start(program: Program, options: RulesOptions = {}): RulesPair {
  if (!cliRoot) throw new Error("no Pulumi CLI: run `npm run pulumi:install` (it builds .pulumi-cli/bin/pulumi)");
  pair = new RulesPair(program, options, cliRoot);
  return pair;
}

/** The command on both engines: the CLI's view must be the model's. Returns the model's, to check the scenario ran. */
async function alike(
  command: (stack: RulesPair["model"]["stack"]) => Promise<CommandResult>,
  extra?: Extra,
  ...documented: Documented[]
) {
  const [local, real] = await (pair as RulesPair).both(command, extra, documented);
  expect(real).toEqual(local);
  return local;
}

/** Which of the texts the exported state (every secret encrypted) shows in plain. */
const inExport =
  (...texts: string[]): Extra =>
  (side) =>
    texts.filter((text) => side.stack.exportState().includes(text));

describe("the local engine's lifecycle rules against the real Pulumi CLI", () => {
  it("failures: a failed replacement, init errors on create and update, a pending replacement, an empty id", async () => {
    const args: Record<string, RecorderArgs> = {
      cbd: { value: "a", diffMode: "replace" },
      part: { value: "a" },
      pending: { value: "a", diffMode: "replace-dbr" },
      removed: { value: "x" },
    };
    let empty = false;
    start(() => {
      const outputs: Record<string, pulumi.Output<string>> = {};
      for (const [name, declared] of Object.entries(args)) outputs[name] = rec(name, declared).out;
      if (empty) new EmptyId("empty", { value: "e", label: "empty" } as { value: string });
      return outputs; // a failed up keeps the stack outputs the last up saved
    });
    await alike((stack) => stack.up());
    // step.go CreateStep: a failed create-before-delete replacement keeps the old object; the engine's "update failed";
    // after a failed step the deletes do not run (`removed` stays).
    args.cbd = { value: "b", diffMode: "replace", fail: "error" };
    delete args.removed;
    expect((await alike((stack) => stack.up())).failed).toBe(true);
    args.cbd = { value: "a", diffMode: "replace" };
    // update.go OnResourceStepPost: a partially failed update keeps the old inputs with the new outputs and reasons.
    // (A delay, so that every registration has reached the step generator when it fails: which ones did is a race in
    // the CLI, testing/README.md.)
    args.part = { value: "b", fail: "init", delayMs: 500 };
    await alike((stack) => stack.up(), undefined, initErrorWording);
    // TestInitErrorsStep: a create that made the object but failed is kept with its init errors; the next up updates.
    args.part = { value: "b" };
    args.init = { value: "i", fail: "init", delayMs: 500 };
    await alike((stack) => stack.up(), undefined, initErrorWording, initErrorUpdateDiffs("part"));
    args.init = { value: "i" };
    await alike((stack) => stack.up(), undefined, initErrorUpdateDiffs("init"));
    // provider_plugin.go Create: an empty id fails the step.
    empty = true;
    await alike((stack) => stack.up({ skipPreview: true }));
    empty = false;
    // checkTargets: --replace of a URN not in the stack fails the command before the program runs.
    await alike((stack) => stack.up({ replace: [stack.urnOf("cbd").replace(/::cbd$/, "::nope")], skipPreview: true }));
    // A failed delete-before-create leaves the old pending replacement; destroy drops it without a second Delete.
    args.pending = { value: "b", diffMode: "replace-dbr", fail: "error" };
    await alike((stack) => stack.up());
    await alike((stack) => stack.destroy({ skipPreview: true }));
  });

  it("refresh: Read's arguments and answers, the Diff after it, a resource gone, the state's order kept", async () => {
    let phase = 1;
    start(() => {
      // TestRefreshBasics: Read(id, old outputs, old inputs); Read's inputs replace the stored ones; then Diff.
      rec("inputs", { value: "a", drift: "z", readInputs: true });
      // TestRefreshPreservesInputsWhenReadReturnsNoInputs; TestRefreshWithDelete (gone: recorded by the second up).
      rec("kept", { value: "a", drift: "z", gone: phase === 2 });
      // diffResource for DIFF_UNKNOWN: nothing drifted refreshes as same.
      rec("unknown", { value: "a", diffMode: "unknown" });
      // rebuildBaseState: after Reads that finish in reverse order, a delete-before-replace deletes dependents first.
      const slow = (name: string, args: { value: pulumi.Input<string>; readDelayMs?: number; dbr?: boolean }) =>
        new SlowRead(name, { ...args, label: name } as typeof args);
      const a = slow("sa", { value: phase === 1 ? "a" : "a2", readDelayMs: 600, dbr: true });
      const b = slow("sb", { value: a.out, readDelayMs: 300 });
      slow("sc", { value: b.out });
    });
    await alike((stack) => stack.up({ skipPreview: true }));
    await alike((stack) => stack.refresh());
    phase = 2;
    const order = before(["delete sc", "delete sb"], ["delete sb", "delete sa"]);
    await alike((stack) => stack.up(), order, dependentKeys("sb", "sc"));
    await alike((stack) => stack.refresh({ skipPreview: true }));
  });

  it("secrets: plain values in every call, re-marked after; additionalSecretOutputs, on a same step too", async () => {
    let phase = 1;
    start(() => {
      const value = phase === 1 ? "one" : "two";
      const r = rec(
        "r",
        {
          value,
          other: pulumi.secret(`s3cr3t-${value}`),
          nested: { inner: pulumi.secret("1nn3r"), open: "o" },
        } as never,
        { additionalSecretOutputs: ["out"] },
      );
      const own = r as unknown as Record<string, pulumi.Output<unknown>>;
      const same = rec(
        "same",
        { value: "a", diffMode: "compare" },
        phase === 1 ? {} : { additionalSecretOutputs: ["out"] },
      );
      return { value: r.value, out: r.out, other: own.other, nested: own.nested, sameOut: same.out };
    });
    await alike((stack) => stack.up(), inExport("s3cr3t", "1nn3r", "out-a"));
    phase = 2;
    await alike((stack) => stack.up(), inExport("s3cr3t", "1nn3r", "out-a"), secretDiffs("r", "other"));
    await alike((stack) => stack.refresh({ skipPreview: true }), inExport("s3cr3t", "1nn3r", "out-a"));
    await alike((stack) => stack.destroy({ skipPreview: true }));
  });

  it("scheduling: Check one registration at a time, creates up to --parallel at once", async () => {
    start(() => ["a", "b", "c", "d", "e"].map((v) => rec(v, { value: v, checkDelayMs: 50, delayMs: 300 })), {
      parallel: 2,
    });
    await alike((stack) => stack.up({ skipPreview: true }), overlap);
  });

  it("a failure elsewhere stops a delete-before-replace chain between its delete and its create", async () => {
    let phase = 1;
    start(
      () => {
        rec("swap", { value: phase === 1 ? "s1" : "s2", diffMode: "replace-dbr", delayMs: 1500 });
        if (phase === 2) rec("bad", { value: "x", fail: "error", delayMs: 100 });
      },
      { parallel: 4 },
    );
    await alike((stack) => stack.up({ skipPreview: true }));
    phase = 2;
    await alike((stack) => stack.up({ skipPreview: true }));
  });

  it("plugin processes and their configuration: per command, from the state for refresh and destroy", async () => {
    let keep = true;
    const config = {
      "neon:apiKey": { secret: "neon-key" },
      "aws:region": "eu-west-1",
      apiKey: "the-program's-own-key",
      "app:settings": { tier: "gold" },
      "pulumi-nodejs:flag": "on",
    };
    let value = "a";
    start(() => (keep ? rec("r", { value }).out : undefined), { config, project: "shop" });
    // newDeployment: a plugin per deployment; GetPackageConfig: the whole config; host.go: PULUMI_CONFIG.
    await alike((stack) => stack.up());
    value = "b";
    await alike((stack) => stack.up());
    // registry.go Same: refresh and destroy are configured from the configuration the last up stored.
    pair?.setConfig({ "neon:apiKey": { secret: "rotated-key" } });
    await alike((stack) => stack.refresh());
    // DiffConfig unimplemented: a config change updates the default provider in place, its resources same.
    const refs = new Map<string, string | undefined>();
    for (const side of [pair?.model, pair?.cli])
      refs.set(side?.engine ?? "", side?.stack.state.resources.find((r) => r.urn.endsWith("::r"))?.provider);
    const provider: Extra = (side, result) => ({
      steps: result.steps.filter((s) => s.type.startsWith("pulumi:providers:") && s.op === "update").length,
      ref: side.stack.state.resources.find((r) => r.urn.endsWith("::r"))?.provider === refs.get(side.engine),
    });
    await alike((stack) => stack.up(), provider);
    // destroyMode: destroy --run-program configures the provider with the current configuration.
    pair?.setConfig({ "neon:apiKey": { secret: "rotated-again" } });
    await alike((stack) => stack.destroy({ runProgram: true }));
    // EnsureProvider: an up that removes every resource deletes with the configuration in state.
    await alike((stack) => stack.up({ skipPreview: true }));
    pair?.setConfig({ "neon:apiKey": { secret: "last-key" } });
    keep = false;
    await alike((stack) => stack.up({ skipPreview: true }));
  });
});
