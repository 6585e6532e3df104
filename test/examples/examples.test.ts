/**
 * The examples as user programs: each compiled example runs through the local engine (a new plugin process per
 * command, started in the example's own directory) against the emulator, as `pulumi up` runs it.
 *
 * Guards: an example that does not resolve the package by name (it would fail for a user), a second `up` that is
 * not a no-op, a size change without the restart warning, a branch move that is not one PATCH, a project example
 * whose connection strings do not reach its databases or whose destroy leaves the project (or deletes it unasked).
 */
import axios from "axios";
import * as fs from "fs";
import * as path from "path";
import { LocalStack, moduleProgram } from "../../testing";
import { neonWorld, NeonWorld, ok, ops, outputs, REPO_ROOT, writes } from "../plugin/world";

const EXAMPLES = ["primary-replica-key", "autoscaling", "branch-move", "project-from-scratch"];

/** The example's source directory, where a user runs `pulumi up` and where the plugin starts. */
const sourceDir = (name: string) => path.join(REPO_ROOT, "examples", name);

/** The example as its project: its Pulumi.yaml name, its compiled program, its config on the `dev` branch. */
function exampleStack(world: NeonWorld, name: string, config: Record<string, string> = {}): LocalStack {
  const project = /^name:\s*(\S+)/m.exec(fs.readFileSync(path.join(sourceDir(name), "Pulumi.yaml"), "utf8"))![1];
  return new LocalStack({
    program: moduleProgram(path.join(REPO_ROOT, "dist", "examples", name, "index.js")),
    project,
    cwd: sourceDir(name),
    requestLog: world.emulator,
    env: { ...process.env, NEON_API_KEY: "", NEON_API_HOST: "" },
    config: {
      "neon:apiKey": { secret: world.emulator.apiKey },
      "neon:apiUrl": world.emulator.baseUrl,
      projectId: world.projectId,
      branchId: world.branches.dev,
      ...config,
    },
  });
}

describe("each example resolves the package by name from its own directory", () => {
  it.each(EXAMPLES)("%s", (name) => {
    const resolved = fs.realpathSync(require.resolve("pulumi-neon-dynamic", { paths: [sourceDir(name)] }));
    expect(resolved).toBe(path.join(REPO_ROOT, "dist", "provider", "index.js"));
    const impl = fs.realpathSync(
      require.resolve("pulumi-neon-dynamic/provider/compute/impl", { paths: [sourceDir(name)] }),
    );
    expect(impl).toBe(path.join(REPO_ROOT, "dist", "provider", "compute", "impl.js"));
  });
});

/** The first TypeScript block of a markdown file after `heading`. */
function snippetAfter(markdownFile: string, heading: string): string {
  const markdown = fs.readFileSync(path.join(REPO_ROOT, markdownFile), "utf8");
  expect(markdown).toContain(heading);
  const section = markdown.slice(markdown.indexOf(heading));
  return /```ts\n([\s\S]*?)```/.exec(section)?.[1] ?? "";
}

// Guard: the READMEs' test had a placeholder branch id ("br-…"), no check of `error` and jest's 5 s timeout, so it
// failed as written. It is now this example file, which `npm test` runs (dist/examples/testing-your-program). The
// README's section "Testing your own programs offline" moved to docs/testing.md, whose steps in an empty directory
// test/package/empty-directory.test.ts also runs as written.
describe("the documentation shows a test of a program that runs as written", () => {
  const example = fs.readFileSync(path.join(sourceDir("testing-your-program"), "size-change.test.ts"), "utf8");
  it.each([
    ["docs/testing.md", "## In an empty directory"],
    ["testing/README.md", "## Use"],
  ])("%s: its snippet is examples/testing-your-program/size-change.test.ts", (file, heading) => {
    expect(snippetAfter(file, heading)).toBe(example);
  });
});

/** The organization of example (a)'s world, which holds its project (as in the demo). */
const ORG = "org-example-calm-lake-12345678";

/** The status a request with `key` gets. */
async function statusWith(world: NeonWorld, key: string, path: string): Promise<number> {
  const response = await axios.get(`${world.emulator.baseUrl}${path}`, {
    headers: { Authorization: `Bearer ${key}` },
    validateStatus: () => true,
  });
  return response.status;
}

describe("example (a): primary, read replica and a CI key limited to the project", () => {
  let world: NeonWorld;
  let stack: LocalStack;
  beforeAll(async () => {
    world = await neonWorld({ emulator: { organization: ORG } });
    stack = exampleStack(world, "primary-replica-key", { orgId: ORG });
  });
  afterAll(() => world.stop());

  it("up creates the three resources and exports hosts, pooled host, maxConnections and the key, hidden", async () => {
    const up = ok(await stack.up());
    expect(ops(up)).toEqual(["create ci", "create primary", "create replica"]);
    const computes = await world.api.endpoints.listForBranch(world.projectId, world.branches.dev);
    const primary = computes.find((c) => c.type === "read_write")!;
    const replica = computes.find((c) => c.type === "read_only")!;
    expect(up.outputs).toMatchObject({ primaryHost: primary.host, replicaHost: replica.host, maxConnections: 225 });
    expect(up.outputs.primaryPoolerHost).toBe(primary.host.replace(primary.id, `${primary.id}-pooler`));
    expect(up.outputs.ciApiKey).toBe("[secret]");
    expect(outputs(stack).ciApiKey).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect(stack.exportState()).not.toContain(outputs(stack).ciApiKey);
  });

  it("the CI key is limited to the project: it reads the project's computes, and may not list projects", async () => {
    expect(outputs(stack).ciKeyProjectId).toBe(world.projectId);
    const key = outputs(stack).ciApiKey;
    expect(await statusWith(world, key, `/projects/${world.projectId}/endpoints`)).toBe(200);
    expect(await statusWith(world, key, "/projects")).toBe(403);
  });

  it("a second up changes nothing and sends no request", async () => {
    const up = ok(await stack.up());
    expect(ops(up)).toEqual(["same ci", "same primary", "same replica"]);
    expect(up.requests).toEqual([]);
  });

  it("destroy removes the computes and revokes the key", async () => {
    const ids = stack.state.resources.filter((r) => r.type.endsWith("Compute")).map((r) => r.id);
    const keyId = Number(outputs(stack).ciKeyId);
    ok(await stack.destroy());
    expect(stack.state.resources).toEqual([]);
    const left = (await world.api.endpoints.list(world.projectId)).map((c) => c.id);
    for (const id of ids) expect(left).not.toContain(id);
    expect((await world.api.orgApiKeys.list(ORG)).map((k) => k.id)).not.toContain(keyId);
  });
});

describe("example (b): autoscaling from config", () => {
  let world: NeonWorld;
  let stack: LocalStack;
  beforeAll(async () => {
    world = await neonWorld();
    stack = exampleStack(world, "autoscaling");
  });
  afterAll(async () => {
    await stack.destroy();
    await world.stop();
  });

  it("up creates the compute with the default range 0.25 to 2 CU", async () => {
    const up = ok(await stack.up());
    expect(ops(up)).toEqual(["create app"]);
    expect(up.outputs).toMatchObject({ minCu: 0.25, maxCu: 2, maxConnections: 112 });
  });

  it("changing maxCu previews an update with the restart warning, then updates in place", async () => {
    stack.setConfig({ maxCu: 4 });
    const id = stack.state.resources.find((r) => r.urn.endsWith("::app"))!.id;
    const planned = ok(await stack.preview());
    expect(ops(planned)).toEqual(["update app"]);
    expect(planned.requests).toEqual([]);
    expect(planned.warnings).toContain(
      `Compute "app" (${id}) will restart if it is running: autoscalingLimitMaxCu 2 -> 4; its open connections will drop.`,
    );
    const up = ok(await stack.up());
    expect(ops(up)).toEqual(["update app"]);
    expect(writes(up)).toEqual([`PATCH /projects/${world.projectId}/endpoints/${id}`]);
    expect(up.outputs).toMatchObject({ maxCu: 4, minCu: 0.25 });
  });
});

describe("example (c): branch move from config", () => {
  let world: NeonWorld;
  let stack: LocalStack;
  beforeAll(async () => {
    world = await neonWorld();
    stack = exampleStack(world, "branch-move");
  });
  afterAll(async () => {
    await stack.destroy();
    await world.stop();
  });

  it("changing branchId moves the compute with one PATCH, keeping its id and host", async () => {
    const first = ok(await stack.up());
    expect(ops(first)).toEqual(["create db"]);
    stack.setConfig({ branchId: world.branches.staging });
    const up = ok(await stack.up());
    expect(ops(up)).toEqual(["update db"]);
    expect(writes(up)).toEqual([`PATCH /projects/${world.projectId}/endpoints/${first.outputs.computeId}`]);
    expect(up.outputs).toEqual({ ...first.outputs, branchId: world.branches.staging });
    const moved = await world.api.endpoints.get(world.projectId, String(up.outputs.computeId));
    expect(moved.branch_id).toBe(world.branches.staging);
  });
});

describe("example (d): a project from nothing, a branch per environment", () => {
  const ENVIRONMENTS = ["dev", "staging"];
  let world: NeonWorld;
  let stack: LocalStack;
  let projectsBefore: string[];
  /** "op name" of the steps of the example's resources (neither the stack nor the default provider) but "same". */
  const changed = (result: { steps: { op: string; name: string; type: string }[] }) =>
    result.steps.filter((s) => s.op !== "same" && s.type.includes("neon:")).map((s) => `${s.op} ${s.name}`);
  const projectIds = async () => (await world.api.projects.listAll()).map((p) => p.id).sort();
  beforeAll(async () => {
    world = await neonWorld();
    projectsBefore = await projectIds();
    // As a user copies it: deletionProtection left at its default (true). No projectId: the program makes one.
    stack = new LocalStack({
      program: moduleProgram(path.join(REPO_ROOT, "dist", "examples", "project-from-scratch", "index.js")),
      project: "neon-project-from-scratch",
      cwd: sourceDir("project-from-scratch"),
      requestLog: world.emulator,
      env: { ...process.env, NEON_API_KEY: "", NEON_API_HOST: "" },
      config: { "neon:apiKey": { secret: world.emulator.apiKey }, "neon:apiUrl": world.emulator.baseUrl },
    });
  });
  afterAll(async () => {
    // A test that failed midway left the stack's resources: let them go too.
    if (stack.state.resources.length > 0) {
      stack.setConfig({ deletionProtection: "false" });
      await stack.up();
      await stack.destroy();
    }
    await world.stop();
  });

  it("up makes the project, and on each environment's branch of its default branch a compute, a role and a database", async () => {
    const up = ok(await stack.up());
    expect(
      up.steps
        .filter((s) => s.op === "create" && s.type.includes("neon:"))
        .map((s) => `${s.type.split(":").at(-1)} ${s.name}`)
        .sort(),
    ).toEqual(
      [
        "Project app",
        "Branch main", // adopted: no request creates it (below)
        ...ENVIRONMENTS.flatMap((e) => [`Branch ${e}`, `Compute ${e}`, `Role ${e}`, `Database ${e}`]),
      ].sort(),
    );
    // The default branch is adopted, not made: the only branches created are the environments'.
    expect(writes(up).filter((w) => /^POST \/projects\/[^/]+\/branches$/.test(w))).toHaveLength(ENVIRONMENTS.length);
    const out = outputs(stack);
    expect(await projectIds()).toEqual([...projectsBefore, out.projectId].sort());
    for (const env of ENVIRONMENTS) {
      const branchId = out[`${env}BranchId`];
      const { branch } = await world.api.branches.get(out.projectId, branchId);
      expect(branch).toMatchObject({ name: env, parent_id: out.defaultBranchId });
      const [compute, ...others] = await world.api.endpoints.listForBranch(out.projectId, branchId);
      expect(others).toEqual([]);
      expect(compute).toMatchObject({
        type: "read_write",
        autoscaling_limit_min_cu: 0.25,
        autoscaling_limit_max_cu: 1,
      });
      // Each connection string reaches its environment's database as its own role, with that role's password.
      for (const [key, host] of [
        [`${env}DatabaseUrl`, compute.host],
        [`${env}DatabaseUrlPooled`, compute.host.replace(compute.id, `${compute.id}-pooler`)],
      ]) {
        const url = new URL(out[key]);
        expect([url.username, url.host, url.pathname]).toEqual(["app", host, "/app"]);
        expect(decodeURIComponent(url.password)).toBe(
          await world.api.roles.revealPassword(out.projectId, branchId, "app"),
        );
        expect(up.outputs[key]).toBe("[secret]");
        expect(stack.exportState()).not.toContain(url.password);
      }
    }
    expect(new URL(out.mainDatabaseUrl).pathname).toBe("/neondb");
  });

  it("a second up changes nothing and sends no request", async () => {
    const up = ok(await stack.up());
    expect(changed(up)).toEqual([]);
    expect(up.requests).toEqual([]);
  });

  it("devMaxCu 2 updates the dev compute alone (the restart warning, one PATCH)", async () => {
    const { projectId, devBranchId } = outputs(stack);
    const [dev] = await world.api.endpoints.listForBranch(projectId, devBranchId);
    stack.setConfig({ devMaxCu: 2 });
    const planned = ok(await stack.preview());
    expect(changed(planned)).toEqual(["update dev"]);
    expect(planned.requests).toEqual([]);
    expect(planned.warnings).toContain(
      `Compute "dev" (${dev.id}) will restart if it is running: autoscalingLimitMaxCu 1 -> 2; its open connections will drop.`,
    );
    const up = ok(await stack.up());
    expect(writes(up)).toEqual([`PATCH /projects/${projectId}/endpoints/${dev.id}`]);
  });

  it("left protected, destroy is refused before anything is deleted", async () => {
    const destroy = await stack.destroy();
    expect(String(destroy.error)).toMatch(/neon:Project::app" cannot be deleted\nbecause it is protected/);
    expect(writes(destroy)).toEqual([]);
    expect(await projectIds()).toContain(outputs(stack).projectId);
  });

  it("deletionProtection false, an up that sends nothing, then destroy deletes the project and all in it", async () => {
    const { projectId } = outputs(stack);
    stack.setConfig({ deletionProtection: "false" });
    const up = ok(await stack.up());
    expect(changed(up)).toEqual(["update app"]);
    expect(writes(up)).toEqual([]);
    const destroy = ok(await stack.destroy());
    expect(writes(destroy).at(-1)).toBe(`DELETE /projects/${projectId}`);
    expect(stack.state.resources).toEqual([]);
    expect(await projectIds()).toEqual(projectsBefore);
  });
});
