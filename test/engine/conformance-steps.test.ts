/**
 * Conformance of the local engine with the Pulumi engine (pulumi/pulumi v3.248.0, pkg/resource/deploy/
 * step_generator.go, step.go, sdk/go/common/resource/plugin/provider_plugin.go): how a registration becomes steps.
 * Each test names the engine behaviour it pins; where the engine's own lifecycle tests (pkg/engine/lifecycletest)
 * pin the same behaviour, the test is named after theirs.
 */
import * as pulumi from "@pulumi/pulumi";
import { Group, Recorder, RecorderArgs, RecorderUpgraded } from "./recorder";
import { RECORDER, recordedStack, Recorded } from "./recorded";

let recorded: Recorded;
afterEach(() => recorded?.cleanup());

/** One recorder `r` whose args and options the test changes between commands. */
function single(initial: RecorderArgs, opts: pulumi.CustomResourceOptions = {}) {
  const declared = { args: initial, opts };
  recorded = recordedStack(() => {
    const r = new Recorder("r", declared.args, declared.opts);
    return { id: r.id, out: r.out, value: r.value };
  });
  return declared;
}

const opsOf = (steps: { op: string; name: string }[], name = "r") =>
  steps.filter((s) => s.name === name).map((s) => s.op);

describe("Check (continueStepsFromImport, processIgnoreChanges)", () => {
  it("TestSingleResourceIgnoreChanges: Check gets the old inputs, and the new ones with ignored paths reset", async () => {
    const declared = single({ value: "a", other: "x" });
    await recorded.stack.up({ skipPreview: true });
    declared.args = { value: "b", other: "y" };
    declared.opts = { ignoreChanges: ["other"] };
    const mark = recorded.mark();
    const up = await recorded.stack.up();
    const [check] = recorded.callsOf("check", mark);
    expect(check.olds).toMatchObject({ value: "a", other: "x" });
    expect(check.news).toMatchObject({ value: "b", other: "x" });
    expect(opsOf(up.steps)).toEqual(["update"]);
    expect(recorded.callsOf("update", mark)[0].news).toMatchObject({ value: "b", other: "x" });
  });

  it("a replacement checks again with empty olds and the program's inputs (ignoreChanges not applied), in preview too", async () => {
    const declared = single({ value: "a", other: "x", diffMode: "replace" });
    await recorded.stack.up({ skipPreview: true });
    declared.args = { value: "b", other: "y", diffMode: "replace" };
    declared.opts = { ignoreChanges: ["other"] };
    const mark = recorded.mark();
    const preview = await recorded.stack.preview();
    // CreateStep.Apply marks the old object for deletion in a preview too: its delete-replaced step shows.
    expect(opsOf(preview.steps)).toEqual(["create-replacement", "replace", "delete-replaced"]);
    const checks = recorded.callsOf("check", mark);
    expect(checks).toHaveLength(2);
    expect(checks[0]).toMatchObject({ olds: { value: "a" }, news: { value: "b", other: "x" } });
    expect(checks[1].olds).toEqual({});
    expect(checks[1].news).toMatchObject({ value: "b", other: "y" });
  });
});

describe("Diff, same and update (diffResource, SameStep, UpdateStep)", () => {
  it("TestOldCheckedInputsAreSent: Diff gets the old outputs as olds and the checked new inputs", async () => {
    const declared = single({ value: "a" });
    await recorded.stack.up({ skipPreview: true });
    declared.args = { value: "b" };
    const mark = recorded.mark();
    await recorded.stack.up({ skipPreview: true });
    const [diff] = recorded.callsOf("diff", mark);
    expect(diff.olds).toMatchObject({ value: "a", out: "out-a" });
    expect(diff.news).toMatchObject({ value: "b" });
    expect(diff.news.out).toBeUndefined();
  });

  it("a same step records the new inputs and keeps the old outputs", async () => {
    const declared = single({ value: "a", diffMode: "none" });
    await recorded.stack.up({ skipPreview: true });
    declared.args = { value: "b", diffMode: "none" };
    const up = await recorded.stack.up();
    expect(opsOf(up.steps)).toEqual(["same"]);
    const state = recorded.stack.state.resources.find((r) => r.type === RECORDER);
    expect(state?.inputs).toMatchObject({ value: "b" });
    expect(state?.outputs).toMatchObject({ value: "a", out: "out-a" });
  });

  it("TestAutomaticDiff: without an answer (DIFF_UNKNOWN) the engine compares the inputs, __provider included", async () => {
    const declared = single({ value: "a", diffMode: "unknown" });
    await recorded.stack.up({ skipPreview: true });
    const same = await recorded.stack.up();
    expect(opsOf(same.steps)).toEqual(["same"]);
    declared.args = { value: "a", other: "new", diffMode: "unknown" };
    const changed = await recorded.stack.up();
    expect(opsOf(changed.steps)).toEqual(["update"]);
  });

  it("TestAutomaticDiff: a new __provider alone is a change when the provider gives no answer", async () => {
    let upgraded = false;
    recorded = recordedStack(() => {
      const args: RecorderArgs = { value: "a", diffMode: "unknown" };
      return (upgraded ? new RecorderUpgraded("r", args) : new Recorder("r", args)).out;
    });
    await recorded.stack.up({ skipPreview: true });
    upgraded = true;
    expect(opsOf((await recorded.stack.up({ skipPreview: true })).steps)).toEqual(["update"]);
  });
});

describe("preview outputs (provider_plugin.go Create/Update with req.Preview: the plugin supports no previews)", () => {
  it("TestProviderPreview: a create's outputs are its inputs; others and the id are unknown; nothing is called", async () => {
    single({ value: "a" });
    const mark = recorded.mark();
    const preview = await recorded.stack.preview();
    expect(preview.outputs).toEqual({ id: "[unknown]", out: "[unknown]", value: "a" });
    expect(recorded.callsOf("create", mark)).toEqual([]);
  });

  it("an update's outputs are the new inputs (others unknown); a replacement's id is unknown", async () => {
    const declared = single({ value: "a", diffMode: "replace" });
    const up = await recorded.stack.up();
    declared.args = { value: "a", other: "o", diffMode: "replace" };
    const update = await recorded.stack.preview();
    expect(update.outputs).toEqual({ id: up.outputs.id, out: "[unknown]", value: "a" });
    declared.args = { value: "b", diffMode: "replace" };
    const replace = await recorded.stack.preview();
    expect(replace.outputs).toEqual({ id: "[unknown]", out: "[unknown]", value: "b" });
  });
});

describe("replacements (continueStepsFromDiff)", () => {
  it("TestExplicitDeleteBeforeReplace: the deleteBeforeReplace option overrides the provider, both ways", async () => {
    const declared = single({ value: "a", diffMode: "replace-dbr" }, { deleteBeforeReplace: false });
    await recorded.stack.up({ skipPreview: true });
    declared.args = { value: "b", diffMode: "replace-dbr" };
    let mark = recorded.mark();
    await recorded.stack.up({ skipPreview: true });
    expect(
      recorded
        .calls(mark)
        .map((c) => c.method)
        .filter((m) => m === "create" || m === "delete"),
    ).toEqual(["create", "delete"]);
    declared.args = { value: "c", diffMode: "replace" };
    declared.opts = { deleteBeforeReplace: true };
    mark = recorded.mark();
    await recorded.stack.up({ skipPreview: true });
    expect(
      recorded
        .calls(mark)
        .map((c) => c.method)
        .filter((m) => m === "create" || m === "delete"),
    ).toEqual(["delete", "create"]);
  });

  it("TestReplaceOnChanges: replaceOnChanges acts on changed keys, which a dynamic provider's Diff never reports", async () => {
    const declared = single({ value: "a" }, { replaceOnChanges: ["value"] });
    await recorded.stack.up({ skipPreview: true });
    declared.args = { value: "b" };
    expect(opsOf((await recorded.stack.up()).steps)).toEqual(["update"]);
    // Only when the provider gives no answer does the engine compute changed keys, and then the option acts.
    declared.args = { value: "c", diffMode: "unknown" };
    expect(opsOf((await recorded.stack.up()).steps)).toEqual(["create-replacement", "replace", "delete-replaced"]);
  });

  it("TestReplaceOnChanges (nested path): without a Diff answer, a change under a nested replaceOnChanges path replaces (the engine's detailed diff, DiffResult.Replace)", async () => {
    const declared = single({ value: "a", diffMode: "unknown", nested: { inner: "x", open: "o" } } as RecorderArgs, {
      replaceOnChanges: ["nested.inner"],
    });
    await recorded.stack.up({ skipPreview: true });
    declared.args = { value: "a", diffMode: "unknown", nested: { inner: "x", open: "p" } } as RecorderArgs;
    expect(opsOf((await recorded.stack.up({ skipPreview: true })).steps)).toEqual(["update"]);
    declared.args = { value: "a", diffMode: "unknown", nested: { inner: "y", open: "p" } } as RecorderArgs;
    const up = await recorded.stack.up({ skipPreview: true });
    expect(opsOf(up.steps)).toEqual(["create-replacement", "replace", "delete-replaced"]);
  });

  it("up --replace: Check once with empty olds, no Diff, the replacement created while the old exists, then deleted", async () => {
    single({ value: "a" });
    await recorded.stack.up({ skipPreview: true });
    const mark = recorded.mark();
    const up = await recorded.stack.up({ replace: ["r"], skipPreview: true });
    expect(opsOf(up.steps)).toEqual(["create-replacement", "replace", "delete-replaced"]);
    expect(up.steps.find((s) => s.op === "replace")?.keys).toEqual(["id"]);
    const calls = recorded.calls(mark).filter((c) => c.method !== "configure" && !c.method.endsWith("ed"));
    expect(calls.map((c) => c.method)).toEqual(["check", "create", "delete"]);
    expect(calls[0].olds).toEqual({});
  });

  it("TestReplacementTrigger: a changed trigger replaces without asking Diff; a first trigger does not", async () => {
    const declared = single({ value: "a" });
    await recorded.stack.up({ skipPreview: true });
    declared.opts = { replacementTrigger: "v1" };
    expect(opsOf((await recorded.stack.up()).steps)).toEqual(["same"]);
    declared.opts = { replacementTrigger: "v2" };
    const mark = recorded.mark();
    const up = await recorded.stack.up({ skipPreview: true });
    expect(opsOf(up.steps)).toEqual(["create-replacement", "replace", "delete-replaced"]);
    expect(recorded.callsOf("diff", mark)).toEqual([]);
    expect(recorded.callsOf("check", mark).map((c) => c.olds)).toEqual([
      { value: "a", __provider: expect.any(String) },
      {},
    ]);
  });

  it("TestReplacementTriggerWithSecret: a secret trigger compares by its value", async () => {
    const declared = single({ value: "a" }, { replacementTrigger: pulumi.secret("t1") });
    await recorded.stack.up({ skipPreview: true });
    declared.opts = { replacementTrigger: pulumi.secret("t1") };
    expect(opsOf((await recorded.stack.up({ skipPreview: true })).steps)).toEqual(["same"]);
    declared.opts = { replacementTrigger: "t1" }; // the same value, no longer secret
    expect(opsOf((await recorded.stack.up({ skipPreview: true })).steps)).toEqual(["same"]);
    declared.opts = { replacementTrigger: pulumi.secret("t2") };
    expect(opsOf((await recorded.stack.up({ skipPreview: true })).steps)).toEqual([
      "create-replacement",
      "replace",
      "delete-replaced",
    ]);
  });

  it("TestReplacementTriggerWithComputed: a trigger unknown in the preview shows a replacement", async () => {
    let withTrigger = false;
    recorded = recordedStack(() => {
      const source = new Recorder("source", { value: withTrigger ? "s2" : "s1", diffMode: "replace" });
      new Recorder("r", { value: "a" }, withTrigger ? { replacementTrigger: source.out } : { replacementTrigger: "x" });
    });
    await recorded.stack.up({ skipPreview: true });
    withTrigger = true;
    const preview = await recorded.stack.preview();
    expect(opsOf(preview.steps)).toEqual(["create-replacement", "replace", "delete-replaced"]);
  });
});

describe("URNs and parents (deployment.go generateURN, getOldResource)", () => {
  it("a URN carries the parent's type chain; the root stack adds none", async () => {
    recorded = recordedStack(() => {
      const group = new Group("g");
      new Recorder("child", { value: "a" }, { parent: group });
      new Recorder("top", { value: "a" });
    });
    await recorded.stack.up({ skipPreview: true });
    const urns = recorded.stack.state.resources.map((r) => r.urn);
    expect(urns).toContain(recorded.urn("child", "test:index:Group"));
    expect(urns).toContain(recorded.urn("top"));
  });

  it("TestParentAlias: moved under a parent without an alias, it is created anew and the old one deleted; with one, kept", async () => {
    let parented = false;
    let aliased = false;
    recorded = recordedStack(() => {
      const group = new Group("g");
      const opts: pulumi.CustomResourceOptions = parented ? { parent: group } : {};
      if (aliased) opts.aliases = [{ parent: pulumi.rootStackResource }];
      new Recorder("r", { value: "a" }, opts);
    });
    await recorded.stack.up({ skipPreview: true });
    parented = true;
    const mark = recorded.mark();
    const moved = await recorded.stack.up({ skipPreview: true });
    expect(moved.steps.filter((s) => s.name === "r").map((s) => s.op)).toEqual(["create", "delete"]);
    expect(
      recorded
        .calls(mark)
        .map((c) => c.method)
        .filter((m) => m === "create" || m === "delete"),
    ).toEqual(["create", "delete"]);
    parented = false;
    await recorded.stack.up({ skipPreview: true });
    parented = true;
    aliased = true;
    expect((await recorded.stack.up()).steps.filter((s) => s.name === "r").map((s) => s.op)).toEqual(["same"]);
  });
});
