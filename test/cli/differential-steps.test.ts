/**
 * The differential suite, on the engine's step rules (pulumi/pulumi v3.248.0 pkg/resource/deploy/step_generator.go,
 * step.go, step_executor.go): programs of recording resources run through the local engine and the real CLI, each
 * command compared (differential-rules.ts says what). Each scenario's resources each pin a rule, named beside them;
 * testing/README.md ("How the model is checked") lists which scenario checks which rule.
 */
import * as pulumi from "@pulumi/pulumi";
import { CommandResult, Program } from "../../testing";
import { findPulumiCli } from "../../testing/cli";
import { Group, Recorder, RecorderArgs, RecorderUpgraded } from "../engine/recorder";
import {
  before,
  dependentKeys,
  Documented,
  Extra,
  protectedReplacement,
  rec,
  RulesOptions,
  RulesPair,
  RulesView,
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

const ops = (view: RulesView | { steps: string[] } | undefined, name: string) =>
  (view?.steps ?? []).filter((line) => line.startsWith(`${name}: `)).map((line) => line.split(" ")[1]);

describe("the local engine's step rules against the real Pulumi CLI", () => {
  it("Check, Diff and the step made of the answer; ignoreChanges, replaceOnChanges, replacementTrigger; preview outputs", async () => {
    let phase = 1;
    const at = <T>(...values: T[]): T => values[Math.min(phase, values.length) - 1];
    start(() => {
      // TestSingleResourceIgnoreChanges: Check(old inputs, new inputs with the ignored path reset); Diff(old outputs,
      // checked news) (TestOldCheckedInputsAreSent); an update's preview outputs are the new inputs, others unknown.
      const ign = rec("ign", { value: at("a", "b"), other: at("x", "y") }, at({}, { ignoreChanges: ["other"] }));
      // A replacement checks again with empty olds and the program's inputs (ignoreChanges not applied), in preview
      // too; the preview shows delete-replaced; a replacement's id is unknown in the preview.
      const rep = rec(
        "rep",
        { value: at("a", "b"), other: at("x", "y"), diffMode: "replace" },
        at({}, { ignoreChanges: ["other"] }),
      );
      // A same step records the new inputs (the next Check's olds) and keeps the old outputs.
      rec("same", { value: at("a", "b", "c"), diffMode: "none" });
      // TestAutomaticDiff: without a Diff answer the engine compares the inputs, __provider included.
      rec("auto", { value: "a", other: at(undefined, "new") as string, diffMode: "unknown" });
      const upgArgs = { value: "a", diffMode: "unknown", label: "upg" } as RecorderArgs;
      if (phase === 1) new Recorder("upg", upgArgs);
      else new RecorderUpgraded("upg", upgArgs);
      // TestReplaceOnChanges: acts on changed keys, which a dynamic provider's Diff never reports; without a Diff
      // answer the engine computes them, nested paths included.
      rec(
        "roc",
        { value: at("a", "b", "c"), diffMode: at(undefined, undefined, "unknown") },
        { replaceOnChanges: ["value"] },
      );
      const nested = { inner: at("x", "x", "y"), open: at("o", "p") };
      rec("nest", { value: "a", diffMode: "unknown", nested } as RecorderArgs, { replaceOnChanges: ["nested.inner"] });
      // TestReplacementTrigger: a first trigger does not replace, a changed one does without asking Diff; a secret
      // trigger compares by its value (TestReplacementTriggerWithSecret).
      rec("trig", { value: "a" }, at({}, { replacementTrigger: "v1" }, { replacementTrigger: "v2" }));
      const secretTrigger = at<pulumi.Input<string>>(
        pulumi.secret("t1"),
        pulumi.secret("t1"),
        "t1",
        pulumi.secret("t2"),
      );
      rec("strig", { value: "a" }, { replacementTrigger: secretTrigger });
      // TestReplacementTriggerWithComputed: a trigger unknown in the preview shows a replacement.
      const src = rec("src", { value: at("s1", "s2"), diffMode: "replace" });
      rec("ctrig", { value: "a" }, { replacementTrigger: at<pulumi.Input<string>>("x", src.out) });
      // properties_path.go Reset: a path inside a secret object is reset; a trailing wildcard removes new keys.
      const settings = pulumi.secret({ tier: at("gold", "silver"), size: "s" });
      rec("ignsec", { value: "a", settings } as RecorderArgs, { ignoreChanges: ["settings.tier"] });
      const wild = at<Record<string, string>>({ tier: "gold" }, { tier: "gold", extra: "x" });
      rec("wild", { value: "a", settings: wild } as RecorderArgs, { ignoreChanges: ["settings.*"] });
      return {
        ignId: ign.id,
        ignOut: ign.out,
        ignValue: ign.value,
        repId: rep.id,
        repOut: rep.out,
        repValue: rep.value,
      };
    });
    // TestProviderPreview: a create's preview outputs are its inputs, others and the id unknown; Create not called.
    await alike((stack) => stack.preview());
    expect(ops(await alike((stack) => stack.up({ skipPreview: true })), "ign")).toEqual(["create"]);
    phase = 2;
    expect(ops(await alike((stack) => stack.preview()), "rep")).toEqual([
      "create-replacement",
      "replace",
      "delete-replaced",
    ]);
    expect(ops(await alike((stack) => stack.up({ skipPreview: true })), "ctrig")).toEqual([
      "create-replacement",
      "replace",
      "delete-replaced",
    ]);
    phase = 3;
    expect(ops(await alike((stack) => stack.up({ skipPreview: true })), "roc")).toEqual([
      "create-replacement",
      "replace",
      "delete-replaced",
    ]);
    phase = 4;
    expect(ops(await alike((stack) => stack.up({ skipPreview: true })), "strig")).toEqual([
      "create-replacement",
      "replace",
      "delete-replaced",
    ]);
  });

  it("replacements: the deleteBeforeReplace option both ways, --replace, the dependents of a delete-before-replace", async () => {
    let phase = 1;
    const at = <T>(...values: T[]): T => values[Math.min(phase, values.length) - 1];
    start(() => {
      // TestExplicitDeleteBeforeReplace: the option overrides the provider's answer, both ways.
      rec("dbr", { value: at("a", "b", "c"), diffMode: at("replace-dbr", "replace-dbr", "replace") } as RecorderArgs, {
        deleteBeforeReplace: phase === 3,
      });
      // TestDeleteBeforeReplace: a dependent whose Diff, given unknowns, says replace is deleted first and recreated,
      // as one replacement blamed on its own keys (calculateDependentReplacements); a dependent the program drops is
      // deleted once (GenerateDeletes: NewRemovePendingReplaceStep).
      const base = rec("base", { value: at("a", "a", "a", "a", "b", "c"), diffMode: "replace-dbr" });
      if (phase < 6) rec("dependent", { value: base.out, diffMode: "replace" });
      rec("bystander", { value: "c", other: base.out, diffMode: "replace" });
    });
    await alike((stack) => stack.up({ skipPreview: true }));
    phase = 2;
    await alike((stack) => stack.up({ skipPreview: true }), before(["create dbr", "delete dbr"]));
    phase = 3;
    await alike((stack) => stack.up({ skipPreview: true }), before(["delete dbr", "create dbr"]));
    phase = 4;
    // up --replace: Check once with empty olds, no Diff, the replacement created while the old exists.
    const replaced = await alike(
      (stack) => stack.up({ replace: ["dbr"], skipPreview: true }),
      before(["create dbr", "delete dbr"]),
    );
    expect(ops(replaced, "dbr")).toEqual(["create-replacement", "replace", "delete-replaced"]);
    phase = 5;
    const order = before(["delete dependent", "delete base"]);
    const dependents = await alike((stack) => stack.up(), order, dependentKeys("dependent"));
    expect(ops(dependents, "dependent")).toEqual(["delete-replaced", "replace", "create-replacement"]);
    phase = 6;
    await alike((stack) => stack.up({ skipPreview: true }), before(["delete dependent", "delete base"]));
  });

  it("deletes: dependents first, replaced objects after every create; protect, retainOnDelete (inherited)", async () => {
    let phase = 1;
    start(() => {
      // ScheduleDeletes: dependents go first; a replaced object is deleted after every create and update.
      if (phase === 1) {
        const base = rec("base", { value: "a" });
        rec("dependent", { value: base.out });
      }
      rec("swap", { value: phase === 1 ? "s1" : "s2", diffMode: "replace" });
      if (phase >= 2) rec("fresh", { value: "f", delayMs: 200 });
      // TestProtect: neither deleted nor replaced; a protected delete does not stop the other deletes, only its
      // dependencies' (step_executor.go cancelDueToError: deleteProtectedError continues).
      const a = rec("a", { value: "a" });
      rec("guarded", { value: phase === 3 ? "g2" : "g", other: a.out, diffMode: "replace" }, { protect: true });
      rec("c", { value: "c" });
      // TestRetainOnDelete: dropped from the state without a Delete call; inherited from a parent (inheritFromParent).
      rec("retained", { value: "r" }, { retainOnDelete: true });
      const group = new Group("g", { retainOnDelete: true });
      rec("child", { value: "k" }, { parent: group });
    });
    await alike((stack) => stack.up({ skipPreview: true }));
    phase = 2;
    await alike(
      (stack) => stack.up({ skipPreview: true }),
      before(["delete dependent", "delete base"], ["create fresh", "delete swap"], ["create swap", "delete swap"]),
    );
    // The CLI's preview also shows the protected resource's delete-replaced step (testing/README.md).
    phase = 3;
    expect((await alike((stack) => stack.up(), undefined, protectedReplacement("guarded"))).failed).toBe(true);
    phase = 2;
    const destroy = await alike((stack) => stack.destroy({ skipPreview: true }));
    expect(destroy.failed).toBe(true);
  });

  it("URNs carry the parent's type chain; moved under a parent without an alias it is created anew, with one kept", async () => {
    let parented = false;
    let aliased = false;
    start(() => {
      const group = new Group("g");
      rec("child", { value: "a" }, { parent: group });
      const opts: pulumi.CustomResourceOptions = parented ? { parent: group } : {};
      if (aliased) opts.aliases = [{ parent: pulumi.rootStackResource }];
      rec("r", { value: "a" }, opts);
    });
    await alike((stack) => stack.up({ skipPreview: true }));
    parented = true;
    expect(ops(await alike((stack) => stack.up({ skipPreview: true })), "r")).toEqual(["create", "delete"]);
    parented = false;
    await alike((stack) => stack.up({ skipPreview: true }));
    parented = true;
    aliased = true;
    expect(ops(await alike((stack) => stack.up({ skipPreview: true })), "r")).toEqual(["same"]);
  });
});
