/**
 * The lookups through the real CLI (issue 26, item 5), in both faces: a program calling getProject, getBranch (by id
 * and by name), getBranches, getComputes, getRoles and getDatabases, each in its Promise form and its Output form,
 * run by the CLI with the package's functions (the dynamic face: they run in the program) and with the generated
 * Node.js SDK (the native face: the plugin's Invoke). Both programs read the same emulator, whose lists page by two
 * (the branches: five, three pages), so their results must be equal, and equal to what the service holds: every
 * branch (the list read to its last page), the branch by id the branch by name, the computes, the roles (no
 * password) and the databases. A second preview sends nothing but the lookups' reads. A branch the project lacks, by
 * name or by id, fails the preview with an error naming it and the project.
 *
 * Found by it: in the dynamic face, on Node.js 20.20.2, a program whose getDatabasesOutput failed (a branch id the
 * project lacks) printed the error, then never ended: the program process spun in Node's
 * `util.inspect(err, { colors: true })`, which @pulumi/pulumi's uncaught-error handler (cmd/run/error.ts
 * defaultErrorMessage) calls, looping in `markNodeModules` on the stack line `…/node_modules/@pulumi/output.ts:516:25`
 * (applyHelperAsync, source-mapped: a scoped name with no separator after it; nodejs/node#64011, fixed by #64022).
 * The Output forms now fail with an error without stack frames (shared/program-client.ts `outputOf`): the missing
 * branch id is asked for in the Output form, whose preview must end with the error; the missing name in the Promise
 * form.
 */
import { NeonClient } from "../../client";
import { Emulator, startEmulator } from "../../emulator";
import { SMALL_PAGE } from "../plugin/world";
import { cliRootOrThrow } from "./cli-world";
import { FACES, FaceName } from "./faces-world";
import { nativeProgramDir, ProgramDir, Run } from "./program-dir";

/** Both faces' program: every lookup, in both forms; `missingName` / `missingBranchId` ask for what is not there. */
const PROGRAM = [
  `const config = new pulumi.Config();`,
  `const projectId = config.require("projectId");`,
  `const branchId = config.require("branchId");`,
  `const onBranch = { projectId, branchId };`,
  `const byName = Neon.getBranchOutput({ projectId, name: "qa" });`,
  `export const project = Neon.getProject({ projectId });`,
  `export const projectOutput = Neon.getProjectOutput({ projectId });`,
  `export const branchById = Neon.getBranch(onBranch);`,
  `export const branchByIdOutput = Neon.getBranchOutput(onBranch);`,
  `export const branchByName = Neon.getBranch({ projectId, name: "qa" });`,
  `export const branchByNameOutput = byName;`,
  `export const branches = Neon.getBranches({ projectId });`,
  `export const branchesOutput = Neon.getBranchesOutput({ projectId });`,
  `export const computes = Neon.getComputes({ projectId });`,
  `export const computesOutput = Neon.getComputesOutput({ projectId });`,
  `export const computesOnBranch = Neon.getComputes(onBranch);`,
  `// The Output forms take Inputs: the branch found by name.`,
  `export const computesOnBranchOutput = Neon.getComputesOutput({ projectId, branchId: byName.branchId });`,
  `export const roles = Neon.getRoles(onBranch);`,
  `export const rolesOutput = Neon.getRolesOutput({ projectId, branchId: byName.branchId });`,
  `export const databases = Neon.getDatabases(onBranch);`,
  `export const databasesOutput = Neon.getDatabasesOutput({ projectId, branchId: byName.branchId });`,
  `// What is not there: by name in the Promise form, by id in the Output form (it hung the dynamic face once: the file's doc).`,
  `const missingName = config.get("missingName");`,
  `export const missing = missingName ? Neon.getBranch({ projectId, name: missingName }) : undefined;`,
  `const missingBranchId = config.get("missingBranchId");`,
  `export const missingDatabases = missingBranchId ? Neon.getDatabasesOutput({ projectId, branchId: missingBranchId }) : undefined;`,
];

const PROGRAMS: Record<FaceName, string[]> = {
  dynamic: [
    `import * as pulumi from "@pulumi/pulumi";`,
    `// The package's functions (its types are not read here: its export map needs a rootDir the test's tsconfig lacks).`,
    `// eslint-disable-next-line @typescript-eslint/no-require-imports`,
    `const Neon = require("pulumi-neon-dynamic");`,
    ...PROGRAM,
  ],
  native: [`import * as pulumi from "@pulumi/pulumi";`, `import * as Neon from "@pulumi-neon/neon";`, ...PROGRAM],
};

let emulator: Emulator;
let api: NeonClient;
const dirs = {} as Record<FaceName, ProgramDir>;
/** The branch the lookups look at: made for the test, with a compute, a role and a database of its own. */
let qa: string;

beforeAll(async () => {
  const cliRoot = cliRootOrThrow();
  emulator = await startEmulator({ operationDurationMs: 20, rateLimit: false, pageSize: SMALL_PAGE });
  api = new NeonClient({ apiKey: emulator.apiKey, apiUrl: emulator.baseUrl, rateLimit: false });
  const { projectId } = emulator;
  qa = (await api.branches.create(projectId, { name: "qa" })).branch.id;
  await api.branches.create(projectId, { name: "perf" });
  // Computes that never autosuspend (the emulator's clock is real): both faces read the same state of each.
  const never = { suspend_timeout_seconds: -1 };
  for (const compute of await api.endpoints.listForBranch(projectId, emulator.branches.main))
    await api.endpoints.update(projectId, compute.id, never);
  await api.endpoints.create(projectId, { branch_id: qa, type: "read_write", ...never });
  await api.roles.create(projectId, qa, { name: "reporter" });
  await api.databases.create(projectId, qa, { name: "reports", owner_name: "reporter" });
  for (const face of FACES) {
    const dir = nativeProgramDir(emulator, cliRoot, {
      prefix: `lookups-${face}`,
      project: "neon-lookups",
      program: PROGRAMS[face],
      sdk: face === "native",
    });
    dirs[face] = dir;
    await dir.ok(["stack", "init", "dev"]);
    await dir.ok([
      ...["config", "set-all", "--plaintext", `projectId=${projectId}`, "--plaintext", `branchId=${qa}`],
      ...["--plaintext", `neon:apiUrl=${emulator.baseUrl}`, "--secret", `neon:apiKey=${emulator.apiKey}`],
    ]);
  }
});

afterAll(async () => {
  for (const dir of Object.values(dirs)) await dir.dispose();
  await emulator?.close();
});

type Outputs = Record<string, Record<string, unknown>>;
const results = {} as Record<FaceName, Outputs>;
const writes = (run: Run) => run.requests.filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path}`);
const names = (list: unknown) => (list as { name: string }[]).map((x) => x.name);

it("every lookup, in both forms, in both faces: the same results, the service's objects, every page read", async () => {
  const started = Date.now();
  const { projectId } = emulator;
  // The service's view: five branches, so three pages of two.
  const listed = await api.branches.list(projectId);
  expect(listed).toHaveLength(5);
  const firstPage = await fetch(`${emulator.baseUrl}/projects/${projectId}/branches`, {
    headers: { Authorization: `Bearer ${emulator.apiKey}` },
  });
  expect(((await firstPage.json()) as { branches: unknown[] }).branches).toHaveLength(SMALL_PAGE);

  for (const face of FACES) {
    const up = await dirs[face].ok(["up", "--yes", "--skip-preview"]);
    expect({ face, writes: writes(up) }).toEqual({ face, writes: [] });
    const output = await dirs[face].ok(["stack", "output", "--json"]);
    results[face] = JSON.parse(output.stdout) as Outputs;
  }
  // The same results in both faces, field by field.
  expect(results.native).toEqual(results.dynamic);

  const out = results.dynamic;
  // Each Output form answers what its Promise form does.
  for (const key of ["project", "branchById", "branchByName", "branches", "computes", "roles", "databases"])
    expect({ key, output: out[`${key}Output`] }).toEqual({ key, output: out[key] });
  expect(out.computesOnBranchOutput).toEqual(out.computesOnBranch);

  const main = listed.find((b) => b.default)!;
  expect(out.project).toMatchObject({ projectId, defaultBranchId: main.id, name: expect.any(String) });
  expect(out.branchById).toEqual(out.branchByName);
  expect(out.branchById).toMatchObject({ branchId: qa, name: "qa", parentId: main.id, default: false });
  // getBranches read every page: the five branches, newest first.
  const all = out.branches.branches as { branchId: string; name: string }[];
  expect(all.map((b) => b.name).sort()).toEqual(["dev", "main", "perf", "qa", "staging"]);
  expect(all.map((b) => b.branchId).sort()).toEqual(listed.map((b) => b.id).sort());
  // The project's computes (main's and qa's), and qa's alone.
  const computes = await api.endpoints.listForBranch(projectId, qa);
  const onQa = out.computesOnBranch.computes as { endpointId: string; branchId: string; host: string }[];
  expect(onQa.map((c) => [c.endpointId, c.branchId, c.host])).toEqual(computes.map((c) => [c.id, qa, c.host]));
  const everywhere = out.computes.computes as { branchId: string }[];
  expect(everywhere.map((c) => c.branchId).sort()).toEqual([main.id, qa].sort());
  // The branch's roles, without their passwords; its databases.
  expect(names(out.roles.roles).sort()).toEqual(["neondb_owner", "reporter"]);
  expect((out.roles.roles as object[]).filter((r) => "password" in r)).toEqual([]);
  expect(names(out.databases.databases).sort()).toEqual(["neondb", "reports"]);
  expect(out.databases.databases).toContainEqual(expect.objectContaining({ name: "reports", ownerName: "reporter" }));

  // A lookup is a read of the program: the next preview changes nothing and sends no write.
  for (const face of FACES) {
    const preview = await dirs[face].ok(["preview", "--expect-no-changes"]);
    expect({ face, writes: writes(preview) }).toEqual({ face, writes: [] });
    expect(preview.requests.length).toBeGreaterThan(0); // the lookups' reads
  }
  console.log(`lookups through the CLI, both faces: ${Date.now() - started} ms`);
});

it("a branch the project lacks, by name or by id, fails the preview with an error naming it and the project", async () => {
  const { projectId } = emulator;
  const absent = "br-absent-frost-123456";
  for (const face of FACES) {
    const dir = dirs[face];
    await dir.ok(["config", "set", "missingName", "nope"]);
    const byName = await dir.run(["preview"]);
    expect({ face, code: byName.code }).not.toEqual({ face, code: 0 });
    expect(byName.stdout + byName.stderr).toContain(
      `getBranch: project ${projectId} has no branch named "nope" (its list, read to the end, has 5: `,
    );
    expect(writes(byName)).toEqual([]);
    await dir.ok(["config", "rm", "missingName"]);

    await dir.ok(["config", "set", "missingBranchId", absent]);
    const byId = await dir.run(["preview"]);
    expect({ face, code: byId.code }).not.toEqual({ face, code: 0 });
    expect(byId.stdout + byId.stderr).toContain(`getDatabases: project ${projectId} has no branch ${absent}`);
    // The error as the SDK prints it has no frame in node_modules/@pulumi/output.ts, the one Node.js 20.20's
    // util.inspect backtracks on for minutes, or for ever (the file's doc; the dynamic face's error has no frame at all).
    expect({ face, printed: (byId.stdout + byId.stderr).includes("@pulumi/output.ts") }).toEqual({
      face,
      printed: false,
    });
    expect(writes(byId)).toEqual([]);
    await dir.ok(["config", "rm", "missingBranchId"]);
  }
});
