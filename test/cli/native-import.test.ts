/**
 * `pulumi import` through the native plugin (bin/pulumi-resource-neon), run by the real CLI as a user runs it (issue
 * 25, item 3). A branch, a compute on it, a role and a database it owns are made on the emulator through the API, not
 * through Pulumi; `pulumi import` takes each by the Terraform providers' import ids (a branch and a compute one by one,
 * the role and the database from a file), and a bad id fails naming the form. Then a TypeScript program declaring the
 * four resources with the inputs the import recorded (the code the CLI would print, which it prints through the
 * language host's GenerateProgram: the stand-in host, tools/pulumi-cli/language-host.js, has none, hence
 * `--generate-code=false`) previews with no change and no request, its up changes nothing (and records the program's
 * dependencies), and destroy deletes the four, the database before the role, the branch last.
 */
import * as fs from "fs";
import * as path from "path";
import { Emulator, startEmulator } from "../../emulator";
import { NeonClient } from "../../client";
import { cliRootOrThrow } from "./cli-world";
import { nativeProgramDir, ProgramDir, Run } from "./program-dir";

const PROJECT = "neon-native-import";

let emulator: Emulator;
let dir: ProgramDir;

beforeAll(async () => {
  emulator = await startEmulator({ operationDurationMs: 20, rateLimit: false });
  dir = nativeProgramDir(emulator, cliRootOrThrow(), {
    prefix: "native-import",
    project: PROJECT,
    program: [
      `import * as pulumi from "@pulumi/pulumi";`,
      ``,
      `/** A resource of the native plugin, declared by hand (no SDK is generated yet): outputs passed as undefined. */`,
      `class Neon extends pulumi.CustomResource {`,
      `  declare readonly branchId: pulumi.Output<string>;`,
      `  declare readonly name: pulumi.Output<string>;`,
      `  constructor(type: string, name: string, args: Record<string, pulumi.Input<unknown>>) {`,
      `    super(\`neon:index:\${type}\`, name, { branchId: undefined, name: undefined, ...args });`,
      `  }`,
      `}`,
      ``,
      `// The inputs \`pulumi import\` recorded, each resource's own, with the references between them.`,
      `type Inputs = Record<string, unknown>;`,
      `const imported = new pulumi.Config().requireObject<Record<string, Inputs>>("imported");`,
      `const branch = new Neon("Branch", "feature", imported.feature);`,
      `const onBranch = { branchId: branch.branchId };`,
      `new Neon("Compute", "db", { ...imported.db, ...onBranch });`,
      `const role = new Neon("Role", "app", { ...imported.app, ...onBranch });`,
      `new Neon("Database", "appdb", { ...imported.appdb, ...onBranch, ownerName: role.name });`,
    ],
  });
});

afterAll(async () => {
  await dir?.dispose();
  await emulator?.close();
});

const writes = (run: Run) => run.requests.filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path}`);

interface Imported {
  urn: string;
  id: string;
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
  dependencies?: string[];
}

/** The state's record of the resource named `name`. */
const inState = (name: string) =>
  dir.checkpoint().resources?.find((r) => r.urn.endsWith(`::${name}`)) as Imported | undefined;

it("imports a branch, a compute, a role and a database made outside Pulumi; the program then changes nothing", async () => {
  const started = Date.now();
  const { projectId } = emulator;
  const api = new NeonClient({ apiKey: emulator.apiKey, apiUrl: emulator.baseUrl, rateLimit: false });
  const main = (await api.branches.list(projectId)).find((b) => b.default)!;
  const { branch } = await api.branches.create(projectId, { name: "feature", parent_id: main.id });
  const { endpoint } = await api.endpoints.create(projectId, { branch_id: branch.id, type: "read_write" });
  await api.roles.create(projectId, branch.id, { name: "app_user" });
  const { database } = await api.databases.create(projectId, branch.id, { name: "appdb", owner_name: "app_user" });

  await dir.ok(["stack", "init", "dev"]);
  await dir.ok([
    ...["config", "set-all", "--plaintext", `neon:apiUrl=${emulator.baseUrl}`],
    ...["--secret", `neon:apiKey=${emulator.apiKey}`],
  ]);
  const importing = ["--yes", "--non-interactive", "--generate-code=false"];

  // A bad id: nothing imported, the message names the resource, the form and the id.
  const bad = await dir.run(["import", "neon:index:Compute", "db", endpoint.id, ...importing]);
  expect(bad.code).not.toBe(0);
  expect(bad.stdout + bad.stderr).toContain(
    `cannot import Compute "${endpoint.id}": the import id of a Compute is <project>/<endpoint>`,
  );

  const branchImport = await dir.ok([
    ...["import", "neon:index:Branch", "feature", `${projectId}/${branch.id}`],
    ...importing,
  ]);
  const computeImport = await dir.ok([
    ...["import", "neon:index:Compute", "db", `${projectId}/${endpoint.id}`],
    ...importing,
  ]);
  const file = path.join(dir.root, "import.json");
  const named = (type: string, name: string, id: string) => ({ type: `neon:index:${type}`, name, id });
  const resources = [
    named("Role", "app", `${projectId}/${branch.id}/app_user`),
    named("Database", "appdb", `${projectId}/${branch.id}/appdb`),
  ];
  fs.writeFileSync(file, JSON.stringify({ resources }));
  const fileImport = await dir.ok(["import", "--file", file, ...importing]);
  for (const run of [bad, branchImport, computeImport, fileImport]) expect(writes(run)).toEqual([]);

  // The ids a create would have given, and the inputs a program declares.
  expect(inState("feature")).toMatchObject({
    id: branch.id,
    inputs: { projectId, name: "feature", parentId: main.id, initSource: "parent-data" },
  });
  expect(inState("db")).toMatchObject({
    id: endpoint.id,
    inputs: { projectId, branchId: branch.id, autoscalingLimitMinCu: endpoint.autoscaling_limit_min_cu },
  });
  expect(inState("app")).toMatchObject({
    id: `${projectId}/${branch.id}/app_user`,
    inputs: { projectId, branchId: branch.id, name: "app_user" },
  });
  expect(inState("appdb")).toMatchObject({
    id: String(database.id),
    inputs: { projectId, branchId: branch.id, name: "appdb", ownerName: "app_user" },
  });
  // The role's password, read at the import, is a secret in the state.
  expect(inState("app")!.outputs.password).toMatchObject({ ciphertext: expect.any(String) });

  const recorded = Object.fromEntries(["feature", "db", "app", "appdb"].map((name) => [name, inState(name)!.inputs]));
  await dir.ok(["config", "set", "imported", JSON.stringify(recorded)]);
  const preview = await dir.ok(["preview", "--expect-no-changes"]);
  expect(preview.requests).toEqual([]);
  const up = await dir.ok(["up", "--yes", "--skip-preview", "--expect-no-changes"]);
  expect(up.requests).toEqual([]);
  expect(inState("appdb")!.dependencies).toEqual(
    expect.arrayContaining([inState("feature")!.urn, inState("app")!.urn]),
  );

  const destroyed = await dir.ok(["destroy", "--yes", "--skip-preview"]);
  const order = writes(destroyed);
  expect([...order].sort()).toEqual(
    [
      `DELETE /projects/${projectId}/branches/${branch.id}`,
      `DELETE /projects/${projectId}/branches/${branch.id}/databases/appdb`,
      `DELETE /projects/${projectId}/branches/${branch.id}/roles/app_user`,
      `DELETE /projects/${projectId}/endpoints/${endpoint.id}`,
    ].sort(),
  );
  const position = (suffix: string) => order.findIndex((w) => w.endsWith(suffix));
  expect(position("/databases/appdb")).toBeLessThan(position("/roles/app_user"));
  expect(position(`/branches/${branch.id}`)).toBe(order.length - 1);
  expect((await api.branches.list(projectId)).map((b) => b.id)).not.toContain(branch.id);
  console.log(`native import through the CLI: ${Date.now() - started} ms`);
});
