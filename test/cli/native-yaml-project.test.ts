/**
 * examples/project-from-scratch-yaml through the real CLI, its YAML language host and the native plugin
 * (bin/pulumi-resource-neon), against the emulator (issue 26, item 8): a project from nothing, then on each of the
 * branches dev and staging of its default branch a read-write compute, a role and a database, and their connection
 * strings as outputs. The program is the example's, with the plugin's path made absolute (test/cli/program-dir.ts).
 *
 * One stack, made with `deletionProtection` false: preview (no request), up (the project, then the eight objects on
 * its branches), a preview and an up that change nothing and send nothing, a rename of the project that previews as
 * an update of the project alone (the native plugin answers previews, so the branches' `parentId` stays known),
 * `deletionProtection` true (a destroy refused before anything is deleted) and false again, and destroy, which deletes the project last and leaves the account's projects as they were. The API key and every
 * role's password are in no command's output (but the one `--show-secrets` asks for) and no file of the backend.
 *
 * Guards: a YAML program that cannot declare a project (the plugin's schema, the type tokens), a second run that is not
 * a no-op (kislerdm#179: connection strings and default ids "known after apply"), a connection string output in plain
 * text, a destroy that leaves the project behind.
 */
import * as fs from "fs";
import * as path from "path";
import { parse, stringify } from "yaml";
import { NeonClient } from "../../client";
import { Emulator, startEmulator } from "../../emulator";
import { cliRootOrThrow } from "./cli-world";
import { NATIVE_PLUGIN_YAML, ProgramDir, readYamlProject, Run, YamlProject, yamlHostOrThrow } from "./program-dir";

const REPO_ROOT = path.resolve(__dirname, "../../..");
const EXAMPLE_DIR = path.join(REPO_ROOT, "examples", "project-from-scratch-yaml");
const ENVIRONMENTS = ["dev", "staging"];

interface PreviewJson {
  steps: { op: string; urn: string }[];
  changeSummary: Record<string, number>;
}

const example = readYamlProject(EXAMPLE_DIR);

let emulator: Emulator;
let dir: ProgramDir;

beforeAll(async () => {
  const cliRoot = cliRootOrThrow();
  yamlHostOrThrow(cliRoot);
  emulator = await startEmulator({ operationDurationMs: 20, rateLimit: false });
  const { config, resources, outputs } = example;
  dir = new ProgramDir({
    prefix: "native-yaml-project",
    project: example.name,
    yaml: true,
    pulumiYaml: NATIVE_PLUGIN_YAML,
    program: stringify({ config, resources, outputs }).split("\n"),
    emulator,
    cliRoot,
  });
});

afterAll(async () => {
  await dir?.dispose();
  await emulator?.close();
});

const writes = (run: Run) => run.requests.filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path}`);
const previewOf = (run: Run) => JSON.parse(run.stdout) as PreviewJson;
/** "op name" of a preview's steps of the plugin's resources, sorted. */
const ops = (run: Run) =>
  previewOf(run)
    .steps.filter((s) => s.urn.includes("::neon:index:"))
    .map((s) => `${s.op} ${s.urn.split("::").at(-1)}`)
    .sort();

it("the example's plugin path, relative to its Pulumi.yaml, is this repository's bin/", () => {
  const [provider] = example.plugins.providers;
  expect(provider.name).toBe("neon");
  expect(path.resolve(EXAMPLE_DIR, provider.path)).toBe(path.join(REPO_ROOT, "bin"));
});

it("a project from nothing in YAML: preview, up, no change twice, a project rename previewed, destroy", async () => {
  const started = Date.now();
  const api = new NeonClient({ apiKey: emulator.apiKey, apiUrl: emulator.baseUrl, rateLimit: false });
  const projectIds = async () => (await api.projects.listAll()).map((p) => p.id).sort();
  const before = await projectIds();
  await dir.ok(["stack", "init", "dev"]);
  await dir.ok([
    ...["config", "set-all", "--plaintext", "deletionProtection=false"],
    ...["--plaintext", `neon:apiUrl=${emulator.baseUrl}`, "--secret", `neon:apiKey=${emulator.apiKey}`],
  ]);

  const names = ["app", ...ENVIRONMENTS.flatMap((e) => [e, `${e}-compute`, `${e}-role`, `${e}-database`])];
  const first = await dir.ok(["preview", "--json"]);
  expect(ops(first)).toEqual(names.map((name) => `create ${name}`).sort());
  expect(first.requests).toEqual([]);

  const up = await dir.ok(["up", "--yes", "--skip-preview"]);
  const [projectId] = (await projectIds()).filter((id) => !before.includes(id));
  const branches = await api.branches.list(projectId);
  const main = branches.find((b) => b.default)!;
  const env = Object.fromEntries(ENVIRONMENTS.map((e) => [e, branches.find((b) => b.name === e)!]));
  const onProject = `/projects/${projectId}`;
  expect(writes(up).sort()).toEqual(
    [
      "POST /projects",
      ...ENVIRONMENTS.flatMap((e) => [
        `POST ${onProject}/branches`,
        `POST ${onProject}/endpoints`,
        `POST ${onProject}/branches/${env[e].id}/roles`,
        `POST ${onProject}/branches/${env[e].id}/databases`,
      ]),
    ].sort(),
  );
  for (const e of ENVIRONMENTS) expect(env[e].parent_id).toBe(main.id);

  const outputs = JSON.parse((await dir.ok(["stack", "output", "--json"])).stdout) as Record<string, unknown>;
  expect(outputs).toEqual({
    projectId,
    defaultBranchId: main.id,
    devBranchId: env.dev.id,
    stagingBranchId: env.staging.id,
    mainDatabaseUrl: "[secret]",
    devDatabaseUrl: "[secret]",
    devDatabaseUrlPooled: "[secret]",
    stagingDatabaseUrl: "[secret]",
    stagingDatabaseUrlPooled: "[secret]",
  });
  // The connection string reaches dev's database as its own role, with that role's password.
  const [devCompute] = await api.endpoints.listForBranch(projectId, env.dev.id);
  const devPassword = await api.roles.revealPassword(projectId, env.dev.id, "app");
  const shown = await dir.ok(["stack", "output", "devDatabaseUrl", "--show-secrets"]);
  expect(shown.stdout.trim()).toBe(`postgresql://app:${devPassword}@${devCompute.host}/app?sslmode=require`);

  const samePreview = await dir.ok(["preview", "--json", "--expect-no-changes"]);
  expect(previewOf(samePreview).changeSummary).toEqual({ same: names.length + 1 });
  expect(samePreview.requests).toEqual([]);
  const again = await dir.ok(["up", "--yes", "--skip-preview", "--expect-no-changes"]);
  expect(again.requests).toEqual([]);

  // A change of the project itself: an update of the project alone in the preview (the plugin answers previews, so
  // defaultBranchId stays known and the branches are not replaced), and nothing sent. The program is put back.
  const program = path.join(dir.program, "Pulumi.yaml");
  const text = fs.readFileSync(program, "utf8");
  const renamed = parse(text) as YamlProject;
  renamed.resources.app.properties.name = "app-renamed";
  fs.writeFileSync(program, stringify(renamed));
  const rename = await dir.ok(["preview", "--json"]);
  expect(ops(rename).filter((op) => !op.startsWith("same "))).toEqual(["update app"]);
  expect(rename.requests).toEqual([]);
  fs.writeFileSync(program, text);

  // deletionProtection true protects the project (the program's `protect: ${deletionProtection}`): the up sends
  // nothing, and a destroy is refused in its preview, before anything is deleted; set false again, an up lets it go.
  await dir.ok(["config", "set", "deletionProtection", "true"]);
  const protect = await dir.ok(["up", "--yes", "--skip-preview"]);
  expect(writes(protect)).toEqual([]);
  const app = dir.checkpoint().resources!.find((r) => r.urn.endsWith("::neon:index:Project::app"));
  expect(app).toMatchObject({ protect: true });
  // Refused in the destroy's preview. (With --skip-preview there is none, and the engine deletes what stands on the
  // project before it reaches the protected project itself.)
  const refused = await dir.run(["destroy", "--yes"]);
  expect(refused.code).not.toBe(0);
  expect(refused.stdout + refused.stderr).toContain("protected");
  expect(writes(refused)).toEqual([]);
  await dir.ok(["config", "set", "deletionProtection", "false"]);
  const unprotect = await dir.ok(["up", "--yes", "--skip-preview"]);
  expect(writes(unprotect)).toEqual([]);

  // The key and every role's password in no output (but the one --show-secrets asked for) and no file of the backend.
  const secrets = [
    emulator.apiKey,
    await api.roles.revealPassword(projectId, main.id, "neondb_owner"),
    ...(await Promise.all(ENVIRONMENTS.map((e) => api.roles.revealPassword(projectId, env[e].id, "app")))),
  ];
  const destroyed = await dir.ok(["destroy", "--yes", "--skip-preview"]);
  expect(writes(destroyed).at(-1)).toBe(`DELETE ${onProject}`);
  expect(writes(destroyed)).toHaveLength(9);
  expect(await projectIds()).toEqual(before);

  const backend = path.join(dir.root, "backend");
  const files = fs.readdirSync(backend, { recursive: true, withFileTypes: true }).filter((f) => f.isFile());
  for (const file of files) {
    const content = fs.readFileSync(path.join(file.parentPath, file.name), "utf8");
    for (const secret of secrets)
      expect({ file: file.name, leaked: content.includes(secret) }).toMatchObject({ leaked: false });
  }
  for (const run of [first, up, samePreview, again, rename, protect, refused, unprotect, destroyed]) {
    for (const secret of secrets) expect(run.stdout + run.stderr).not.toContain(secret);
  }
  console.log(`A project from nothing in YAML through the native plugin and the CLI: ${Date.now() - started} ms`);
});
