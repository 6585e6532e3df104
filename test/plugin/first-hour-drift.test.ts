/**
 * Issue 19, item 3: what a newcomer meets after changing things outside Pulumi, or changing a setting that is not what
 * it seems, through the real plugin. Each of these gave a raw 404 with advice about keys, or a wrong warning.
 */
import { Compute } from "../../provider";
import { neonWorld, NeonWorld, ok, outputs } from "./world";

let world: NeonWorld;
beforeAll(async () => {
  world = await neonWorld();
});
afterAll(() => world.stop());

const KEY_ADVICE = /neon:apiKey|project-scoped|reaches project|404 rather than 403/;

it("a compute deleted outside Pulumi, then an up that changes it: it no longer exists, by name and id; refresh", async () => {
  let size = 1;
  const stack = world.stack(() => ({
    id: new Compute("analytics", {
      projectId: world.projectId,
      branchId: world.branches.dev,
      type: "read_only",
      autoscalingLimitMinCu: size,
      autoscalingLimitMaxCu: size,
    }).id,
  }));
  ok(await stack.up({ skipPreview: true }));
  const id = String(outputs(stack).id);
  await world.api.endpoints.delete(world.projectId, id);

  size = 2;
  const up = await stack.up();
  const message = up.error?.message ?? "";
  expect(message).toMatch(
    new RegExp(
      `^Compute "analytics" \\(${id}\\) no longer exists in project ${world.projectId}: it was deleted outside Pulumi`,
    ),
  );
  expect(message).toContain("HTTP 404: endpoint not found");
  expect(message).toContain("Run `pulumi refresh` to remove it from the state, then `pulumi up` creates it again");
  expect(message).toContain("`pulumi up --refresh`");
  expect(message).not.toMatch(KEY_ADVICE);

  // As it says: the refresh drops it, the next up makes it again.
  ok(await stack.refresh());
  ok(await stack.up({ skipPreview: true }));
  expect(String(outputs(stack).id)).not.toBe(id);
  ok(await stack.destroy());
});

it("a branch deleted outside Pulumi, then an up that creates a compute on it: the error names the branch", async () => {
  // The emulator has no branch delete: a branch id that no longer exists answers as a deleted one does (404).
  const gone = "br-deleted-01234567";
  const stack = world.stack(() => ({
    id: new Compute("replica", { projectId: world.projectId, branchId: gone, type: "read_only" }).id,
  }));
  const up = await stack.up({ skipPreview: true });
  const message = up.error?.message ?? "";
  expect(message).toMatch(
    new RegExp(`^Compute "replica" cannot be created on branch ${gone}: project ${world.projectId} has no such branch`),
  );
  expect(message).toContain("HTTP 404: branch not found");
  expect(message).toContain("Set the Compute's branchId to a branch of project");
  expect(message).not.toMatch(KEY_ADVICE);
});

describe("the preview's warnings", () => {
  it("disabled: true says the compute will be suspended and stay down, not that it will restart", async () => {
    let disabled = false;
    const stack = world.stack(() => ({
      id: new Compute("db", {
        projectId: world.projectId,
        branchId: world.branches.staging,
        type: "read_only",
        disabled,
      }).id,
    }));
    ok(await stack.up({ skipPreview: true }));
    disabled = true;
    const preview = ok(await stack.preview());
    const said = preview.warnings.join("\n");
    expect(said).toMatch(/Compute "db" \(ep-[a-z0-9-]+\) will be suspended and stay down: disabled is set to true;/);
    expect(said).toContain("accepts no new ones until disabled is false again");
    expect(said).not.toContain("will restart");
    ok(await stack.destroy());
  });

  it("suspendTimeoutSeconds 0 -> 300 (the same delay) is not listed beside a restart trigger", async () => {
    let suspend = 0;
    let trigger = "v1";
    const stack = world.stack(() => ({
      id: new Compute("db", {
        projectId: world.projectId,
        branchId: world.branches.staging,
        type: "read_only",
        suspendTimeoutSeconds: suspend,
        restartTriggers: [trigger],
      }).id,
    }));
    ok(await stack.up({ skipPreview: true }));
    suspend = 300;
    trigger = "v2";
    const preview = ok(await stack.preview());
    const update = preview.steps.find((step) => step.name === "db");
    expect(update).toMatchObject({ op: "update", diffs: ["restartTriggers"] });
    expect(preview.warnings.join("\n")).toMatch(/will restart if it is running: restartTriggers; its open connections/);
    expect(preview.warnings.join("\n")).not.toContain("suspendTimeoutSeconds");
    const up = ok(await stack.up({ skipPreview: true }));
    expect(up.steps.find((step) => step.name === "db")).toMatchObject({ op: "update", diffs: ["restartTriggers"] });
    // Alone, the same delay in another spelling is no change at all.
    suspend = 0;
    const again = ok(await stack.preview());
    expect(again.steps.find((step) => step.name === "db")).toMatchObject({ op: "same" });
    ok(await stack.destroy());
  });
});
