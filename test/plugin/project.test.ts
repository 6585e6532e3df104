/**
 * Project as a user's `pulumi up` drives it (issue 26, items 1, 2, 3 and 6), through the local engine and the real
 * plugin against the emulator: a create waits for its operations and names the default objects; the preview after
 * every up shows no change (kislerdm#179); a new name and settings are one PATCH, never a replacement (kislerdm#218);
 * a new default size PATCHes the project and the default compute, warned as a restart (kislerdm#234); a new region is
 * refused while deletionProtection holds, then planned as a replacement; a destroy is refused while it holds, and
 * allowed after `deletionProtection: false` (and the provider refuses it too, whatever the options say); adoption by id
 * takes a project without creating one and never deletes it.
 */
import { Project, ProjectArgs } from "../../provider";
import { LocalStack } from "../../testing";
import { neonWorld, NeonWorld, ok, ops, outputs, writes } from "./world";

let world: NeonWorld;
beforeAll(async () => {
  world = await neonWorld();
});
afterAll(() => world.stop());

/** A stack of one Project named "app" whose args the test changes between commands. */
function projectStack(args: ProjectArgs): LocalStack {
  return world.stack(() => {
    const project = new Project("app", args);
    return {
      projectId: project.projectId,
      name: project.name,
      defaultBranchId: project.defaultBranchId,
      defaultComputeId: project.defaultComputeId,
      defaultComputeHost: project.defaultComputeHost,
      roleName: project.roleName,
      rolePassword: project.rolePassword,
      databaseName: project.databaseName,
      connectionUri: project.connectionUri,
      connectionUriPooled: project.connectionUriPooled,
    };
  });
}

/** After an up: a preview of a `same` step and no request, then a refresh that changes nothing. */
async function expectNoChange(stack: LocalStack, warnings = true): Promise<void> {
  const preview = ok(await stack.preview());
  expect(ops(preview, "app")).toEqual(["same app"]);
  expect(preview.requests).toEqual([]);
  const refresh = ok(await stack.refresh());
  expect(refresh.steps.filter((s) => s.name === "app").map((s) => s.found)).toEqual(["same"]);
  expect(writes(refresh)).toEqual([]);
  if (warnings) expect(preview.warnings).toEqual([]);
  expect(ops(ok(await stack.preview()), "app")).toEqual(["same app"]);
}

describe("Project through the local engine", () => {
  const args: ProjectArgs = { regionId: "aws-us-east-2", branch: { databaseName: "appdb" } };
  const stack = () => (made ??= projectStack(args));
  let made: LocalStack | undefined;

  it("up creates the project, waits for its operations and names its default objects", async () => {
    const up = ok(await stack().up());
    expect(ops(up, "app")).toEqual(["create app"]);
    expect(writes(up)).toEqual(["POST /projects"]);
    const out = outputs(stack());
    const id = String(out.projectId);
    const [branch] = (await world.api.branches.list(id)).filter((b) => b.default);
    const [compute] = await world.api.endpoints.listForBranch(id, branch.id);
    const password = await world.api.roles.revealPassword(id, branch.id, "appdb_owner");
    expect(out).toMatchObject({
      name: "app",
      defaultBranchId: branch.id,
      defaultComputeId: compute.id,
      defaultComputeHost: compute.host,
      roleName: "appdb_owner",
      rolePassword: password,
      databaseName: "appdb",
      connectionUri: `postgresql://appdb_owner:${password}@${compute.host}/appdb?sslmode=require`,
    });
    expect(out.connectionUriPooled).toContain(`@${compute.id}-pooler.`);
    expect(compute.current_state).toBe("active"); // the create's operations were waited for
    // secrets never in plain text in the state
    const state = JSON.stringify(stack().exportState());
    expect(state).not.toContain(password);
    await expectNoChange(stack());
  });

  it("a new name and settings are one PATCH, not a replacement (kislerdm#218)", async () => {
    const id = String(outputs(stack()).projectId);
    Object.assign(args, { name: "renamed", settings: { allowedIps: ["10.0.0.0/8"] }, historyRetentionSeconds: 3600 });
    const up = ok(await stack().up());
    expect(ops(up, "app")).toEqual(["update app"]);
    expect(writes(up)).toEqual([`PATCH /projects/${id}`]);
    const project = await world.api.projects.get(id);
    expect(project).toMatchObject({ name: "renamed", history_retention_seconds: 3600 });
    expect(project.settings?.allowed_ips?.ips).toEqual(["10.0.0.0/8"]);
    await expectNoChange(stack());
  });

  it("a new default size PATCHes the project and its default compute, warned as a restart (kislerdm#234)", async () => {
    const { projectId: id, defaultComputeId: compute } = outputs(stack());
    args.defaultEndpointSettings = { autoscalingLimitMinCu: 0.5, autoscalingLimitMaxCu: 2 };
    const preview = ok(await stack().preview());
    expect(preview.warnings.join("\n")).toContain(
      `Project "app" (${id}): its default compute ${compute} will restart if it is running: defaultEndpointSettings ` +
        "autoscalingLimitMinCu 0.25 -> 0.5, autoscalingLimitMaxCu 0.25 -> 2",
    );
    const up = ok(await stack().up());
    expect(writes(up)).toEqual([`PATCH /projects/${id}`, `PATCH /projects/${id}/endpoints/${compute}`]);
    expect(await world.api.endpoints.get(id, compute)).toMatchObject({
      autoscaling_limit_min_cu: 0.5,
      autoscaling_limit_max_cu: 2,
    });
    await expectNoChange(stack());
  });

  it("a change of the default names is refused at preview, saying how to rename them", async () => {
    args.branch = { databaseName: "otherdb" };
    const preview = await stack().preview();
    expect(preview.error?.message).toContain('branch: databaseName "appdb" -> "otherdb": these names act only');
    args.branch = { databaseName: "appdb" };
  });

  it("a new region: refused while deletionProtection holds; a replacement once it is false", async () => {
    args.regionId = "aws-eu-central-1";
    const refused = await stack().preview();
    expect(refused.error?.message).toContain("regionId: changed while deletionProtection is true");
    args.regionId = "aws-us-east-2";
    const before = await stack().destroy();
    expect(before.error?.message ?? "").toMatch(/protect/);
    expect(writes(before)).toEqual([]);

    args.deletionProtection = false;
    const unprotect = ok(await stack().up());
    expect(writes(unprotect)).toEqual([]);
    expect(stack().state.resources.find((r) => r.urn.endsWith("::app"))?.protect).toBeFalsy();
    args.regionId = "aws-eu-central-1";
    const replace = ok(await stack().preview());
    expect(ops(replace, "app")).toContain("replace app");
    expect(replace.warnings.join("\n")).toContain("a new, empty project is created");
    args.regionId = "aws-us-east-2";
  });

  it("destroy after deletionProtection: false deletes it, naming its branches and databases", async () => {
    const id = String(outputs(stack()).projectId);
    const destroy = ok(await stack().destroy());
    expect(writes(destroy)).toEqual([`DELETE /projects/${id}`]);
    expect(destroy.warnings.join("\n")).toContain("is being deleted with its branches and databases: main (");
    expect(destroy.warnings.join("\n")).toContain("appdb");
    expect((await world.api.projects.listAll()).map((p) => p.id)).not.toContain(id);
  });
});

describe("Project adoption by id", () => {
  it("adopts a project without creating one, previews no change, and never deletes it", async () => {
    const existing = await world.api.projects.create({ name: "kept" });
    const id = existing.project.id;
    const args: ProjectArgs = { adoptId: id, historyRetentionSeconds: 7200 };
    const stack = projectStack(args);
    const up = ok(await stack.up());
    expect(writes(up)).toEqual([`PATCH /projects/${id}`]);
    expect(outputs(stack)).toMatchObject({
      projectId: id,
      name: "kept",
      defaultBranchId: existing.branch.id,
      roleName: "neondb_owner",
      databaseName: "neondb",
      rolePassword: existing.roles.find((r) => r.password)?.password,
    });
    await expectNoChange(stack, false);
    args.deletionProtection = false;
    ok(await stack.up());
    const destroy = ok(await stack.destroy());
    expect(writes(destroy)).toEqual([]);
    expect(destroy.warnings.join("\n")).toContain(`was not deleted: it was adopted`);
    expect((await world.api.projects.get(id)).name).toBe("kept");
  });
});

describe("the provider's own guard", () => {
  it("with protect: false in the options, Delete still refuses while deletionProtection is true", async () => {
    const args: ProjectArgs = {};
    const stack = world.stack(() => ({ id: new Project("open", args, { protect: false }).projectId }));
    ok(await stack.up({ skipPreview: true }));
    const id = String(outputs(stack).id);
    const refused = await stack.destroy({ skipPreview: true });
    expect(refused.error?.message).toContain(`Project "open" (${id}) was not deleted: deletionProtection is true`);
    expect(writes(refused)).toEqual([]);
    args.deletionProtection = false;
    ok(await stack.up({ skipPreview: true }));
    ok(await stack.destroy({ skipPreview: true }));
    expect((await world.api.projects.listAll()).map((p) => p.id)).not.toContain(id);
  });
});
