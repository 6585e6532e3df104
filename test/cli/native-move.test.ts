/**
 * A stack made with the dynamic resources moves to the native plugin (bin/pulumi-resource-neon) by the recipe of
 * docs/native.md, run by the real CLI as a user runs it (issue 25, item 6). An up with the package's dynamic classes
 * (a Branch, a Compute and a Role on it, a Database the role owns, an API key), then the same program with
 * hand-written native classes, each with an alias to its dynamic type (`pulumi-nodejs:dynamic/neon:<Type>`): its
 * preview replaces, creates and deletes nothing and sends nothing, its up sends nothing but reads, and the state then
 * holds the native types and no `__provider`; a second preview shows no change, and destroy deletes the five.
 * A Project (issue 26) moves the same way in a stack of its own, with the `protect` its class derived from
 * `deletionProtection` declared on the native resource: the same steps, no request, the protect kept; then
 * `deletionProtection: false` is an up that sends nothing, and destroy deletes the project.
 */
import * as fs from "fs";
import * as path from "path";
import { Emulator, startEmulator } from "../../emulator";
import { NeonClient } from "../../client";
import { cliRootOrThrow } from "./cli-world";
import { nativeProgramDir, ProgramDir, Run } from "./program-dir";

const PROJECT = "neon-native-move";
const TYPES = ["Branch", "Compute", "Role", "Database", "ApiKey"];

/** The program's resources, as both versions declare them (`Neon` is the dynamic classes' package or `native`). */
const RESOURCES = [
  `const projectId = config.require("projectId");`,
  `const branch = new Neon.Branch("feature", { projectId, protected: config.getBoolean("protected") });`,
  `const onBranch = { projectId, branchId: branch.branchId };`,
  `const sizes = { autoscalingLimitMinCu: 0.25, autoscalingLimitMaxCu: 1 };`,
  `const db = new Neon.Compute("db", { ...onBranch, ...sizes }, computeOptions);`,
  `const role = new Neon.Role("app", { ...onBranch, name: "app_user" });`,
  `new Neon.Database("appdb", { ...onBranch, name: "appdb", ownerName: role.name });`,
  `const key = new Neon.ApiKey("ci", { keyName: "ci" });`,
  `export const host = db.host;`,
  `export const password = role.password;`,
  `export const ciKey = key.key;`,
];

/** A Project (deletionProtection from the config: left out, the class's default, true, which brings protect). */
const PROJECT_RESOURCES = [
  `const deletionProtection = config.getBoolean("deletionProtection");`,
  `const project = new Neon.Project("proj", { regionId: "aws-us-east-2", deletionProtection }, projectOptions);`,
  `export const projectId = project.projectId;`,
  `export const defaultBranchId = project.defaultBranchId;`,
  `export const rolePassword = project.rolePassword;`,
  `export const connectionUri = project.connectionUri;`,
];

const dynamicProgram = (resources: string[]) => [
  `import * as pulumi from "@pulumi/pulumi";`,
  `// The package's classes (its types are not read here: its export map needs a rootDir the test's tsconfig lacks).`,
  `// eslint-disable-next-line @typescript-eslint/no-require-imports`,
  `const Neon = require("pulumi-neon-dynamic");`,
  `const config = new pulumi.Config();`,
  `const computeOptions = {};`,
  `const projectOptions = {};`,
  ``,
  ...resources,
];

/** The recipe: each native resource declared with an alias to the dynamic resource of its type. */
const nativeProgram = (resources: string[]) => [
  `import * as pulumi from "@pulumi/pulumi";`,
  ``,
  `type Args = Record<string, pulumi.Input<unknown>>;`,
  `/** A resource of the native plugin, declared by hand (no SDK is generated yet): outputs passed as undefined. */`,
  `class Native extends pulumi.CustomResource {`,
  `  declare readonly branchId: pulumi.Output<string>;`,
  `  declare readonly name: pulumi.Output<string>;`,
  `  declare readonly host: pulumi.Output<string>;`,
  `  declare readonly password: pulumi.Output<string>;`,
  `  declare readonly key: pulumi.Output<string>;`,
  `  declare readonly projectId: pulumi.Output<string>;`,
  `  declare readonly defaultBranchId: pulumi.Output<string>;`,
  `  declare readonly rolePassword: pulumi.Output<string>;`,
  `  declare readonly connectionUri: pulumi.Output<string>;`,
  `  constructor(type: string, name: string, args: Args, opts?: pulumi.CustomResourceOptions) {`,
  `    const outputs = { branchId: undefined, name: undefined, host: undefined, password: undefined, key: undefined };`,
  `    const project = { projectId: undefined, defaultBranchId: undefined, rolePassword: undefined, connectionUri: undefined };`,
  `    // The move: the same resource as the dynamic one of this type, which the state holds.`,
  `    const aliases = [{ type: \`pulumi-nodejs:dynamic/neon:\${type}\` }];`,
  `    super(\`neon:index:\${type}\`, name, { ...outputs, ...project, ...args }, { ...opts, aliases });`,
  `  }`,
  `}`,
  `const kind = (type: string) => class extends Native {`,
  `  constructor(name: string, args: Args, opts?: pulumi.CustomResourceOptions) {`,
  `    super(type, name, args, opts);`,
  `  }`,
  `};`,
  `const Neon = {`,
  `  Branch: kind("Branch"),`,
  `  Compute: kind("Compute"),`,
  `  Role: kind("Role"),`,
  `  Database: kind("Database"),`,
  `  ApiKey: kind("ApiKey"),`,
  `  Project: kind("Project"),`,
  `};`,
  `const config = new pulumi.Config();`,
  `// The Compute class's default, which a native Compute lacks (README, The native plugin).`,
  `const computeOptions = { deleteBeforeReplace: config.getBoolean("computeDeletesFirst") };`,
  `// The Project class's protect, which it derives from deletionProtection (docs/resources.md, Deletion protection).`,
  `const projectOptions = { protect: config.getBoolean("deletionProtection") !== false };`,
  ``,
  ...resources,
];

let emulator: Emulator;
let dir: ProgramDir;

beforeAll(async () => {
  emulator = await startEmulator({ operationDurationMs: 20, rateLimit: false });
  dir = nativeProgramDir(emulator, cliRootOrThrow(), {
    prefix: "native-move",
    project: PROJECT,
    program: dynamicProgram(RESOURCES),
  });
});

afterAll(async () => {
  await dir?.dispose();
  await emulator?.close();
});

interface PreviewJson {
  steps: { op: string; urn: string; detailedDiff?: unknown; replaceReasons?: string[] }[];
  changeSummary?: Record<string, number>;
}

interface StateResource {
  urn: string;
  type: string;
  id?: string;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

const writes = (run: Run) => run.requests.filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path}`);
const neonResources = () =>
  ((dir.checkpoint().resources ?? []) as StateResource[]).filter((r) => TYPES.some((t) => r.type.endsWith(`:${t}`)));
const nameOf = (urn: string) => urn.split("::").pop()!;
const outputs = async (on = dir) =>
  JSON.parse((await on.ok(["stack", "output", "--json", "--show-secrets"])).stdout) as object;

it("moves a stack of dynamic resources to the native plugin: no replacement, no request but reads", async () => {
  const started = Date.now();
  const { projectId } = emulator;
  const api = new NeonClient({ apiKey: emulator.apiKey, apiUrl: emulator.baseUrl, rateLimit: false });
  await dir.ok(["stack", "init", "dev"]);
  await dir.ok([
    ...["config", "set-all", "--plaintext", `projectId=${projectId}`, "--plaintext", `neon:apiUrl=${emulator.baseUrl}`],
    ...["--secret", `neon:apiKey=${emulator.apiKey}`],
  ]);

  const made = await dir.ok(["up", "--yes", "--skip-preview"]);
  expect(writes(made)).toHaveLength(5);
  const dynamic = neonResources();
  expect(dynamic.map((r) => r.type).sort()).toEqual(TYPES.map((t) => `pulumi-nodejs:dynamic/neon:${t}`).sort());
  expect(dynamic.every((r) => r.outputs?.__provider !== undefined)).toBe(true);
  const ids = Object.fromEntries(dynamic.map((r) => [nameOf(r.urn), r.id]));
  const outputsBefore = await outputs();

  // The recipe: the native classes, each resource with an alias to its dynamic type. The preview changes nothing
  // and sends nothing.
  fs.writeFileSync(path.join(dir.program, "index.ts"), [...nativeProgram(RESOURCES), ""].join("\n"));
  const preview = await dir.ok(["preview", "--json", "--show-sames"]);
  const steps = (JSON.parse(preview.stdout) as PreviewJson).steps.filter((s) => /::neon:index:/.test(s.urn));
  expect(steps.map((s) => `${s.op} ${nameOf(s.urn)}`).sort()).toEqual(
    ["same appdb", "same app", "same ci", "same db", "same feature"].sort(),
  );
  expect(preview.requests).toEqual([]);

  // The up sends nothing: the steps are the same, and the state then holds the native types and provider. A refresh
  // (reads only) through the native plugin drops the dynamic provider from the outputs, where the same steps left it
  // (an `up --refresh` would not: its refresh runs before the aliases, through the dynamic plugin).
  const up = await dir.ok(["up", "--yes", "--skip-preview"]);
  expect(up.requests).toEqual([]);
  const refreshed = await dir.ok(["refresh", "--yes", "--skip-preview"]);
  expect(refreshed.requests.filter((r) => r.method !== "GET")).toEqual([]);
  const moved = neonResources();
  expect(moved.map((r) => r.type).sort()).toEqual(TYPES.map((t) => `neon:index:${t}`).sort());
  expect(moved.filter((r) => JSON.stringify(r).includes("__provider")).map((r) => r.urn)).toEqual([]);
  expect(Object.fromEntries(moved.map((r) => [nameOf(r.urn), r.id]))).toEqual(ids);
  // The same outputs, the API key's secret (which cannot be read back) and the role's password included.
  expect(await outputs()).toEqual(outputsBefore);
  const again = await dir.ok(["preview", "--expect-no-changes"]);
  expect(again.requests).toEqual([]);

  // `pulumi up --replace` asks no Diff, so a native Compute without deleteBeforeReplace creates first: the create
  // meets the old compute, named for the resource, and refuses, sending nothing; with the option it deletes first.
  const computeUrn = moved.find((r) => nameOf(r.urn) === "db")!.urn;
  const refused = await dir.run(["up", "--yes", "--skip-preview", "--replace", computeUrn]);
  expect(refused.code).not.toBe(0);
  expect(refused.stdout).toMatch(/Compute "db" was not created: .* set deleteBeforeReplace: true/);
  expect(writes(refused)).toEqual([]);
  await dir.ok(["config", "set", "computeDeletesFirst", "true"]);
  const replaced = await dir.ok(["up", "--yes", "--skip-preview", "--replace", computeUrn]);
  const [, computeId] = [projectId, ids.db];
  expect(writes(replaced)).toEqual([
    `DELETE /projects/${projectId}/endpoints/${computeId}`,
    `POST /projects/${projectId}/endpoints`,
  ]);

  // A protected branch (no Pulumi protect option: a native Branch does not derive it) loses nothing to a destroy:
  // the deletes of what is on it and its own refuse, sending nothing.
  const branchId = String(ids.feature);
  await dir.ok(["config", "set", "protected", "true"]);
  expect(writes(await dir.ok(["up", "--yes", "--skip-preview"]))).toEqual([
    `PATCH /projects/${projectId}/branches/${branchId}`,
  ]);
  const kept = await dir.run(["destroy", "--yes", "--skip-preview"]);
  expect(kept.code).not.toBe(0);
  expect(kept.stdout).toMatch(/is protected/);
  expect(writes(kept).filter((w) => w !== `DELETE /api_keys/${ids.ci}`)).toEqual([]);
  expect((await api.branches.list(projectId)).map((b) => b.id)).toContain(branchId);
  expect(neonResources().map((r) => nameOf(r.urn))).toEqual(expect.arrayContaining(["feature", "db", "app", "appdb"]));

  await dir.ok(["config", "set", "protected", "false"]);
  await dir.ok(["up", "--yes", "--skip-preview"]);
  await dir.ok(["destroy", "--yes", "--skip-preview"]);
  expect((await api.branches.list(projectId)).map((b) => b.id)).not.toContain(branchId);
  console.log(
    `dynamic to native through the CLI: ${Date.now() - started} ms, the refresh: ${refreshed.requests.length} GETs`,
  );
});

it("moves a Project: no replacement, no request but reads; its protect declared; deletionProtection: false, then destroy deletes it", async () => {
  const started = Date.now();
  const projectDir = nativeProgramDir(emulator, cliRootOrThrow(), {
    prefix: "native-move-project",
    project: PROJECT,
    program: dynamicProgram(PROJECT_RESOURCES),
  });
  const api = new NeonClient({ apiKey: emulator.apiKey, apiUrl: emulator.baseUrl, rateLimit: false });
  const project = () =>
    ((projectDir.checkpoint().resources ?? []) as (StateResource & { protect?: boolean })[]).find((r) =>
      r.urn.endsWith("::proj"),
    );
  try {
    await projectDir.ok(["stack", "init", "dev"]);
    await projectDir.ok([
      ...["config", "set-all", "--plaintext", `neon:apiUrl=${emulator.baseUrl}`],
      ...["--secret", `neon:apiKey=${emulator.apiKey}`],
    ]);
    const made = await projectDir.ok(["up", "--yes", "--skip-preview"]);
    expect(writes(made)).toEqual(["POST /projects"]);
    // The dynamic class gave it Pulumi's protect (deletionProtection's default, true).
    expect(project()).toMatchObject({ type: "pulumi-nodejs:dynamic/neon:Project", protect: true });
    const id = project()!.id!;
    const outputsBefore = await outputs(projectDir);
    expect(outputsBefore).toMatchObject({ projectId: id, defaultBranchId: expect.stringMatching(/^br-/) });

    // The recipe: the native class with the alias, and protect declared beside deletionProtection (a native
    // Project has no class to derive it). The preview changes nothing and sends nothing.
    fs.writeFileSync(path.join(projectDir.program, "index.ts"), [...nativeProgram(PROJECT_RESOURCES), ""].join("\n"));
    const preview = await projectDir.ok(["preview", "--json", "--show-sames"]);
    const steps = (JSON.parse(preview.stdout) as PreviewJson).steps.filter((s) => /::neon:index:/.test(s.urn));
    expect(steps.map((s) => `${s.op} ${nameOf(s.urn)}`)).toEqual(["same proj"]);
    expect(preview.requests).toEqual([]);
    const up = await projectDir.ok(["up", "--yes", "--skip-preview"]);
    expect(up.requests).toEqual([]);
    const refreshed = await projectDir.ok(["refresh", "--yes", "--skip-preview"]);
    expect(writes(refreshed)).toEqual([]);
    expect(project()).toMatchObject({ type: "neon:index:Project", id, protect: true });
    expect(JSON.stringify(project())).not.toContain("__provider");
    // The same outputs, the role's password and the connection string (secrets) included.
    expect(await outputs(projectDir)).toEqual(outputsBefore);
    const again = await projectDir.ok(["preview", "--expect-no-changes"]);
    expect(again.requests).toEqual([]);

    // deletionProtection: false (and the protect it brought) is an up that sends nothing; then destroy deletes it.
    await projectDir.ok(["config", "set", "deletionProtection", "false"]);
    const unprotected = await projectDir.ok(["up", "--yes", "--skip-preview"]);
    expect(writes(unprotected)).toEqual([]);
    expect(project()?.protect ?? false).toBe(false);
    const destroyed = await projectDir.ok(["destroy", "--yes", "--skip-preview"]);
    expect(writes(destroyed)).toEqual([`DELETE /projects/${id}`]);
    expect((await api.projects.listAll()).map((p) => p.id)).not.toContain(id);
  } finally {
    await projectDir.dispose();
  }
  console.log(`a Project from dynamic to native through the CLI: ${Date.now() - started} ms`);
});
