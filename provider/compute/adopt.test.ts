import { adoptedReplaceWarning, adoptionWarnings, keptOnDelete } from "./adopt";
import { planComputeChange } from "./plan";

const news = {
  projectId: "p-1",
  branchId: "br-1",
  adoptId: "ep-old-1",
  resourceName: "reader",
  ownerTag: "0123456789ab",
};
const adopted = { ...news, type: "read_only", name: "legacy-reader" };

describe("adoptionWarnings (Check)", () => {
  it("for a create or a replacement (no olds): what adopting does, and that a re-adoption leaves the old resource's compute", () => {
    const [text] = adoptionWarnings({}, news);
    expect(text).toContain('Compute "reader" adopts ep-old-1: ');
    expect(text).toContain("it adopts it again, and the replaced resource leaves it on the service");
  });

  it("while adoptId stays: remove it; until then Pulumi never deletes that compute", () => {
    expect(adoptionWarnings(news, news)).toEqual([
      expect.stringContaining("adoptId only acts on the first up; remove it from the program"),
    ]);
    expect(adoptionWarnings(news, news)[0]).toContain("Pulumi never deletes compute ep-old-1");
  });

  it("a new adoptId on a resource that has its compute adopts nothing now", () => {
    const [text] = adoptionWarnings({ projectId: "p-1", branchId: "br-1" }, news);
    expect(text).toContain("ep-old-1 is recorded but not adopted now");
    const [removed] = adoptionWarnings(news, { ...news, adoptId: undefined });
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
    expect(text).toContain("ep-old-1 is no longer managed: delete it in the Neon console");
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
