/**
 * A YAML program through the native plugin (bin/pulumi-resource-neon), run by the real CLI and its YAML language host
 * (`pulumi-language-yaml`, built beside `pulumi` by `npm run pulumi:install`) against the emulator (issue 25, item 5).
 * The program is examples/yaml-native's (a branch, a read-write compute on it, a role and a database), with the plugin's
 * path made absolute; YAML needs no SDK: the host reads the resources' types from the plugin's GetSchema.
 *
 * One stack: preview (no request), up (the four creates), a second up that changes nothing and sends nothing, a resize
 * whose `preview --json` names the size in `detailedDiff` and carries the restart warning as a warning of the compute's
 * URN, its up (one PATCH), `pulumi import` of a branch made outside Pulumi by its Terraform id with the code the YAML
 * host generates for it added to the program (then a preview with no change), a refresh with no change, and destroy,
 * which deletes the five. The API key and the role's password are in no state file and no output in plain text.
 */
import * as fs from "fs";
import * as path from "path";
import { parse, stringify } from "yaml";
import { NeonClient } from "../../client";
import { Emulator, startEmulator } from "../../emulator";
import { cliRootOrThrow } from "./cli-world";
import { NATIVE_PLUGIN_YAML, ProgramDir, readYamlProject, Run, YamlProject, yamlHostOrThrow } from "./program-dir";

const REPO_ROOT = path.resolve(__dirname, "../../..");
const EXAMPLE_DIR = path.join(REPO_ROOT, "examples", "yaml-native");
const PROJECT = "neon-yaml-native";

const example = readYamlProject(EXAMPLE_DIR);

let emulator: Emulator;
let dir: ProgramDir;

beforeAll(async () => {
  const cliRoot = cliRootOrThrow();
  yamlHostOrThrow(cliRoot);
  emulator = await startEmulator({ operationDurationMs: 20, rateLimit: false });
  const { config, resources, outputs } = example;
  dir = new ProgramDir({
    prefix: "native-yaml",
    project: PROJECT,
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

interface PreviewJson {
  steps: { op: string; urn: string; detailedDiff?: Record<string, { kind: string; inputDiff: boolean }> | null }[];
  diagnostics?: { urn?: string; message: string; severity: string }[];
  changeSummary: Record<string, number>;
}

const writes = (run: Run) => run.requests.filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path}`);
const previewOf = (run: Run) => JSON.parse(run.stdout) as PreviewJson;
/** "op name" of a preview's steps of the plugin's resources. */
const ops = (preview: PreviewJson) =>
  preview.steps.filter((s) => s.urn.includes("::neon:index:")).map((s) => `${s.op} ${s.urn.split("::").at(-1)}`);

it("the example's plugin path, relative to its Pulumi.yaml, is this repository's bin/", () => {
  const [provider] = example.plugins.providers;
  expect(provider.name).toBe("neon");
  expect(path.resolve(EXAMPLE_DIR, provider.path)).toBe(path.join(REPO_ROOT, "bin"));
  expect(fs.existsSync(path.join(REPO_ROOT, "bin", "pulumi-resource-neon"))).toBe(true);
});

it("preview, up, an up with no change, a resize, import, refresh and destroy of a YAML program", async () => {
  const started = Date.now();
  const { projectId } = emulator;
  const api = new NeonClient({ apiKey: emulator.apiKey, apiUrl: emulator.baseUrl, rateLimit: false });
  await dir.ok(["stack", "init", "dev"]);
  await dir.ok([
    ...["config", "set-all", "--plaintext", `projectId=${projectId}`],
    ...["--plaintext", `neon:apiUrl=${emulator.baseUrl}`, "--secret", `neon:apiKey=${emulator.apiKey}`],
  ]);

  const first = await dir.ok(["preview", "--json"]);
  expect(ops(previewOf(first)).sort()).toEqual(["create app", "create appdb", "create db", "create preview"].sort());
  expect(first.requests).toEqual([]);

  const up = await dir.ok(["up", "--yes", "--skip-preview"]);
  const branch = (await api.branches.list(projectId)).find((b) => b.name === "yaml-preview")!;
  const [compute] = await api.endpoints.listForBranch(projectId, branch.id);
  expect(writes(up).sort()).toEqual(
    [
      `POST /projects/${projectId}/branches`,
      `POST /projects/${projectId}/endpoints`,
      `POST /projects/${projectId}/branches/${branch.id}/roles`,
      `POST /projects/${projectId}/branches/${branch.id}/databases`,
    ].sort(),
  );
  expect(compute).toMatchObject({ type: "read_write", autoscaling_limit_min_cu: 0.25, autoscaling_limit_max_cu: 1 });
  const outputs = JSON.parse((await dir.ok(["stack", "output", "--json"])).stdout) as Record<string, unknown>;
  expect(outputs).toEqual({ branchId: branch.id, host: compute.host, maxCu: 1, password: "[secret]" });

  const again = await dir.ok(["up", "--yes", "--skip-preview", "--expect-no-changes"]);
  expect(again.requests).toEqual([]);

  await dir.ok(["config", "set", "maxCu", "2"]);
  const resize = await dir.ok(["preview", "--json"]);
  const preview = previewOf(resize);
  const step = preview.steps.find((s) => s.urn.endsWith("::neon:index:Compute::db"))!;
  expect(step).toMatchObject({ op: "update" });
  expect(step.detailedDiff).toEqual({ autoscalingLimitMaxCu: { kind: "update", inputDiff: true } });
  expect(ops(preview).filter((op) => !op.startsWith("same "))).toEqual(["update db"]);
  const restart = (preview.diagnostics ?? []).filter((d) => /will restart/.test(d.message));
  expect(restart).toEqual([
    {
      urn: step.urn,
      severity: "warning",
      message: expect.stringMatching(/^warning: Compute "db" \(ep-[\w-]+\) will restart if it is running: /),
    },
  ]);
  expect(resize.requests).toEqual([]);
  const resized = await dir.ok(["up", "--yes", "--skip-preview"]);
  expect(writes(resized)).toEqual([`PATCH /projects/${projectId}/endpoints/${compute.id}`]);

  // A rename of the branch is an update of the branch alone: its id stays known in the preview (the plugin answers
  // previews), so the compute, role and database that use `${preview.branchId}` neither replace nor restart.
  const program = path.join(dir.program, "Pulumi.yaml");
  const before = fs.readFileSync(program, "utf8");
  const renamed = parse(before) as YamlProject;
  renamed.resources.preview.properties.name = "yaml-preview-renamed";
  fs.writeFileSync(program, stringify(renamed));
  const rename = await dir.ok(["preview", "--json"]);
  expect(ops(previewOf(rename)).filter((op) => !op.startsWith("same "))).toEqual(["update preview"]);
  expect((previewOf(rename).diagnostics ?? []).filter((d) => /will restart|replac/.test(d.message))).toEqual([]);
  expect(rename.requests).toEqual([]);
  fs.writeFileSync(program, before);

  // A branch made outside Pulumi, imported by its Terraform id; the YAML host prints the code that declares it.
  const main = (await api.branches.list(projectId)).find((b) => b.default)!;
  const { branch: outside } = await api.branches.create(projectId, { name: "outside", parent_id: main.id });
  const code = path.join(dir.root, "imported.yaml");
  const imported = await dir.ok([
    ...["import", "neon:index:Branch", "outside", `${projectId}/${outside.id}`],
    ...["--yes", "--protect=false", "--out", code],
  ]);
  expect(writes(imported)).toEqual([]);
  const generated = (parse(fs.readFileSync(code, "utf8")) as Pick<YamlProject, "resources">).resources;
  expect(generated.outside).toMatchObject({ properties: { projectId, name: "outside", parentId: main.id } });
  const project = parse(fs.readFileSync(program, "utf8")) as YamlProject;
  fs.writeFileSync(program, stringify({ ...project, resources: { ...project.resources, ...generated } }));
  const afterImport = await dir.ok(["preview", "--json", "--expect-no-changes"]);
  // The stack and five resources, each the same (`--json` lists no step of an unchanged resource).
  expect(previewOf(afterImport).changeSummary).toEqual({ same: 6 });
  expect(afterImport.requests).toEqual([]);

  const refreshed = await dir.ok(["refresh", "--yes", "--skip-preview", "--expect-no-changes"]);
  expect(writes(refreshed)).toEqual([]);

  // The key (the stack's secret config) and the role's password (a secret output) in no file of the backend and no
  // command's output.
  const password = await api.roles.revealPassword(projectId, branch.id, "app");
  const secrets = [emulator.apiKey, password];
  const backend = path.join(dir.root, "backend");
  const files = fs.readdirSync(backend, { recursive: true, withFileTypes: true }).filter((f) => f.isFile());
  for (const file of files) {
    const text = fs.readFileSync(path.join(file.parentPath, file.name), "utf8");
    for (const secret of secrets) expect(text).not.toContain(secret);
  }
  for (const run of [first, up, again, resize, resized, imported, afterImport, refreshed]) {
    for (const secret of secrets) expect(run.stdout + run.stderr).not.toContain(secret);
  }

  const destroyed = await dir.ok(["destroy", "--yes", "--skip-preview"]);
  const order = writes(destroyed);
  const onBranch = `/projects/${projectId}/branches/${branch.id}`;
  expect([...order].sort()).toEqual(
    [
      `DELETE ${onBranch}/databases/appdb`,
      `DELETE ${onBranch}/roles/app`,
      `DELETE /projects/${projectId}/endpoints/${compute.id}`,
      `DELETE ${onBranch}`,
      `DELETE /projects/${projectId}/branches/${outside.id}`,
    ].sort(),
  );
  expect(order.indexOf(`DELETE ${onBranch}/databases/appdb`)).toBeLessThan(
    order.indexOf(`DELETE ${onBranch}/roles/app`),
  );
  const objects = order.filter((w) => w.startsWith(`DELETE ${onBranch}/`) || w.includes("/endpoints/"));
  for (const write of objects) expect(order.indexOf(write)).toBeLessThan(order.indexOf(`DELETE ${onBranch}`));
  const left = (await api.branches.list(projectId)).map((b) => b.id);
  expect(left).not.toContain(branch.id);
  expect(left).not.toContain(outside.id);
  console.log(`YAML program through the native plugin and the CLI: ${Date.now() - started} ms`);
});
