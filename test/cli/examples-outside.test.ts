/**
 * Every example, and the README's minimal program, as a user gets it outside this repository: its files copied to a
 * temporary directory, `npm install <the packed tarball>` there (the package's own copy, with what the program
 * declares: @pulumi/pulumi and TypeScript), `tsc --noEmit` with TypeScript 5 and with TypeScript 6, then `pulumi
 * preview`, `pulumi up` and `pulumi destroy` by the real CLI (the Automation API with the program's directory as its
 * workspace) against an emulator started here: every resource created, then deleted (a project the program made
 * included).
 *
 * Guards: an example that compiled only inside the repository, where it borrowed the repository's TypeScript. Copied
 * out, with no `typescript` of its own Pulumi compiled it with its vendored TypeScript 3.8, which cannot read the
 * package's declarations ("Unable to compile TypeScript"), and with TypeScript 6 its `"moduleResolution": "node"`
 * failed (TS5107).
 *
 * Cost: one `npm pack` for all, one install of both compilers, and npm's cache (`--prefer-offline`) for every
 * install; the programs run side by side (it.concurrent), each with its own emulator, backend and PULUMI_HOME.
 * Measured on a shared 2-core machine at a load average of about 25: 16 min 24 s for the six before
 * project-from-scratch (one alone: 1 min 47 s);
 * every program is installed, compiled twice and run, none left out.
 */
import { execFile } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { promisify } from "util";
import { Emulator, startEmulator } from "../../emulator";
import { NeonClient } from "../../client";
import { packRepository, REPO_ROOT, userEnv } from "../package/pack";
import { readmeProgram } from "../package/readme-program";
import { examplesOf } from "../examples/runtimes";
import { cliRootOrThrow } from "./cli-world";

const execFileAsync = promisify(execFile);
const EXAMPLES_DIR = path.join(REPO_ROOT, "examples");
/** The compilers every program is checked with, as npm aliases of `typescript`. */
const COMPILERS = { "TypeScript 5": "ts5@npm:typescript@^5", "TypeScript 6": "ts6@npm:typescript@^6" };

/** A program to copy out: its files, and how many resources it declares (the stack apart). */
interface Case {
  name: string;
  files: () => Record<string, string>;
  resources: number;
  /** The stack's name: pr-preview names its branch after it, and the emulator's project already has a branch "dev". */
  stack?: string;
  /** Config of this program's own, beside what every program is given. */
  config?: Record<string, string>;
}

/** An example's files as a user copies them (not a stack's config file left by a run in place). */
function exampleFiles(name: string): Record<string, string> {
  const dir = path.join(EXAMPLES_DIR, name);
  return Object.fromEntries(
    fs
      .readdirSync(dir)
      .filter((file) => fs.statSync(path.join(dir, file)).isFile() && !/^Pulumi\..+\.yaml$/.test(file))
      .map((file) => [file, fs.readFileSync(path.join(dir, file), "utf8")]),
  );
}

const example = (name: string, resources: number, more: Pick<Case, "stack" | "config"> = {}): Case => ({
  name,
  files: () => exampleFiles(name),
  resources,
  ...more,
});
const CASES: Case[] = [
  example("autoscaling", 1),
  example("branch-move", 1),
  example("pr-preview", 3, { stack: "pr-42" }),
  example("primary-replica-key", 3),
  // Its own project, which destroy may delete only with deletionProtection false.
  example("project-from-scratch", 10, { config: { deletionProtection: "false" } }),
  example("testing-your-program", 3),
  { name: "the README's program", files: () => readmeProgram().files, resources: 1 },
];

/** Runs a command in `cwd` with a user's environment; rejects with its output when it fails. */
async function run(command: string, args: string[], cwd: string): Promise<{ stdout: string; stderr: string }> {
  try {
    return await execFileAsync(command, args, { cwd, env: userEnv(), timeout: 600_000, maxBuffer: 64 << 20 });
  } catch (error) {
    const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
    throw new Error(`${command} ${args.join(" ")} failed in ${cwd}:\n${stdout}${stderr}`.slice(0, 6000), {
      cause: error,
    });
  }
}

let work: string;
let prepared: Promise<string> | undefined;

/**
 * The tarball and both compilers, made once for every case (each awaits it: concurrent tests may start before a
 * `beforeAll` ends); the tarball's path.
 */
function prepare(): Promise<string> {
  prepared ??= (async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), "neon-examples-outside-"));
    const tarball = packRepository(work);
    fs.mkdirSync(path.join(work, "compilers"));
    fs.writeFileSync(path.join(work, "compilers", "package.json"), '{"private": true}');
    await run("npm", ["install", ...Object.values(COMPILERS)], path.join(work, "compilers"));
    return tarball;
  })();
  return prepared;
}

afterAll(() => {
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

/** `tsc -p tsconfig.json --noEmit` of the program with the compiler `alias` (ts5, ts6): its diagnostics, or "". */
async function typeCheck(dir: string, alias: string): Promise<string> {
  const tsc = path.join(work, "compilers", "node_modules", alias, "bin", "tsc");
  try {
    await execFileAsync(process.execPath, [tsc, "-p", "tsconfig.json", "--noEmit"], { cwd: dir });
    return "";
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? error);
  }
}

/** The program's stack through the real CLI's Automation API, in its own directory, on a backend of its own. */
async function cliStack(
  dir: string,
  emulator: Emulator,
  cliRoot: string,
  stackName: string,
  config: Record<string, string>,
) {
  const { LocalWorkspace, PulumiCommand } = await import("@pulumi/pulumi/automation");
  const pulumiCommand = await PulumiCommand.get({ root: cliRoot });
  for (const place of [`${dir}-backend`, `${dir}-home`]) fs.mkdirSync(place);
  const stack = await LocalWorkspace.createOrSelectStack(
    { stackName, workDir: dir },
    {
      pulumiCommand,
      envVars: {
        PULUMI_BACKEND_URL: `file://${dir}-backend`,
        PULUMI_HOME: `${dir}-home`,
        PULUMI_CONFIG_PASSPHRASE: "examples-outside",
        PULUMI_SKIP_UPDATE_CHECK: "true",
        PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
        NEON_API_KEY: "",
        NEON_API_HOST: "",
      },
    },
  );
  const api = new NeonClient({ apiKey: emulator.apiKey, apiUrl: emulator.baseUrl, rateLimit: false });
  const dev = (await api.branches.list(emulator.projectId)).find((branch) => branch.name === "dev")!.id;
  const inAWeek = new Date(Date.now() + 7 * 86_400_000).toISOString().replace(/\.\d{3}Z$/, "Z");
  await stack.setAllConfig({
    "neon:apiKey": { value: emulator.apiKey, secret: true },
    "neon:apiUrl": { value: emulator.baseUrl },
    projectId: { value: emulator.projectId },
    branchId: { value: dev },
    expiresAt: { value: inAWeek }, // pr-preview's branch expiry
    ...Object.fromEntries(Object.entries(config).map(([key, value]) => [key, { value }])),
  });
  return { stack, api };
}

describe("every example, and the README's program, copied out of the repository with the packed package", () => {
  it("covers every TypeScript example (the YAML ones install nothing: native-yaml*.test.ts run them)", () => {
    const examples = examplesOf("nodejs");
    expect(CASES.map((c) => c.name).filter((name) => examples.includes(name))).toEqual(examples);
  });

  it.concurrent.each(CASES)(
    "$name: installs the tarball, compiles with TypeScript 5 and 6, and runs preview, up and destroy",
    async ({ name, files, resources, stack: stackName = "dev", config = {} }) => {
      const cliRoot = cliRootOrThrow(); // before the installs: without a CLI, the case fails at once
      const tarball = await prepare();
      const dir = path.join(work, name.replace(/\W+/g, "-"));
      fs.mkdirSync(dir);
      for (const [file, content] of Object.entries(files())) fs.writeFileSync(path.join(dir, file), content);
      await run("npm", ["install", tarball], dir);
      // The package's own copy, and a TypeScript of the program's own (not Pulumi's vendored 3.8).
      expect(fs.lstatSync(path.join(dir, "node_modules", "pulumi-neon-dynamic")).isSymbolicLink()).toBe(false);
      const ts = JSON.parse(fs.readFileSync(path.join(dir, "node_modules", "typescript", "package.json"), "utf8"));
      expect(ts.version).toMatch(/^[56]\./);
      for (const [compiler, spec] of Object.entries(COMPILERS)) {
        expect({ compiler, diagnostics: await typeCheck(dir, spec.split("@")[0]) }).toEqual({
          compiler,
          diagnostics: "",
        });
      }

      const emulator = await startEmulator({ operationDurationMs: 20 });
      try {
        const { stack, api } = await cliStack(dir, emulator, cliRoot, stackName, config);
        const before = (await api.endpoints.list(emulator.projectId)).map((c) => c.id);
        const projects = async () => (await api.projects.listAll()).map((p) => p.id).sort();
        const projectsBefore = await projects();
        const preview = await stack.preview();
        expect(preview.changeSummary).toEqual({ create: resources + 1 });
        const up = await stack.up();
        expect(up.summary.resourceChanges).toEqual({ create: resources + 1 });
        expect(Object.keys(up.outputs).length).toBeGreaterThan(0);
        const destroy = await stack.destroy();
        expect(destroy.summary.resourceChanges).toEqual({ delete: resources + 1 });
        expect((await api.endpoints.list(emulator.projectId)).map((c) => c.id)).toEqual(before);
        expect(await projects()).toEqual(projectsBefore); // a program that made a project deleted it
        await stack.workspace.removeStack(stackName);
      } finally {
        await emulator.close();
      }
    },
    1_200_000,
  );
});
