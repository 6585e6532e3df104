/**
 * Conformance of the local engine with the Pulumi engine (pulumi/pulumi v3.248.0) on the edges an independent review
 * found: protected deletes, pending replacements, the provider's configuration for deletes, inheritance, cancellation
 * inside a chain, empty ids, stack outputs after a failure, ignoreChanges paths, --replace targets, refresh diffs and
 * order, partially failed updates. Each test quotes the engine source it pins.
 */
import * as pulumi from "@pulumi/pulumi";
import { Group, Recorder } from "./recorder";
import { Call, RECORDER, recordedStack, Recorded } from "./recorded";
import { EmptyId, SlowRead } from "./fixtures";

let recorded: Recorded;
afterEach(() => recorded?.cleanup());

const stateOf = (name: string) =>
  recorded.stack.state.resources.find((r) => r.type === RECORDER && r.urn.endsWith(`::${name}`));
const deletedValues = (calls: Call[]) => calls.filter((c) => c.method === "delete").map((c) => String(c.props.value));

describe("deletes", () => {
  // step_executor.go cancelDueToError: `if errors.As(err, &deleteProtectedError{}) { continueOnError = true }` →
  // `step.Fail()` and the step is recorded as errored, the context is NOT cancelled. deployment_executor.go
  // performPostSteps then runs every later antichain, leaving out only the errored step's transitive dependencies
  // (`erroredDeps = dg.TransitiveDependenciesOf(r)`).
  it("a protected delete does not stop the other deletes (destroy --skip-preview)", async () => {
    recorded = recordedStack(() => {
      const a = new Recorder("a", { value: "a" });
      new Recorder("guarded", { value: "g", other: a.out }, { protect: true });
      new Recorder("c", { value: "c" });
    });
    await recorded.stack.up({ skipPreview: true });
    const mark = recorded.mark();
    const destroy = await recorded.stack.destroy({ skipPreview: true });
    expect(destroy.error?.message).toContain("protected");
    // antichains: [guarded] then [a, c]; a is a dependency of the failed step and stays, c is deleted.
    expect(deletedValues(recorded.calls(mark))).toEqual(["c"]);
  });

  // step_generator.go GenerateDeletes: a resource pending replacement that the program no longer registers gets
  // `NewRemovePendingReplaceStep(sg.deployment, res)`, whose Apply is `return resource.StatusOK, nil, nil` (step.go):
  // the object was deleted already by the delete-before-replace, the provider is not called again.
  it("a resource pending replacement is dropped without a second Delete (destroy)", async () => {
    const declared = { args: { value: "a", diffMode: "replace-dbr" as const, fail: undefined as "error" | undefined } };
    recorded = recordedStack(() => new Recorder("r", declared.args).out);
    await recorded.stack.up({ skipPreview: true });
    declared.args = { value: "b", diffMode: "replace-dbr", fail: "error" };
    await recorded.stack.up({ skipPreview: true });
    expect(stateOf("r")).toMatchObject({ pendingReplacement: true });
    const mark = recorded.mark();
    const destroy = await recorded.stack.destroy({ skipPreview: true });
    expect(destroy.error).toBeUndefined();
    expect(deletedValues(recorded.calls(mark))).toEqual([]);
    expect(stateOf("r")).toBeUndefined();
  });

  // The same GenerateDeletes branch for a dependent of a delete-before-replace that the program stops registering:
  // DeleteStep.Apply set `s.old.PendingReplacement = true` when it deleted it, so GenerateDeletes emits
  // NewRemovePendingReplaceStep for it, not a second DeleteStep.
  it("a delete-before-replace dependent the program drops is deleted once", async () => {
    let phase = 1;
    recorded = recordedStack(() => {
      const base = new Recorder("base", { value: phase === 1 ? "a" : "b", diffMode: "replace-dbr" });
      if (phase === 1) new Recorder("dependent", { value: base.out, diffMode: "replace" });
    });
    await recorded.stack.up({ skipPreview: true });
    phase = 2;
    const mark = recorded.mark();
    const up = await recorded.stack.up({ skipPreview: true });
    expect(up.error).toBeUndefined();
    expect(deletedValues(recorded.calls(mark))).toEqual(["out-a", "a"]);
  });

  // deployment.go EnsureProvider: a provider not registered in this deployment is loaded from its OLD state
  // (`d.SameProvider(providerResource, false)` → registry.go Same → Configure with `res.Inputs`). GenerateDeletes calls
  // `sg.deployment.EnsureProvider(res.Provider)` for every delete. With no custom resource left in the program the
  // default provider is never registered (default_providers.go handleRequest only runs for a registration), so the
  // deletes run with the configuration saved by the last up, not the current one.
  it("an up that removes every resource deletes with the configuration in state", async () => {
    let keep = true;
    recorded = recordedStack(() => (keep ? new Recorder("r", { value: "a" }).out : undefined), {
      config: { "app:token": { secret: "old-token" } },
    });
    await recorded.stack.up({ skipPreview: true });
    keep = false;
    recorded.stack.setConfig({ "app:token": { secret: "new-token" } });
    const mark = recorded.mark();
    const up = await recorded.stack.up({ skipPreview: true });
    expect(up.error).toBeUndefined();
    const [deleted] = recorded.callsOf("delete", mark);
    const configured = recorded.callsOf("configure", mark).find((c) => c.pid === deleted.pid);
    expect(configured?.config["app:token"]).toBe("old-token");
  });

  // source_eval.go RegisterResource → inheritFromParent: `if child.RetainOnDelete == nil { child.RetainOnDelete =
  // parent.RetainOnDelete }` (the Node.js SDK inherits only `protect` itself: resource.js `opts.protect =
  // parent.__protect`). A child of a retained component is retained: DeleteStep.Apply `else if s.old.RetainOnDelete`.
  it("retainOnDelete is inherited from the parent", async () => {
    recorded = recordedStack(() => {
      const group = new Group("g", { retainOnDelete: true });
      new Recorder("child", { value: "a" }, { parent: group });
    });
    await recorded.stack.up({ skipPreview: true });
    const child = recorded.stack.state.resources.find((r) => r.urn.endsWith("::child"));
    expect(child?.retainOnDelete).toBe(true);
    const mark = recorded.mark();
    await recorded.stack.destroy({ skipPreview: true });
    expect(deletedValues(recorded.calls(mark))).toEqual([]);
  });
});

describe("failures", () => {
  // step_executor.go executeChain: before each step of a chain `select { case <-se.ctx.Done(): return }`; a failed
  // step cancels that context (cancelDueToError → se.cancel()). A delete-before-replace chain [delete-replaced,
  // replace, create-replacement] whose delete finishes after another step failed stops there: the object is deleted,
  // its replacement never created, the old state stays pending replacement.
  it("a failure elsewhere stops a delete-before-replace chain between its delete and its create", async () => {
    let phase = 1;
    recorded = recordedStack(
      () => {
        new Recorder("swap", { value: phase === 1 ? "s1" : "s2", diffMode: "replace-dbr", delayMs: 1500 });
        if (phase === 2) new Recorder("bad", { value: "x", fail: "error", delayMs: 100 });
      },
      { parallel: 4 },
    );
    await recorded.stack.up({ skipPreview: true });
    phase = 2;
    const mark = recorded.mark();
    const up = await recorded.stack.up({ skipPreview: true });
    expect(up.error).toBeDefined();
    expect(recorded.callsOf("delete", mark).map((c) => c.props.value)).toEqual(["s1"]);
    expect(recorded.callsOf("create", mark).map((c) => c.inputs.value)).toEqual(["x"]);
    expect(stateOf("swap")).toMatchObject({ pendingReplacement: true, inputs: { value: "s1" } });
  });

  // provider_plugin.go Create: `if id == "" && !req.Preview { return CreateResponse{Status: resource.StatusUnknown},
  // fmt.Errorf("plugin returned empty resource.ID from create '%v'", req.URN) }`.
  it("a Create that answers an empty id fails the step", async () => {
    recorded = recordedStack(() => new EmptyId("e", { value: "a" }).out);
    const up = await recorded.stack.up({ skipPreview: true });
    expect(up.error?.message ?? "").toContain("plugin returned empty resource.ID from create");
  });

  // deployment_executor.go Execute: a failed step cancels the deployment; the failed registration gets no answer
  // (cancelDueToError calls step.Fail() only with --continue-on-error), so the program never registers the stack's
  // outputs and `stackOutputsEvent` stays nil; the root stack's SameStep kept `s.new.Outputs = s.old.Outputs`. With a
  // stack-outputs event, `finalizingStackOutputs && errored` merges the old outputs under the new ones. Either way a
  // failed update does not drop an output the previous update saved.
  it("a failed up keeps the stack outputs the last up saved", async () => {
    let failing = false;
    recorded = recordedStack(() => {
      const ok = new Recorder("ok", { value: "a" });
      const flaky = new Recorder("flaky", { value: failing ? "b2" : "b", fail: failing ? "error" : undefined });
      return { ok: ok.out, flaky: flaky.out };
    });
    await recorded.stack.up({ skipPreview: true });
    expect(recorded.stack.outputs()).toEqual({ ok: "out-a", flaky: "out-b" });
    failing = true;
    const up = await recorded.stack.up({ skipPreview: true });
    expect(up.error).toBeDefined();
    expect(recorded.stack.outputs()).toEqual({ ok: "out-a", flaky: "out-b" });
  });
});

describe("ignoreChanges (step_generator.go processIgnoreChanges → properties_path.go PropertyPath.Reset)", () => {
  // properties_path.go reset: `old, isSecret := unwrapSecrets(old) … new, isSecret = unwrapSecrets(new)` at every
  // level, so a path into a secret object resets the value inside it.
  it("a path inside a secret object is reset", async () => {
    const declared = { tier: "gold" };
    recorded = recordedStack(
      () =>
        new Recorder("r", { value: "a", settings: pulumi.secret({ tier: declared.tier, size: "s" }) } as never, {
          ignoreChanges: ["settings.tier"],
        }).out,
    );
    await recorded.stack.up({ skipPreview: true });
    declared.tier = "silver";
    const mark = recorded.mark();
    await recorded.stack.preview();
    const [check] = recorded.callsOf("check", mark);
    expect(check.news.settings).toEqual({ tier: "gold", size: "s" });
  });

  // properties_path.go reset, key "*" as the leaf: copies every key of old into new, then
  // `for k := range new.ObjectValue() { if _, has := old.ObjectValue()[k]; !has { delete(new.ObjectValue(), k) } }`.
  it("a trailing wildcard also removes keys the old value did not have", async () => {
    let settings: Record<string, string> = { tier: "gold" };
    recorded = recordedStack(
      () => new Recorder("r", { value: "a", settings } as never, { ignoreChanges: ["settings.*"] }).out,
    );
    await recorded.stack.up({ skipPreview: true });
    settings = { tier: "gold", extra: "x" };
    const mark = recorded.mark();
    await recorded.stack.preview();
    const [check] = recorded.callsOf("check", mark);
    expect(check.news.settings).toEqual({ tier: "gold" });
  });
});

describe("--replace (deployment_executor.go Execute → checkTargets(ReplaceTargets))", () => {
  // checkTargets: a target neither in the old state nor registered → diag GetTargetCouldNotBeFound… and
  // `result.BailErrorf("one or more targets could not be found in the stack")`, before the program runs.
  it("--replace of a URN that is not in state fails the command", async () => {
    recorded = recordedStack(() => new Recorder("r", { value: "a" }).out);
    await recorded.stack.up({ skipPreview: true });
    const typo = recorded.urn("rr");
    const up = await recorded.stack.up({ replace: [typo], skipPreview: true });
    expect(up.error?.message ?? "").toContain("could not be found");
  });

  it("--replace of a name that is not in state gives a failed result (not an exception)", async () => {
    recorded = recordedStack(() => new Recorder("r", { value: "a" }).out);
    await recorded.stack.up({ skipPreview: true });
    const up = await recorded.stack.up({ replace: ["nope"], skipPreview: true }).catch((e: Error) => e);
    expect(up).not.toBeInstanceOf(Error);
  });
});

describe("refresh (step.go RefreshStep.Apply → diffResource)", () => {
  // RefreshStep.Apply computes the refresh diff with diffResource, which for DIFF_UNKNOWN compares the inputs itself
  // (`tmp := oldInputs.Diff(new); if tmp.AnyChanges() {…} else { diff.Changes = plugin.DiffNone }`); ResultOp:
  // `if s.new == s.old || s.diff.Changes == plugin.DiffNone { return OpSame }`.
  it("a provider without a Diff answer and nothing drifted refreshes as same", async () => {
    recorded = recordedStack(() => new Recorder("r", { value: "a", diffMode: "unknown" }).out);
    await recorded.stack.up({ skipPreview: true });
    const refresh = await recorded.stack.refresh({ skipPreview: true });
    expect(refresh.steps).toMatchObject([{ name: "r", found: "same" }]);
  });
});

describe("refresh keeps the state in dependency order (deployment_executor.go rebuildBaseState)", () => {
  // rebuildBaseState rewrites `ex.deployment.prev.Resources` in its own order ("the correctness of this process
  // depends on the fact that the list of resources is a topological sort"), and refresh steps are elided by the
  // snapshot manager (snapshot.go refreshSnapshotMutation: "We normally elide refreshes"). calculateDependentReplacements
  // walks `depGraph.DependingOn(root, …)`, a graph, not the list order.
  it("after a refresh whose Reads finish in reverse order, a delete-before-replace still deletes every dependent first", async () => {
    let value = "a";
    recorded = recordedStack(() => {
      const a = new SlowRead("a", { value, readDelayMs: 600, dbr: true });
      const b = new SlowRead("b", { value: a.out, readDelayMs: 300 });
      new SlowRead("c", { value: b.out });
    });
    await recorded.stack.up({ skipPreview: true });
    await recorded.stack.refresh({ skipPreview: true });
    const order = recorded.stack.state.resources.map((r) => r.urn.split("::").pop());
    value = "a2";
    const mark = recorded.mark();
    await recorded.stack.up({ skipPreview: true });
    const deletes = recorded.callsOf("delete", mark).map((c) => c.props.value);
    // the state after the refresh is [project-dev, default, a, b, c], as the up left it; c, b, a are deleted first.
    expect({ order, deletes: deletes.slice(0, 3) }).toEqual({
      order: ["project-dev", "default", "a", "b", "c"],
      deletes: ["o-o-a", "o-a", "a"],
    });
  });
});

describe("a partially failed update (pkg/engine/update.go OnResourceStepPost)", () => {
  // update.go OnResourceStepPost: `if status == resource.StatusPartialFailure && step.Op() == deploy.OpUpdate {
  // … new.Inputs = make(resource.PropertyMap); for key, value := range old.Inputs { new.Inputs[key] = value } }`:
  // "the resource that ultimately gets persisted in the snapshot should be old inputs and new outputs".
  it("keeps the old inputs with the new outputs and the init errors", async () => {
    const declared = { args: { value: "a" } as Record<string, unknown> };
    recorded = recordedStack(() => new Recorder("r", declared.args as never).out);
    await recorded.stack.up({ skipPreview: true });
    declared.args = { value: "b", fail: "init" };
    const up = await recorded.stack.up({ skipPreview: true });
    expect(up.error?.message).toContain("made but not ready");
    const state = stateOf("r");
    expect(state?.initErrors).toEqual(["not ready"]);
    expect(state?.outputs).toMatchObject({ value: "b", out: "out-b" });
    expect(state?.inputs).toEqual({ value: "a", __provider: expect.any(String) });
  });
});
