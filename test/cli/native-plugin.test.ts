/**
 * The native plugin (bin/pulumi-resource-neon) run by the real CLI as a user runs it: a TypeScript program declaring
 * its resources with the generated Node.js SDK (`@pulumi-neon/neon`, sdk/nodejs; an explicit `neon.Provider` with
 * another account's key beside the default one, and the functions through the plugin's Invoke), its Pulumi.yaml
 * pointing at the repository's bin/ (`plugins: providers: [{ name: neon, path }]`), a file backend, the emulator. One
 * stack, few steps: preview (no request), up (the create), a second up that changes nothing and sends nothing, a
 * resize whose `preview --json` names both sizes in `detailedDiff` (the dynamic plugin's `null`) and carries the
 * restart warning as `"severity": "warning"` with the compute's URN (the dynamic plugin's is `info#err` without one),
 * its up (one PATCH), `pulumi import` of a branch made outside Pulumi (then declared: no change), a refresh with no
 * change, and destroy. The keys and the password stay secret: in no state file and no output.
 */
import * as fs from "fs";
import * as path from "path";
import { Emulator, startEmulator } from "../../emulator";
import { NeonClient } from "../../client";
import { cliRootOrThrow } from "./cli-world";
import { nativeProgramDir, ProgramDir, Run } from "./program-dir";

const PROJECT = "neon-native";
const TYPE = "neon:index:Compute";

let emulator: Emulator;
let dir: ProgramDir;

beforeAll(async () => {
  emulator = await startEmulator({ operationDurationMs: 20, rateLimit: false });
  dir = nativeProgramDir(emulator, cliRootOrThrow(), {
    prefix: "native",
    sdk: true,
    project: PROJECT,
    program: [
      `import * as pulumi from "@pulumi/pulumi";`,
      `import * as neon from "@pulumi-neon/neon";`,
      ``,
      `const config = new pulumi.Config();`,
      `const size = config.requireNumber("size");`,
      `const db = new neon.Compute("db", {`,
      `  projectId: config.require("projectId"),`,
      `  branchId: config.require("branchId"),`,
      `  type: neon.ComputeType.ReadOnly,`,
      `  autoscalingLimitMinCu: size,`,
      `  autoscalingLimitMaxCu: size,`,
      `});`,
      `// Another account's compute, through an explicit provider with that account's key.`,
      `const neonConfig = new pulumi.Config("neon");`,
      `const other = new neon.Provider("other", {`,
      `  apiKey: config.requireSecret("otherKey"),`,
      `  apiUrl: neonConfig.require("apiUrl"),`,
      `});`,
      `const elsewhere = { projectId: config.require("otherProjectId"), branchId: config.require("otherBranchId") };`,
      `new neon.Compute("elsewhere", { ...elsewhere, type: "read_only" }, { provider: other });`,
      `// The functions, served by the plugin's Invoke: the default provider's projects, the other account's password.`,
      `const projects = neon.getProjectsOutput({});`,
      `const password = neon.getRolePasswordOutput({ ...elsewhere, roleName: config.require("otherRole") }, { provider: other });`,
      `export const host = db.host;`,
      `export const maxCu = db.autoscalingLimitMaxCu;`,
      `export const projectIds = projects.projects.apply((list) => list.map((p) => p.id));`,
      `export const otherPassword = password.password;`,
    ],
  });
});

afterAll(async () => {
  await dir?.dispose();
  await emulator?.close();
});

interface PreviewJson {
  steps: { op: string; urn: string; detailedDiff?: Record<string, { kind: string; inputDiff: boolean }> | null }[];
  diagnostics?: { urn?: string; message: string; severity: string }[];
}

const computeSteps = (preview: PreviewJson) => preview.steps.filter((s) => s.urn.endsWith(`${TYPE}::db`));
/** The requests besides the functions' reads (a function reads on every preview and up: docs/resources.md). */
const beyondFunctions = (run: Run) =>
  run.requests.filter((r) => !(r.method === "GET" && /^\/projects(\?|$)|\/reveal_password$/.test(r.path)));
const writes = (run: Run) => run.requests.filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path}`);

it("preview, up, an up with no change, a resize (detailed diff, warning of the compute), import, refresh, destroy", async () => {
  const started = Date.now();
  const { projectId } = emulator;
  const api = new NeonClient({ apiKey: emulator.apiKey, apiUrl: emulator.baseUrl, rateLimit: false });
  const branchId = (await api.branches.list(projectId)).find((b) => b.name === "dev")!.id;
  const other = emulator.createAccount();
  const otherApi = new NeonClient({ apiKey: other.apiKey, apiUrl: emulator.baseUrl, rateLimit: false });
  const otherBranchId = (await otherApi.branches.list(other.projectId))[0].id;
  const [otherRole] = await otherApi.roles.list(other.projectId, otherBranchId);
  const otherPassword = await otherApi.roles.revealPassword(other.projectId, otherBranchId, otherRole.name);
  await dir.ok(["stack", "init", "dev"]);
  await dir.ok([
    ...["config", "set-all", "--plaintext", `projectId=${projectId}`, "--plaintext", `branchId=${branchId}`],
    ...["--plaintext", "size=1", "--plaintext", `neon:apiUrl=${emulator.baseUrl}`],
    ...["--secret", `neon:apiKey=${emulator.apiKey}`, "--secret", `otherKey=${other.apiKey}`],
    ...["--plaintext", `otherProjectId=${other.projectId}`, "--plaintext", `otherBranchId=${otherBranchId}`],
    ...["--plaintext", `otherRole=${otherRole.name}`],
  ]);

  const first = await dir.ok(["preview", "--json"]);
  expect(computeSteps(JSON.parse(first.stdout) as PreviewJson).map((s) => s.op)).toEqual(["create"]);
  expect(beyondFunctions(first)).toEqual([]);

  const up = await dir.ok(["up", "--yes", "--skip-preview"]);
  // Each provider is a plugin process configured with its own account's key (the other's project answers it 404).
  expect(writes(up).sort()).toEqual(
    [`POST /projects/${other.projectId}/endpoints`, `POST /projects/${projectId}/endpoints`].sort(),
  );
  const [theirs] = await otherApi.endpoints.listForBranch(other.projectId, otherBranchId);
  const [compute] = (await api.endpoints.listForBranch(projectId, branchId)).filter((e) => e.type === "read_only");
  const state = dir.checkpoint().resources?.find((r) => r.urn.endsWith(`${TYPE}::db`)) as {
    id?: string;
    outputs?: object;
  };
  expect(state).toMatchObject({ id: compute.id, outputs: { host: compute.host, autoscalingLimitMaxCu: 1 } });
  expect(JSON.stringify(state)).not.toContain("__provider");
  // The functions answered with each provider's key: this account's projects, the other account's password, a secret.
  const outputs = JSON.parse((await dir.ok(["stack", "output", "--json"])).stdout) as Record<string, unknown>;
  expect(outputs).toMatchObject({ projectIds: [projectId], otherPassword: "[secret]" });
  const shown = JSON.parse((await dir.ok(["stack", "output", "--json", "--show-secrets"])).stdout) as typeof outputs;
  expect(shown.otherPassword).toBe(otherPassword);

  const again = await dir.ok(["up", "--yes", "--skip-preview", "--expect-no-changes"]);
  expect(beyondFunctions(again)).toEqual([]);

  await dir.ok(["config", "set", "size", "2"]);
  const resize = await dir.ok(["preview", "--json"]);
  const preview = JSON.parse(resize.stdout) as PreviewJson;
  const [step] = computeSteps(preview);
  expect(step).toMatchObject({
    op: "update",
    detailedDiff: {
      autoscalingLimitMinCu: { kind: "update", inputDiff: true },
      autoscalingLimitMaxCu: { kind: "update", inputDiff: true },
    },
  });
  // The engine renders a warning's message with its severity in front (as its text display shows it).
  const restart = (preview.diagnostics ?? []).filter((d) => /will restart/.test(d.message));
  expect(restart).toEqual([
    {
      urn: step.urn,
      severity: "warning",
      message: expect.stringMatching(/^warning: Compute "db" \(ep-[\w-]+\) will restart if it is running: /),
    },
  ]);
  expect(beyondFunctions(resize)).toEqual([]);

  const resized = await dir.ok(["up", "--yes", "--skip-preview"]);
  expect(writes(resized)).toEqual([`PATCH /projects/${projectId}/endpoints/${compute.id}`]);
  expect(dir.checkpoint().resources?.find((r) => r.urn.endsWith(`${TYPE}::db`))).toMatchObject({
    outputs: { autoscalingLimitMaxCu: 2 },
  });

  // A branch made outside Pulumi, imported by its Terraform id (the stand-in language host prints no code:
  // --generate-code=false), then declared by the program with the SDK as the import handed it back.
  const main = (await api.branches.list(projectId)).find((b) => b.default)!;
  const { branch: outside } = await api.branches.create(projectId, { name: "outside", parent_id: main.id });
  const imported = await dir.ok([
    ...["import", "neon:index:Branch", "outside", `${projectId}/${outside.id}`],
    ...["--yes", "--protect=false", "--generate-code=false"],
  ]);
  expect(writes(imported)).toEqual([]);
  const index = path.join(dir.program, "index.ts");
  const declared = `new neon.Branch("outside", { projectId: config.require("projectId"), name: "outside", parentId: "${main.id}" });`;
  fs.appendFileSync(index, `${declared}\n`);
  const afterImport = await dir.ok(["preview", "--expect-no-changes"]);
  expect(beyondFunctions(afterImport)).toEqual([]);
  const refreshed = await dir.ok(["refresh", "--yes", "--skip-preview", "--expect-no-changes"]);
  expect(writes(refreshed)).toEqual([]);

  // The key is a secret of the stack and of the default provider's state: in no file of the backend, in no output.
  const backend = path.join(dir.root, "backend");
  const files = fs.readdirSync(backend, { recursive: true, withFileTypes: true }).filter((f) => f.isFile());
  for (const file of files) {
    const text = fs.readFileSync(path.join(file.parentPath, file.name), "utf8");
    for (const secret of [emulator.apiKey, other.apiKey, otherPassword]) expect(text).not.toContain(secret);
  }
  for (const run of [first, up, again, resize, resized, imported, afterImport, refreshed]) {
    for (const secret of [emulator.apiKey, other.apiKey, otherPassword])
      expect(run.stdout + run.stderr).not.toContain(secret);
  }

  const destroyed = await dir.ok(["destroy", "--yes", "--skip-preview"]);
  expect(writes(destroyed).sort()).toEqual(
    [
      `DELETE /projects/${other.projectId}/endpoints/${theirs.id}`,
      `DELETE /projects/${projectId}/endpoints/${compute.id}`,
      `DELETE /projects/${projectId}/branches/${outside.id}`,
    ].sort(),
  );
  expect((await api.endpoints.listForBranch(projectId, branchId)).map((e) => e.id)).not.toContain(compute.id);
  expect(await otherApi.endpoints.listForBranch(other.projectId, otherBranchId)).toEqual([]);
  console.log(`native plugin through the CLI: ${Date.now() - started} ms`);
});
