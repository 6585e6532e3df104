/**
 * `npm run demo` with the real Pulumi CLI (the build of npm run pulumi:install): the same story as on the local
 * engine (test/demo), told by the CLI itself: the plan with no request, the up, the outputs with the key hidden, a
 * resize that the preview warns about and that is one PATCH, an up that sends nothing, destroy; then a preview branch
 * with its DATABASE_URL (pr-preview as the stack pr-42: plan, up, the connection string with its password hidden, an
 * up whose one read is the program's, destroy); and nothing left: no stack file, no temporary directory.
 */
import { spawn } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { cliRootOrThrow } from "./cli-world";

const REPO_ROOT = path.resolve(__dirname, "../../..");
const SCRIPT = path.join(REPO_ROOT, "dist", "scripts", "demo.js");

/**
 * A module for `node -r`: the demo's emulator keeps its world in `stateFile`, whose companion
 * (`<stateFile>.passwords`) then holds every role password the emulator had, for the test to look for in the output.
 */
function passwordHook(dir: string, stateFile: string): string {
  const hook = path.join(dir, "emulator-state-hook.js");
  const emulator = path.join(REPO_ROOT, "dist", "emulator", "index.js");
  fs.writeFileSync(
    hook,
    `const emulator = require(${JSON.stringify(emulator)});\n` +
      "const start = emulator.startEmulator;\n" +
      `emulator.startEmulator = (options) => start({ ...options, stateFile: ${JSON.stringify(stateFile)} });\n`,
  );
  return hook;
}

/** Every role password in the companion of the emulator's state file. */
function rolePasswords(stateFile: string): string[] {
  const byBranch = JSON.parse(fs.readFileSync(`${stateFile}.passwords`, "utf8")) as Record<
    string,
    Record<string, string>
  >;
  return Object.values(byBranch).flatMap((roles) => Object.values(roles));
}

/** The steps in order: each found after the one before. */
function expectInOrder(text: string, steps: RegExp[]): void {
  let from = 0;
  for (const step of steps) {
    const at = text.slice(from).search(step);
    expect({ step: String(step), found: at >= 0 }).toEqual({ step: String(step), found: true });
    from += at + 1;
  }
}

/** The demo with the CLI at `cliRoot`, its temporary files in `tmp`, and `nodeArgs` before its script. */
function runDemo(cliRoot: string, tmp: string, nodeArgs: string[]): Promise<{ code: number | null; output: string }> {
  const env = { ...process.env, PULUMI_CLI_ROOT: cliRoot, NEON_API_KEY: "", NEON_API_HOST: "", TMPDIR: tmp };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, SCRIPT], { cwd: REPO_ROOT, env });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code, output }));
  });
}

test("the demo through the real CLI tells the whole story and leaves nothing behind", async () => {
  const cliRoot = cliRootOrThrow();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "demo-cli-test-"));
  const stateFile = path.join(dir, "emulator.json");
  const tmp = path.join(dir, "tmp");
  fs.mkdirSync(tmp);
  let run: Awaited<ReturnType<typeof runDemo>>;
  let passwords: string[];
  let leftInTmp: string[];
  try {
    run = await runDemo(cliRoot, tmp, ["-r", passwordHook(dir, stateFile)]);
    passwords = rolePasswords(stateFile);
    leftInTmp = fs.readdirSync(tmp);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const { code, output } = run;
  expect(code).toBe(0);
  const story = [
    /^demo: the example primary-replica-key through the Pulumi CLI .*\/bin\/pulumi$/m,
    /^demo: \$ pulumi preview /m,
    /^ \+ +pulumi-nodejs:dynamic\/neon:Compute primary create/m,
    /^demo: requests sent: none$/m,
    /^demo: \$ pulumi up --yes --skip-preview/m,
    /^ {4}\+ 4 created$/m,
    /^demo: requests sent: 3 changes \(POST [^)]*\), \d+ reads$/m, // two computes and the key, in any order
    /"ciApiKey": "\[secret\]"/,
    /^demo: \$ pulumi preview --diff/m,
    /warning: Compute "primary" \(ep-[a-z0-9-]+\) will restart if it is running: autoscalingLimitMaxCu 2 -> 4/,
    /^demo: requests sent: none$/m,
    /^ {4}~ 1 updated$/m,
    /^demo: requests sent: 1 change \(PATCH \/projects\/[a-z0-9-]+\/endpoints\/ep-[a-z0-9-]+\), \d+ reads$/m,
    /^demo: \$ pulumi up --yes {3}\(again: nothing to do\)$/m,
    /^ {4}4 unchanged$/m,
    /^demo: requests sent: none$/m,
    /^ {4}- 4 deleted$/m,
    /^demo: next, a preview branch with its DATABASE_URL/m,
  ];
  let from = 0;
  for (const step of story) {
    const at = output.slice(from).search(step);
    expect({ step: String(step), found: at >= 0 }).toEqual({ step: String(step), found: true });
    from += at + 1;
  }
  // No API key (the emulator's or the created one: 64 characters of [A-Za-z0-9_-]) is ever printed.
  expect(output).not.toMatch(/[A-Za-z0-9_-]{64}/);
  expect(fs.existsSync(path.join(REPO_ROOT, "examples", "primary-replica-key", "Pulumi.neon-demo.yaml"))).toBe(false);

  // The second chapter: a preview branch with its DATABASE_URL, on the same emulator and backend.
  const chapter = output.slice(output.indexOf("demo: next, a preview branch"));
  expectInOrder(chapter, [
    /^demo: next, a preview branch with its DATABASE_URL: the example pr-preview as the stack pr-42$/m,
    /^demo: \$ pulumi config set expiresAt \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ /m,
    /^demo: \$ pulumi preview {3}\(4 to create: the stack, the branch pr-42, its compute and database/m,
    /^ \+ +pulumi-nodejs:dynamic\/neon:Branch preview create/m,
    /^ {4}\+ 4 to create$/m,
    /^demo: requests sent: none$/m,
    /^demo: \$ pulumi up --yes --skip-preview {3}\(the branch pr-42, a compute and a database on it\)$/m,
    /^ {4}databaseUrl +: \[secret\]$/m,
    /^ {4}\+ 4 created$/m,
    /^demo: requests sent: 3 changes \(POST [^)]*\), \d+ reads$/m,
    /^demo: \$ pulumi stack output databaseUrl --show-secrets /m,
    /^demo: DATABASE_URL=postgresql:\/\/neondb_owner:\*{4}@ep-[a-z0-9-]+\.[a-z0-9.-]+\.neon\.tech\/app\?sslmode=require$/m,
    /^demo: \$ pulumi up --yes --skip-preview {3}\(again: nothing to do\)$/m,
    /^ {4}4 unchanged$/m,
    /^demo: requests sent: 0 changes, 1 read$/m,
    /^demo: the one read is the program's getRolePasswordOutput/m,
    /^demo: \$ pulumi destroy --yes --skip-preview /m,
    /^ {4}- 4 deleted$/m,
    /^demo: requests sent: 3 changes \(DELETE [^)]*\), \d+ reads$/m,
    /^demo: the project's branches: .* \(pr-42 is gone\)$/m,
    /^demo: done$/m,
  ]);
  const changes = [...chapter.matchAll(/^demo: requests sent: 3 changes \(([^)]*)\), \d+ reads$/gm)].map((m) =>
    m[1].split(", ").sort(),
  );
  expect(changes).toHaveLength(2);
  const [made, deleted] = changes;
  expect(made).toEqual([
    expect.stringMatching(/^POST \/projects\/[a-z0-9-]+\/branches$/),
    expect.stringMatching(/^POST \/projects\/[a-z0-9-]+\/branches\/br-[a-z0-9-]+\/databases$/),
    expect.stringMatching(/^POST \/projects\/[a-z0-9-]+\/endpoints$/),
  ]);
  const branch = /branches\/(br-[a-z0-9-]+)\/databases/.exec(made[1])![1];
  expect(deleted).toEqual([
    expect.stringMatching(new RegExp(`^DELETE /projects/[a-z0-9-]+/branches/${branch}$`)),
    expect.stringMatching(new RegExp(`^DELETE /projects/[a-z0-9-]+/branches/${branch}/databases/app$`)),
    expect.stringMatching(/^DELETE \/projects\/[a-z0-9-]+\/endpoints\/ep-[a-z0-9-]+$/),
  ]);
  const branches = /^demo: the project's branches: (.*) \(pr-42 is gone\)$/m.exec(chapter)![1].split(", ");
  expect(branches).toContain("main");
  expect(branches).not.toContain("pr-42");
  // The only connection string printed is the masked one; no role password appears anywhere.
  expect(output.match(/postgres(ql)?:\/\/\S*/g)).toEqual([expect.stringContaining("neondb_owner:****@")]);
  expect(passwords.length).toBeGreaterThan(0);
  for (const password of passwords) expect(output).not.toContain(password);
  expect(fs.existsSync(path.join(REPO_ROOT, "examples", "pr-preview", "Pulumi.pr-42.yaml"))).toBe(false);
  // The file backend's directory is gone (the CLI's program runs through ts-node, which keeps its cache there).
  expect(leftInTmp.filter((name) => !name.startsWith("ts-node-"))).toEqual([]);
});
