/**
 * A stack made with the dynamic resources moves to the native plugin (bin/pulumi-resource-neon) by the recipe of
 * docs/native.md, run by the real CLI as a user runs it (issue 25, item 6). An up with the package's dynamic classes
 * (a Branch, a Compute and a Role on it, a Database the role owns, an API key), then the same program with
 * hand-written native classes, each with an alias to its dynamic type (`pulumi-nodejs:dynamic/neon:<Type>`): its
 * preview replaces, creates and deletes nothing and sends nothing, its up sends nothing but reads, and the state then
 * holds the native types and no `__provider`; a second preview shows no change, and destroy deletes the five.
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

const DYNAMIC_PROGRAM = [
  `import * as pulumi from "@pulumi/pulumi";`,
  `// The package's classes (its types are not read here: its export map needs a rootDir the test's tsconfig lacks).`,
  `// eslint-disable-next-line @typescript-eslint/no-require-imports`,
  `const Neon = require("pulumi-neon-dynamic");`,
  `const config = new pulumi.Config();`,
  `const computeOptions = {};`,
  ``,
  ...RESOURCES,
];

/** The recipe: each native resource declared with an alias to the dynamic resource of its type. */
const NATIVE_PROGRAM = [
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
  `  constructor(type: string, name: string, args: Args, opts?: pulumi.CustomResourceOptions) {`,
  `    const outputs = { branchId: undefined, name: undefined, host: undefined, password: undefined, key: undefined };`,
  `    // The move: the same resource as the dynamic one of this type, which the state holds.`,
  `    const aliases = [{ type: \`pulumi-nodejs:dynamic/neon:\${type}\` }];`,
  `    super(\`neon:index:\${type}\`, name, { ...outputs, ...args }, { ...opts, aliases });`,
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
  `};`,
  `const config = new pulumi.Config();`,
  `// The Compute class's default, which a native Compute lacks (README, The native plugin).`,
  `const computeOptions = { deleteBeforeReplace: config.getBoolean("computeDeletesFirst") };`,
  ``,
  ...RESOURCES,
];

let emulator: Emulator;
let dir: ProgramDir;

beforeAll(async () => {
  emulator = await startEmulator({ operationDurationMs: 20, rateLimit: false });
  dir = nativeProgramDir(emulator, cliRootOrThrow(), {
    prefix: "native-move",
    project: PROJECT,
    program: DYNAMIC_PROGRAM,
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
const outputs = async () =>
  JSON.parse((await dir.ok(["stack", "output", "--json", "--show-secrets"])).stdout) as object;

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
  fs.writeFileSync(path.join(dir.program, "index.ts"), [...NATIVE_PROGRAM, ""].join("\n"));
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
