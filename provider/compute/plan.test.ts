import { keepOldSpelling, planComputeChange } from "./plan";
import { adoptedReplaceWarning, adoptionWarnings, connectionWarning, keptOnDelete } from "./refusal";
import { UNKNOWN } from "../shared/unknown";

/** Old outputs as the service reported them after a create that set only project and branch. */
const olds = {
  projectId: "p-1",
  branchId: "br-main",
  type: "read_write",
  regionId: "aws-us-east-2",
  autoscalingLimitMinCu: 1,
  autoscalingLimitMaxCu: 2,
  suspendTimeoutSeconds: 0,
  pgSettings: {},
  poolerEnabled: false,
  poolerMode: "transaction",
  disabled: false,
  passwordlessAccess: true,
  provisioner: "k8s-neonvm",
  resourceName: "db",
};
const declared = { projectId: "p-1", branchId: "br-main" };
const sizes = { autoscalingLimitMinCu: 1, autoscalingLimitMaxCu: 2 };

describe("planComputeChange", () => {
  it("sees no change when the program leaves out what the service defaulted (no permanent diff)", () => {
    expect(planComputeChange(olds, declared).changes).toBe(false);
    expect(planComputeChange(olds, { ...declared, type: "read_write", pgSettings: {} }).changes).toBe(false);
  });

  it("treats an autosuspend of 0 and of 300 seconds as the same setting", () => {
    expect(planComputeChange(olds, { ...declared, suspendTimeoutSeconds: 300 }).changes).toBe(false);
    expect(
      planComputeChange({ ...olds, suspendTimeoutSeconds: 300 }, { ...declared, suspendTimeoutSeconds: 0 }).changes,
    ).toBe(false);
  });

  it.each([
    ["projectId", "p-2"],
    ["type", "read_only"],
    ["regionId", "aws-eu-central-1"],
  ])("replaces the compute when %s changes", (property, value) => {
    const plan = planComputeChange(olds, { ...declared, [property]: value });
    expect(plan.replaces).toEqual([property]);
  });

  it.each([
    ["autoscalingLimitMinCu", 2],
    ["autoscalingLimitMaxCu", 4],
  ])("a change of %s is one PATCH of both sizes, which drops connections", (property, value) => {
    const plan = planComputeChange(olds, { ...declared, ...sizes, [property]: value });
    expect(plan).toMatchObject({ changes: true, replaces: [], drops: [property], restartByTrigger: false });
    expect([...plan.patch].sort()).toEqual(["autoscalingLimitMaxCu", "autoscalingLimitMinCu"]);
  });

  it.each([
    ["branchId", "br-dev", "drops"],
    ["disabled", true, "drops"],
    ["provisioner", "k8s-pod", "mayDrop"],
    ["pgSettings", { work_mem: "64MB" }, "mayDrop"],
  ])("a change of %s is one PATCH that %s connections", (property, value, effect) => {
    const plan = planComputeChange(olds, { ...declared, [property]: value });
    expect(plan).toMatchObject({ changes: true, replaces: [], patch: [property], [effect]: [property] });
  });

  it.each([
    ["suspendTimeoutSeconds", 600],
    ["poolerEnabled", true],
    ["passwordlessAccess", false],
    ["name", "analytics"],
  ])("a change of %s is one PATCH that keeps connections", (property, value) => {
    const plan = planComputeChange(olds, { ...declared, [property]: value });
    expect(plan).toMatchObject({ patch: [property], drops: [], mayDrop: [], restartByTrigger: false });
  });

  it("enabling a disabled compute drops nothing; disabling it does", () => {
    expect(planComputeChange({ ...olds, disabled: true }, { ...declared, disabled: false }).drops).toEqual([]);
    expect(planComputeChange(olds, { ...declared, disabled: true }).drops).toEqual(["disabled"]);
  });

  it("does not ask again for a value the service overrode, until the program asks for another", () => {
    const overridden = { ...olds, overridden: { suspendTimeoutSeconds: { requested: 600, service: 0 } } };
    expect(planComputeChange(overridden, { ...declared, suspendTimeoutSeconds: 600 }).changes).toBe(false);
    expect(planComputeChange(overridden, { ...declared, suspendTimeoutSeconds: 900 }).patch).toEqual([
      "suspendTimeoutSeconds",
    ]);
  });

  it("restarts through the restart API when restartTriggers change, and only then", () => {
    const withTrigger = { ...olds, restartTriggers: ["v1"] };
    expect(planComputeChange(withTrigger, { ...declared, restartTriggers: ["v2"] })).toMatchObject({
      patch: [],
      restartByTrigger: true,
    });
    expect(planComputeChange(withTrigger, { ...declared, restartTriggers: ["v1"] }).changes).toBe(false);
  });

  it("restarts nothing for a new trigger on a compute the update disables (disabling suspends it)", () => {
    const withTrigger = { ...olds, restartTriggers: ["v1"] };
    const news = { ...declared, restartTriggers: ["v2"], disabled: true };
    expect(planComputeChange(withTrigger, news)).toMatchObject({
      patch: ["disabled"],
      drops: ["disabled"],
      restartByTrigger: false,
    });
  });

  it("records a removed adoptId (a change that sends nothing), so that Delete stops keeping the compute", () => {
    const adopted = { ...olds, adoptId: "ep-cool-1" };
    expect(planComputeChange(adopted, declared)).toMatchObject({ changes: true, replaces: [], patch: [] });
    expect(planComputeChange(adopted, { ...declared, adoptId: "ep-cool-1" }).changes).toBe(false);
  });

  it("treats a value unknown during preview as a change of its kind", () => {
    expect(planComputeChange(olds, { ...declared, projectId: UNKNOWN }).replaces).toEqual(["projectId"]);
    expect(planComputeChange(olds, { ...declared, branchId: UNKNOWN }).patch).toEqual(["branchId"]);
  });

  it("creates before deleting, except for a primary replaced on the same branch", () => {
    expect(planComputeChange(olds, { ...declared, type: "read_only" }).deleteBeforeReplace).toBe(false);
    expect(planComputeChange(olds, { ...declared, projectId: "p-2" }).deleteBeforeReplace).toBe(false);
    expect(planComputeChange(olds, { ...declared, regionId: "aws-eu-central-1" }).deleteBeforeReplace).toBe(true);
  });
});

describe("connectionWarning", () => {
  it("names the compute, the sizes and that its connections drop", () => {
    const news = { ...declared, autoscalingLimitMinCu: 2, autoscalingLimitMaxCu: 2 };
    const text = connectionWarning("ep-cool-1", olds, news, planComputeChange(olds, news));
    expect(text).toBe(
      'Compute "db" (ep-cool-1) will restart if it is running: autoscalingLimitMinCu 1 -> 2; its open connections will drop.',
    );
  });

  it("says a branch move drops connections without echoing the branch, and pgSettings may", () => {
    const moved = { ...declared, branchId: "br-secret-name" };
    const moveText = connectionWarning("ep-1", olds, moved, planComputeChange(olds, moved));
    expect(moveText).toContain("will restart if it is running: branchId;");
    expect(moveText).not.toContain("br-secret-name");
    const tuned = { ...declared, pgSettings: { work_mem: "64MB" } };
    const tuneText = connectionWarning("ep-1", olds, tuned, planComputeChange(olds, tuned));
    expect(tuneText).toMatch(/may restart if it is running: pgSettings changes .*may drop/);
    expect(tuneText).not.toContain("64MB");
  });

  // Issue 19: `disabled: true` warned that the compute "will restart"; it is suspended and stays down.
  it("says that disabling suspends the compute and keeps it down, not that it restarts", () => {
    const off = { ...declared, disabled: true };
    expect(connectionWarning("ep-1", olds, off, planComputeChange(olds, off))).toBe(
      'Compute "db" (ep-1) will be suspended and stay down: disabled is set to true; its open connections will ' +
        "drop, and it accepts no new ones until disabled is false again.",
    );
    const offAndResized = { ...off, autoscalingLimitMinCu: 2, autoscalingLimitMaxCu: 2, pgSettings: { a: "b" } };
    const text = connectionWarning("ep-1", olds, offAndResized, planComputeChange(olds, offAndResized)) ?? "";
    expect(text).toMatch(
      /will be suspended and stay down: disabled is set to true \(changing autoscalingLimitMinCu 1 -> 2, pgSettings too\)/,
    );
    expect(text).not.toContain("restart");
    const withTrigger = { ...olds, restartTriggers: ["v1"] };
    const offWithTrigger = { ...off, restartTriggers: ["v2"] };
    expect(
      connectionWarning("ep-1", withTrigger, offWithTrigger, planComputeChange(withTrigger, offWithTrigger)),
    ).not.toContain("restart");
  });

  it("says nothing for a change that keeps connections, or for a replacement", () => {
    const quiet = { ...declared, suspendTimeoutSeconds: 600 };
    expect(connectionWarning("ep-1", olds, quiet, planComputeChange(olds, quiet))).toBeUndefined();
    const replaced = { ...declared, type: "read_only", autoscalingLimitMinCu: 2 };
    expect(connectionWarning("ep-1", olds, replaced, planComputeChange(olds, replaced))).toBeUndefined();
  });
});

// Issue 19: a dynamic provider reports no changed keys, so the engine lists beside an update every input that differs
// from the old inputs: `suspendTimeoutSeconds` 0 -> 300 (the same delay) was listed beside a restart trigger.
describe("keepOldSpelling (the inputs Check records)", () => {
  it("keeps the old inputs' spelling of the same autosuspend delay", () => {
    expect(keepOldSpelling({ suspendTimeoutSeconds: 0 }, { ...declared, suspendTimeoutSeconds: 300 })).toEqual({
      ...declared,
      suspendTimeoutSeconds: 0,
    });
    expect(keepOldSpelling({ suspendTimeoutSeconds: 300 }, { suspendTimeoutSeconds: 0 })).toEqual({
      suspendTimeoutSeconds: 300,
    });
  });

  it("leaves a real change, a first value, a removal and an unknown value as the program wrote them", () => {
    const news = { ...declared, suspendTimeoutSeconds: 600 };
    expect(keepOldSpelling({ suspendTimeoutSeconds: 0 }, news)).toBe(news);
    expect(keepOldSpelling({}, { suspendTimeoutSeconds: 0 })).toEqual({ suspendTimeoutSeconds: 0 });
    expect(keepOldSpelling({ suspendTimeoutSeconds: 0 }, declared)).toEqual(declared);
    expect(keepOldSpelling({ suspendTimeoutSeconds: 0 }, { suspendTimeoutSeconds: UNKNOWN })).toEqual({
      suspendTimeoutSeconds: UNKNOWN,
    });
  });
});

/** A resource that adopts ep-old-1 (its state, once created, records the same). */
const adopting = {
  projectId: "p-1",
  branchId: "br-1",
  adoptId: "ep-old-1",
  resourceName: "reader",
  ownerTag: "0123456789ab",
};
const adopted = { ...adopting, type: "read_only", name: "legacy-reader" };

describe("adoptionWarnings (Check)", () => {
  it("for a create or a replacement (no olds): what adopting does, and that a re-adoption leaves the old resource's compute", () => {
    const [text] = adoptionWarnings({}, adopting);
    expect(text).toContain('Compute "reader" adopts ep-old-1: ');
    expect(text).toContain("it adopts it again, and the replaced resource leaves it on the service");
  });

  it("while adoptId stays unchanged, nothing is said: nothing changes", () => {
    expect(adoptionWarnings(adopting, adopting)).toEqual([]);
  });

  it("a new adoptId on a resource that has its compute adopts nothing now", () => {
    const [text] = adoptionWarnings({ projectId: "p-1", branchId: "br-1" }, adopting);
    expect(text).toContain("ep-old-1 is recorded but not adopted now");
    const [removed] = adoptionWarnings(adopting, { ...adopting, adoptId: undefined });
    expect(removed).toContain("adoptId ep-old-1 is removed; the up records that and sends nothing");
    expect(removed).toContain("Remove it in an up of its own");
    expect(adoptionWarnings({ projectId: "p-1" }, { projectId: "p-1" })).toEqual([]);
  });
});

describe("keptOnDelete (Delete)", () => {
  it("keeps a compute the state's adoptId names, saying why and how to delete it", () => {
    const text = keptOnDelete("ep-old-1", adopted);
    expect(text).toMatch(/^Compute "reader" \(ep-old-1\) was not deleted: it was adopted/);
    expect(text).toContain("If a replacement with adoptId took it in this up, it is managed as before");
    expect(text).toContain(
      "ep-old-1 is no longer managed: it goes when its project is deleted (a Project's destroy); to delete it before, delete it in the Neon console",
    );
  });

  it("deletes a compute whose state records no adoptId, or another id", () => {
    expect(keptOnDelete("ep-old-1", { ...adopted, adoptId: undefined })).toBeUndefined();
    expect(keptOnDelete("ep-new-2", adopted)).toBeUndefined();
  });
});

describe("adoptedReplaceWarning (Diff)", () => {
  const olds = { ...adopted, endpointId: "ep-old-1" };
  it("a replacing change while adoptId names the compute cannot be made: says to remove adoptId first", () => {
    const changed = { ...adopted, type: "read_write" };
    const text = adoptedReplaceWarning("ep-old-1", olds, changed, planComputeChange(olds, changed));
    expect(text).toContain("cannot be replaced (type changed) while adoptId names it");
  });

  it("a replacing change with adoptId removed: a new compute, and the adopted one stays", () => {
    const changed = { ...adopted, type: "read_write", adoptId: undefined };
    const text = adoptedReplaceWarning("ep-old-1", olds, changed, planComputeChange(olds, changed));
    expect(text).toContain("is replaced (type changed) by a new compute, and ep-old-1 stays on the service");
  });

  it("says nothing for an update, or for a compute that was not adopted", () => {
    const resized = { ...adopted, autoscalingLimitMinCu: 1, autoscalingLimitMaxCu: 1 };
    expect(adoptedReplaceWarning("ep-old-1", olds, resized, planComputeChange(olds, resized))).toBeUndefined();
    const created = { ...olds, adoptId: undefined };
    const changed = { ...adopted, type: "read_write", adoptId: undefined };
    expect(adoptedReplaceWarning("ep-old-1", created, changed, planComputeChange(created, changed))).toBeUndefined();
  });
});
