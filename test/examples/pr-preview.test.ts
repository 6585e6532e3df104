/**
 * examples/pr-preview end to end, through the local engine against the emulator, as its pipeline runs it: a stack per
 * pull request (`pr-<number>`). Two pull requests open at once (their `up`s run together, in one project), each gets
 * a branch named after its stack with a compute and a database, and secret connection strings that reach them; a
 * second `up` is a no-op; a push that moves `expiresAt` (and changes the pull request's URL, which the branch's annotations
 * keep as they were made) is one PATCH of the branch; then one pull request closes
 * (`destroy`), which leaves exactly the other's branch, compute and database.
 */
import * as fs from "fs";
import * as path from "path";
import { LocalStack, moduleProgram } from "../../testing";
import { neonWorld, NeonWorld, ok, REPO_ROOT, writes } from "../plugin/world";

const EXAMPLE_DIR = path.join(REPO_ROOT, "examples", "pr-preview");
const PROJECT = /^name:\s*(\S+)/m.exec(fs.readFileSync(path.join(EXAMPLE_DIR, "Pulumi.yaml"), "utf8"))![1];
const DAY_MS = 24 * 3600 * 1000;

let world: NeonWorld;
beforeAll(async () => {
  world = await neonWorld();
});
afterAll(() => world?.stop());

/** RFC 3339 to the second, `days` ahead of the emulator's clock. */
function daysAhead(days: number): string {
  return new Date(world.emulator.clock.now() + days * DAY_MS).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** The stack a pull request's pipeline runs: its name, the project, a week's expiry, the pull request's URL. */
function pullRequestStack(pr: number): LocalStack {
  return new LocalStack({
    program: moduleProgram(path.join(REPO_ROOT, "dist", "examples", "pr-preview", "index.js")),
    project: PROJECT,
    stack: `pr-${pr}`,
    cwd: EXAMPLE_DIR,
    parallel: 10,
    requestLog: world.emulator,
    env: { ...process.env, NEON_API_KEY: "", NEON_API_HOST: "" },
    config: {
      "neon:apiKey": { secret: world.emulator.apiKey },
      "neon:apiUrl": world.emulator.baseUrl,
      projectId: world.projectId,
      expiresAt: daysAhead(7),
      prUrl: `https://github.com/acme/app/pull/${pr}`,
    },
  });
}

const branchNames = async () => (await world.api.branches.list(world.projectId)).map((b) => b.name).sort();

it("two pull requests at once, then one closed, leave exactly the other's branch", async () => {
  const [pr1, pr2] = [pullRequestStack(1), pullRequestStack(2)];
  const before = await branchNames();

  const preview = ok(await pr1.preview());
  expect(preview.steps.filter((s) => s.op === "create").map((s) => s.name)).toEqual(
    expect.arrayContaining(["preview", "compute", "app"]),
  );
  expect(preview.outputs).toMatchObject({ databaseUrl: "[unknown]", databaseUrlPooled: "[unknown]" });

  const mark = world.emulator.requests.length;
  const ups = await Promise.all([pr1.up(), pr2.up()]);
  for (const up of ups) ok(up);
  const statuses = world.emulator.requests.slice(mark).map((r) => r.status);
  expect(statuses.filter((s) => s === 423)).toEqual([]); // one project, two stacks at once: no 423

  expect(await branchNames()).toEqual([...before, "pr-1", "pr-2"].sort());
  for (const [pr, stack] of [
    [1, pr1],
    [2, pr2],
  ] as const) {
    const shown = stack.outputs({ showSecrets: true });
    expect(stack.outputs()).toMatchObject({ databaseUrl: "[secret]", databaseUrlPooled: "[secret]" });
    expect(shown.branchName).toBe(`pr-${pr}`);
    const url = new URL(String(shown.databaseUrl));
    expect([url.username, url.host, url.pathname]).toEqual(["neondb_owner", String(shown.host), "/app"]);
    const pooled = new URL(String(shown.databaseUrlPooled));
    expect(pooled.host).not.toBe(url.host);
    // The password is the inherited owner role's, as the service reveals it on the pull request's branch.
    const password = await world.api.roles.revealPassword(world.projectId, String(shown.branchId), "neondb_owner");
    expect(decodeURIComponent(url.password)).toBe(password);
    expect(stack.exportState()).not.toContain(password);
    const databases = await world.api.databases.list(world.projectId, String(shown.branchId));
    expect(databases.map((d) => d.name)).toContain("app");
    const branch = (await world.api.branches.get(world.projectId, String(shown.branchId))).branch;
    expect(branch.expires_at).toBeDefined();
  }

  const again = ok(await pr1.up());
  expect(writes(again)).toEqual([]);
  expect(again.steps.filter((s) => s.op !== "same")).toEqual([]);

  // A later push moves the expiry; the pull request's URL changed too (the repository renamed, say): the branch keeps
  // the annotations it was created with (ignoreChanges: Neon sets them only at creation), so nothing fails.
  pr1.setConfig({ expiresAt: daysAhead(8), prUrl: "https://github.com/acme/renamed/pull/1" });
  // The preview reviewers see: the branch updated in place, nothing else (its id stays known in the preview of its
  // update, so the compute and the database on it show no change).
  const pushPreview = ok(await pr1.preview());
  expect(
    pushPreview.steps
      .filter((s) => s.op !== "same" && s.type.startsWith("pulumi-nodejs:dynamic/neon:"))
      .map((s) => `${s.op} ${s.name}`),
  ).toEqual(["update preview"]);
  expect(pushPreview.warnings).toEqual([]);
  const push = ok(await pr1.up());
  const branchId = String(pr1.outputs().branchId);
  expect(writes(push)).toEqual([`PATCH /projects/${world.projectId}/branches/${branchId}`]);

  ok(await pr1.destroy()); // the first pull request closes
  expect(await branchNames()).toEqual([...before, "pr-2"].sort());
  const pr2Branch = String(pr2.outputs().branchId);
  expect((await world.api.endpoints.list(world.projectId)).filter((e) => e.branch_id === branchId)).toEqual([]);
  expect((await world.api.endpoints.list(world.projectId)).filter((e) => e.branch_id === pr2Branch)).toHaveLength(1);
  expect((await world.api.databases.list(world.projectId, pr2Branch)).map((d) => d.name)).toContain("app");

  ok(await pr2.destroy());
  expect(await branchNames()).toEqual(before);
});
