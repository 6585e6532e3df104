/**
 * Conformance of the local engine with the Pulumi engine (pulumi/pulumi v3.248.0): refresh, failures, interruption,
 * secrets, parallelism, deletion order, protect and retainOnDelete. Each test names the engine behaviour it pins.
 */
import * as pulumi from "@pulumi/pulumi";
import { Recorder, RecorderArgs } from "./recorder";
import { Call, RECORDER, recordedStack, Recorded } from "./recorded";

let recorded: Recorded;
afterEach(() => recorded?.cleanup());

const stateOf = (name: string) =>
  recorded.stack.state.resources.find((r) => r.type === RECORDER && r.urn.endsWith(`::${name}`));
const mutations = (calls: Call[]) =>
  calls.map((c) => c.method).filter((m) => ["create", "update", "delete"].includes(m));

function single(initial: RecorderArgs, opts: pulumi.CustomResourceOptions = {}) {
  const declared = { args: initial, opts };
  recorded = recordedStack(() => new Recorder("r", declared.args, declared.opts).out);
  return declared;
}

describe("refresh (step.go RefreshStep.Apply)", () => {
  it("TestRefreshBasics: Read(id, old outputs, old inputs), Read's inputs replace the stored ones, then Diff(refreshed outputs, old inputs)", async () => {
    single({ value: "a", drift: "z", readInputs: true });
    await recorded.stack.up({ skipPreview: true });
    const id = stateOf("r")?.id;
    const mark = recorded.mark();
    const refresh = await recorded.stack.refresh({ skipPreview: true });
    const [read] = recorded.callsOf("read", mark);
    expect(read).toMatchObject({ id, props: { value: "a", out: "out-a" } });
    const [diff] = recorded.callsOf("diff", mark);
    expect(diff.olds).toMatchObject({ value: "z", out: "out-z" });
    expect(diff.news).toMatchObject({ value: "a" });
    expect(refresh.steps).toMatchObject([{ op: "refresh", name: "r", found: "update" }]);
    expect(stateOf("r")).toMatchObject({ inputs: { value: "z" }, outputs: { value: "z", out: "out-z" } });
  });

  it("TestRefreshPreservesInputsWhenReadReturnsNoInputs, and TestRefreshWithDelete: a resource Read finds gone leaves state", async () => {
    const declared = single({ value: "a", drift: "z" });
    await recorded.stack.up({ skipPreview: true });
    await recorded.stack.refresh({ skipPreview: true });
    expect(stateOf("r")).toMatchObject({ inputs: { value: "a" }, outputs: { value: "z" } });
    declared.args = { value: "a", drift: "z", gone: true };
    await recorded.stack.up(); // records gone: true in the outputs the next Read gets
    const refresh = await recorded.stack.refresh({ skipPreview: true });
    expect(refresh.steps).toMatchObject([{ name: "r", found: "delete" }]);
    expect(stateOf("r")).toBeUndefined();
  });
});

describe("failures (step.go CreateStep/DeleteStep.Apply, deployment_executor.go)", () => {
  it("a failed create-before-delete replacement keeps the old object in state, untouched", async () => {
    const declared = single({ value: "a", diffMode: "replace" });
    await recorded.stack.up({ skipPreview: true });
    const old = stateOf("r");
    declared.args = { value: "b", diffMode: "replace", fail: "error" };
    const up = await recorded.stack.up({ skipPreview: true });
    expect(up.error?.message).toContain("failing as asked");
    expect(recorded.stack.state.resources.filter((r) => r.type === RECORDER)).toEqual([old]);
    // deployment_executor.go Execute: after a failed step the engine ends with its own error (reportExecResult).
    const errors = up.diagnostics.filter((d) => d.severity === "error").map((d) => d.message);
    expect(errors).toEqual([expect.stringContaining("failing as asked"), "update failed"]);
  });

  it("TestPendingReplaceResumeWithSameGoals: a failed delete-before-create leaves the old pending replacement; the next up only creates", async () => {
    const declared = single({ value: "a", diffMode: "replace-dbr" });
    await recorded.stack.up({ skipPreview: true });
    declared.args = { value: "b", diffMode: "replace-dbr", fail: "error" };
    await recorded.stack.up({ skipPreview: true });
    expect(stateOf("r")).toMatchObject({ pendingReplacement: true, inputs: { value: "a" } });
    declared.args = { value: "b", diffMode: "replace-dbr" };
    const mark = recorded.mark();
    const up = await recorded.stack.up({ skipPreview: true });
    expect(up.error).toBeUndefined();
    expect(mutations(recorded.calls(mark))).toEqual(["create"]);
    expect(stateOf("r")).toMatchObject({ inputs: { value: "b" } });
    expect(stateOf("r")?.pendingReplacement).toBeUndefined();
  });

  it("TestInitErrorsStep: a create that made the object but failed is kept with its init errors; the next up updates it", async () => {
    const declared = single({ value: "a", fail: "init" });
    const up = await recorded.stack.up({ skipPreview: true });
    expect(up.error?.message).toContain("made but not ready");
    expect(stateOf("r")).toMatchObject({ id: expect.stringMatching(/^a-/), initErrors: ["not ready"] });
    declared.args = { value: "a" };
    const mark = recorded.mark();
    const again = await recorded.stack.up({ skipPreview: true });
    expect(again.steps.filter((s) => s.name === "r").map((s) => s.op)).toEqual(["update"]);
    expect(mutations(recorded.calls(mark))).toEqual(["update"]);
    expect(stateOf("r")?.initErrors).toBeUndefined();
  });

  it("TestUpdateShowsWarningWithPendingOperations: an interrupted create is a pending operation; the next up warns and creates again", async () => {
    single({ value: "a", delayMs: 3000 });
    const running = recorded.stack.up({ skipPreview: true });
    await until(() => recorded.callsOf("create").length > 0);
    await recorded.stack.interrupt();
    const interrupted = await running;
    expect(interrupted.interrupted).toBe(true);
    expect(recorded.stack.state.pendingOperations).toMatchObject([
      { type: "creating", resource: { urn: recorded.urn("r") } },
    ]);
    expect(stateOf("r")).toBeUndefined();
    const next = await recorded.stack.up({ skipPreview: true });
    expect(next.warnings.join("\n")).toContain(`${recorded.urn("r")}, interrupted while creating`);
    expect(next.steps.filter((s) => s.name === "r").map((s) => s.op)).toEqual(["create"]);
    // Pending creates need the user: snapshot.go carries them forward until a refresh (interactive) clears them.
    expect(recorded.stack.state.pendingOperations).toHaveLength(1);
  });

  it("after a failed step no new step starts, and the deletes do not run", async () => {
    let failing = false;
    recorded = recordedStack(
      () => {
        new Recorder("first", { value: failing ? "a2" : "a", fail: failing ? "error" : undefined });
        if (!failing) new Recorder("removed", { value: "x" });
        new Recorder("later", { value: failing ? "b2" : "b", delayMs: 200 });
      },
      { parallel: 1 },
    );
    await recorded.stack.up({ skipPreview: true });
    failing = true;
    const mark = recorded.mark();
    const up = await recorded.stack.up({ skipPreview: true });
    expect(up.error).toBeDefined();
    // `later` changed too, but with one worker it would run after `first`, which failed: it never starts.
    expect(recorded.callsOf("update", mark).map((c) => c.news.value)).toEqual(["a2"]);
    expect(recorded.callsOf("delete", mark)).toEqual([]);
    expect(stateOf("removed")).toBeDefined();
  });
});

describe("secrets (provider_plugin.go annotateSecrets, step_executor.go)", () => {
  it("TestAdditionalSecretOutputs: secrets are stripped before each call and re-marked after; state keeps them encrypted", async () => {
    recorded = recordedStack(() => {
      const r = new Recorder(
        "r",
        {
          value: "plain",
          other: pulumi.secret("s3cr3t"),
          nested: { inner: pulumi.secret("1nn3r"), open: "o" },
        } as never,
        { additionalSecretOutputs: ["out"] },
      );
      const own = r as unknown as Record<string, pulumi.Output<unknown>>;
      return { value: r.value, out: r.out, other: own.other, nested: own.nested };
    });
    const up = await recorded.stack.up();
    // The plugin gets plain values, in Check and in Create.
    expect(recorded.callsOf("check")[0].news).toMatchObject({ other: "s3cr3t", nested: { inner: "1nn3r" } });
    expect(recorded.callsOf("create")[0].inputs).toMatchObject({ other: "s3cr3t", nested: { inner: "1nn3r" } });
    // `other` is secret as its input was; `nested` too (the SDK makes an input holding a secret a secret as a whole);
    // `out` through additionalSecretOutputs; `value` stays plain.
    expect(up.outputs).toEqual({ value: "plain", out: "[secret]", other: "[secret]", nested: "[secret]" });
    expect(recorded.stack.exportState()).not.toContain("1nn3r");
    expect(recorded.stack.exportState()).not.toContain("s3cr3t");
    expect(recorded.stack.outputs({ showSecrets: true })).toMatchObject({ other: "s3cr3t", out: "out-plain" });
    await recorded.stack.refresh({ skipPreview: true });
    expect(recorded.stack.exportState()).not.toContain("s3cr3t");
  });

  it("Diff, Update, Read and Delete get plain values too (provider_plugin.go marshals with KeepSecrets false)", async () => {
    let value = "one";
    recorded = recordedStack(() => new Recorder("r", { value, other: pulumi.secret(`s3cr3t-${value}`) }).out);
    await recorded.stack.up({ skipPreview: true });
    value = "two";
    await recorded.stack.up({ skipPreview: true });
    await recorded.stack.refresh({ skipPreview: true });
    await recorded.stack.destroy({ skipPreview: true });
    const [diff] = recorded.callsOf("diff");
    expect([diff.olds.other, diff.news.other]).toEqual(["s3cr3t-one", "s3cr3t-two"]);
    const [update] = recorded.callsOf("update");
    expect([update.olds.other, update.news.other]).toEqual(["s3cr3t-one", "s3cr3t-two"]);
    expect(recorded.callsOf("read")[0].props.other).toBe("s3cr3t-two");
    expect(recorded.callsOf("delete")[0].props.other).toBe("s3cr3t-two");
  });

  it("an unchanged resource newly given additionalSecretOutputs has its output encrypted (continueExecuteStep marks a same step's state)", async () => {
    const declared = single({ value: "a", diffMode: "compare" });
    await recorded.stack.up({ skipPreview: true });
    expect(recorded.stack.exportState()).toContain("out-a");
    declared.opts = { additionalSecretOutputs: ["out"] };
    const up = await recorded.stack.up({ skipPreview: true });
    expect(up.steps.filter((s) => s.type === RECORDER).map((s) => s.op)).toEqual(["same"]);
    expect(recorded.stack.exportState()).not.toContain("out-a");
    expect(recorded.stack.outputs({ showSecrets: false })).toBe("[secret]"); // the stack output is `out`
  });
});

describe("scheduling (step_generator.go one registration at a time; step_executor.go workers; ScheduleDeletes)", () => {
  it("Check runs one registration at a time; creates run up to --parallel at once", async () => {
    recorded = recordedStack(
      () => ["a", "b", "c", "d", "e"].map((v) => new Recorder(v, { value: v, checkDelayMs: 50, delayMs: 300 })),
      { parallel: 2 },
    );
    await recorded.stack.up({ skipPreview: true });
    const calls = recorded.calls();
    expect(maxOverlap(calls, "check", "checked")).toBe(1);
    expect(maxOverlap(calls, "create", "created")).toBe(2);
  });

  it("deletes go dependents first; replaced objects are deleted after every create and update", async () => {
    let phase = 1;
    recorded = recordedStack(() => {
      if (phase === 1) {
        const base = new Recorder("base", { value: "a" });
        new Recorder("dependent", { value: base.out });
      }
      new Recorder("swap", { value: phase === 1 ? "s1" : "s2", diffMode: "replace" });
      if (phase === 2) new Recorder("fresh", { value: "f", delayMs: 200 });
    });
    await recorded.stack.up({ skipPreview: true });
    phase = 2;
    const mark = recorded.mark();
    await recorded.stack.up({ skipPreview: true });
    const deletes = recorded.callsOf("delete", mark).map((c) => String(c.id).split("-")[0]);
    expect(deletes.indexOf("out")).toBeLessThan(deletes.indexOf("a")); // dependent's id comes from base.out
    const lastCreate = Math.max(...recorded.calls(mark).map((c, i) => (c.method === "created" ? i : -1)));
    const firstDelete = recorded.calls(mark).findIndex((c) => c.method === "delete");
    expect(firstDelete).toBeGreaterThan(lastCreate);
  });
});

describe("protect and retainOnDelete (step.go DeleteStep.Apply, continueStepsFromDiff)", () => {
  it("TestProtect: a protected resource is neither deleted nor replaced, and the preview says so too", async () => {
    const declared = single({ value: "a", diffMode: "replace" }, { protect: true });
    await recorded.stack.up({ skipPreview: true });
    declared.args = { value: "b", diffMode: "replace" };
    const replace = await recorded.stack.up();
    expect(replace.error?.message).toContain("unable to replace resource");
    expect(replace.diagnostics.map((d) => d.message).join("\n")).toContain("marked for protection");
    const destroy = await recorded.stack.destroy();
    expect(destroy.error?.message).toContain("cannot be deleted\nbecause it is protected");
    expect(recorded.callsOf("delete")).toEqual([]);
    expect(stateOf("r")).toBeDefined();
  });

  it("TestRetainOnDelete: a retained resource leaves the state without a Delete call", async () => {
    single({ value: "a" }, { retainOnDelete: true });
    await recorded.stack.up({ skipPreview: true });
    const destroy = await recorded.stack.destroy();
    expect(destroy.error).toBeUndefined();
    expect(recorded.callsOf("delete")).toEqual([]);
    expect(recorded.stack.state.resources).toEqual([]);
  });
});

describe("delete-before-replace dependents (calculateDependentReplacements)", () => {
  it("TestDeleteBeforeReplace: a dependent whose Diff, given unknowns, says replace is deleted first and recreated", async () => {
    let value = "a";
    recorded = recordedStack(() => {
      const base = new Recorder("base", { value, diffMode: "replace-dbr" });
      new Recorder("dependent", { value: base.out, diffMode: "replace" });
      new Recorder("bystander", { value: "c", other: base.out, diffMode: "replace" });
    });
    await recorded.stack.up({ skipPreview: true });
    value = "b";
    const mark = recorded.mark();
    await recorded.stack.up({ skipPreview: true });
    const order = recorded
      .calls(mark)
      .filter((c) => c.method === "create" || c.method === "delete")
      .map((c) => `${c.method} ${String(c.inputs?.value ?? c.props?.value)}`);
    expect(order.slice(0, 2)).toEqual(["delete out-a", "delete a"]);
    expect(order).toContain("create b");
    expect(order).toContain("create out-b");
    expect(recorded.callsOf("diff", mark).some((c) => c.news.value === "04da6b54-80e4-46f7-96ec-b56ff0331ba9")).toBe(
      true,
    );
  });

  it("the recreated dependent is one replacement, blamed on the dependent's keys, with no second delete (isOperatedOn counts sg.replaces), in the preview too", async () => {
    let value = "a";
    recorded = recordedStack(() => {
      const base = new Recorder("base", { value, diffMode: "replace-dbr" });
      new Recorder("dependent", { value: base.out, diffMode: "replace" });
    });
    await recorded.stack.up({ skipPreview: true });
    value = "b";
    const dependentSteps = (steps: { op: string; name: string; keys?: string[] }[]) =>
      steps.filter((s) => s.name === "dependent").map((s) => `${s.op}${s.keys ? ` ${s.keys.join(",")}` : ""}`);
    const expected = ["delete-replaced", "replace value", "create-replacement value"];
    // DeleteStep.Apply marks the dependent pending replacement in a preview too, so GenerateDeletes leaves it alone.
    expect(dependentSteps((await recorded.stack.preview()).steps)).toEqual(expected);
    const mark = recorded.mark();
    const up = await recorded.stack.up({ skipPreview: true });
    expect(up.error).toBeUndefined();
    expect(dependentSteps(up.steps)).toEqual(expected);
    expect(recorded.callsOf("delete", mark).map((c) => String(c.props.value))).toEqual(["out-a", "a"]);
    expect(recorded.stack.state.resources.filter((r) => r.type === RECORDER)).toHaveLength(2);
  });
});

describe("check failures (issueCheckFailures)", () => {
  it("TestCheckFailureRecord: each failure is reported with its property; nothing is created", async () => {
    single({ value: "a", refuse: true });
    const up = await recorded.stack.up();
    expect(up.error).toBeDefined();
    expect(up.diagnostics.map((d) => d.message)).toContain(
      `${RECORDER} resource 'r': property value value {a} has a problem: is refused as asked`, // Go's {%v}
    );
    // A Check failure bails the step generator: Execute returns before its "preview failed" (reportExecResult).
    expect(up.diagnostics.map((d) => d.message)).not.toContain("preview failed");
    expect(recorded.callsOf("create")).toEqual([]);
  });
});

/** The most `start` calls running at once, each ended by the next `end` call of the same process order. */
function maxOverlap(calls: Call[], start: string, end: string): number {
  const events = calls
    .filter((c) => c.method === start || c.method === end)
    .map((c) => ({ at: Number(c.at), delta: c.method === start ? 1 : -1 }))
    .sort((a, b) => a.at - b.at || a.delta - b.delta);
  let running = 0;
  let most = 0;
  for (const event of events) most = Math.max(most, (running += event.delta));
  return most;
}

async function until(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
