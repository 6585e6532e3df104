/**
 * `npm run demo` on a machine without the Pulumi CLI: it runs the example primary-replica-key through the local engine against the
 * emulator and tells the whole story (plan, up, outputs with the key hidden and the project it is limited to, a
 * resize that the preview warns about and that is one PATCH, an up that changes nothing, destroy), then a preview
 * branch with its DATABASE_URL (pr-preview as the stack pr-42: plan, up, the connection string with its password
 * hidden, an up whose one read is the program's, destroy), says so in its first line, exits 0 and leaves nothing
 * running. With `--quiet`, only each command's summary.
 */
import { spawn, spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { findPulumi, useColor } from "../../scripts/demo";
import { REPO_ROOT } from "../plugin/world";

const SCRIPT = path.join(REPO_ROOT, "dist", "scripts", "demo.js");

// A run of the demo (two chapters) takes about 20 s, and the test on a terminal runs it twice.
jest.setTimeout(900_000); // a bound on a hang: the demo takes minutes on a busy machine

/** PATH without any directory that holds a `pulumi` executable. */
function pathWithoutPulumi(): string {
  const dirs = (process.env.PATH ?? "").split(path.delimiter);
  return dirs.filter((dir) => !findPulumi(dir)).join(path.delimiter);
}

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

function runDemo(
  args: string[] = [],
  extraEnv: NodeJS.ProcessEnv = {},
  nodeArgs: string[] = [],
): Promise<{ code: number | null; signal: string | null; output: string }> {
  // PULUMI_CLI_ROOT="" hides the CLI that npm run pulumi:install builds: this is a machine without one.
  const env = {
    ...process.env,
    PATH: pathWithoutPulumi(),
    PULUMI_CLI_ROOT: "",
    NEON_API_KEY: "",
    NEON_API_HOST: "",
    ...extraEnv,
  };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...nodeArgs, SCRIPT, ...args], { cwd: REPO_ROOT, env });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 600_000);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, output });
    });
  });
}

/**
 * The second chapter's changes: the up makes the branch, a compute and a database on the branch; destroy deletes
 * them; and the branch the destroy deletes is the one the up made.
 */
function expectChapterRequests(chapter: string): void {
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
}

describe("demo without the Pulumi CLI", () => {
  it("runs the example through the local engine, telling the whole story, and exits 0", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "demo-test-"));
    const stateFile = path.join(dir, "emulator.json");
    let run: Awaited<ReturnType<typeof runDemo>>;
    let passwords: string[];
    try {
      run = await runDemo([], {}, ["-r", passwordHook(dir, stateFile)]);
      passwords = rolePasswords(stateFile);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
    const { code, signal, output } = run;
    expect(signal).toBeNull(); // ended by itself: the emulator was closed, nothing kept the process alive
    expect(code).toBe(0);
    const lines = output.split("\n");
    expect(lines[0]).toBe(
      "demo: no Pulumi CLI found: the example primary-replica-key on the local engine and the emulator",
    );
    expect(lines[1]).toMatch(/a model of the Pulumi engine's steps, not the Pulumi CLI/);
    // What it is, in lines that fit a terminal of 100 columns (it was one line of about 210).
    for (const line of lines.slice(0, 2)) expect(line.length).toBeLessThanOrEqual(100);
    const story = [
      /\$ pulumi preview/,
      /^ \+ neon:Compute +primary +create$/m,
      /\$ pulumi up/,
      /^ \+ neon:Compute +primary +created$/m, // the up's lines are finished steps, not the plan again
      // The CLI counts the stack (a resource), and shows no step of the default provider (an internal step).
      /^Resources: 4 created \(up: done\)$/m,
      /ciApiKey +: "\[secret\]"/,
      /ciKeyProjectId +: "[a-z0-9-]+"/, // the CI key is limited to the demo's project (an organization's)
      /warning: Compute "primary" \(ep-[a-z0-9-]+\) will restart if it is running: autoscalingLimitMaxCu 2 -> 4/,
      /requests sent: 1 change \(PATCH \/projects\/[a-z0-9-]+\/endpoints\/ep-[a-z0-9-]+\), \d+ reads$/m,
      /^Resources: 4 unchanged \(up: done\)$/m,
      /requests sent: none/,
      /^Resources: 4 deleted \(destroy: done\)$/m,
      /^demo: next, a preview branch with its DATABASE_URL/m,
    ];
    let from = 0;
    for (const step of story) {
      const at = output.slice(from).search(step);
      expect({ step: String(step), found: at >= 0 }).toEqual({ step: String(step), found: true });
      from += at;
    }
    expect(output).not.toContain("\u001b["); // not a TTY: no colour
    expect(output).not.toContain("pulumi:providers"); // the default provider's steps are internal
    // No API key (the emulator's or the created one: 64 characters of [A-Za-z0-9_-]) is ever printed.
    expect(output).not.toMatch(/[A-Za-z0-9_-]{64}/);

    // The second chapter: a preview branch with its DATABASE_URL.
    const chapter = output.slice(output.indexOf("demo: next, a preview branch"));
    expectInOrder(chapter, [
      /^demo: next, a preview branch with its DATABASE_URL: the example pr-preview as the stack pr-42$/m,
      /^demo: \$ pulumi config set expiresAt \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ /m,
      /^demo: \$ pulumi preview {3}\(4 to create: the stack, the branch pr-42, its compute and database/m,
      /^ \+ neon:Branch +preview +create$/m,
      /^Resources: 4 to create \(preview: done\)$/m,
      /^demo: requests sent: none$/m,
      /^demo: \$ pulumi up --yes --skip-preview {3}\(the branch pr-42, a compute and a database on it\)$/m,
      /^ \+ neon:Branch +preview +created$/m,
      /^ {4}databaseUrl +: "\[secret\]"$/m,
      /^Resources: 4 created \(up: done\)$/m,
      /^demo: requests sent: 3 changes \(POST [^)]*\), \d+ reads$/m,
      /^demo: \$ pulumi stack output databaseUrl --show-secrets /m,
      /^demo: DATABASE_URL=postgresql:\/\/neondb_owner:\*{4}@ep-[a-z0-9-]+\.[a-z0-9.-]+\.neon\.tech\/app\?sslmode=require$/m,
      /^demo: \$ pulumi up --yes --skip-preview {3}\(again: nothing to do\)$/m,
      /^Resources: 4 unchanged \(up: done\)$/m,
      /^demo: requests sent: 0 changes, 1 read$/m,
      /^demo: the one read is the program's getRolePasswordOutput/m,
      /^demo: \$ pulumi destroy --yes --skip-preview /m,
      /^Resources: 4 deleted \(destroy: done\)$/m,
      /^demo: requests sent: 3 changes \(DELETE [^)]*\), \d+ reads$/m,
      /^demo: the project's branches: .* \(pr-42 is gone\)$/m,
      /^demo: done$/m,
    ]);
    expectChapterRequests(chapter);
    // The only connection string printed is the masked one; no role password appears anywhere.
    expect(output.match(/postgres(ql)?:\/\/\S*/g)).toEqual([expect.stringContaining("neondb_owner:****@")]);
    expect(passwords.length).toBeGreaterThan(0);
    for (const password of passwords) expect(output).not.toContain(password);
    expect(fs.existsSync(path.join(REPO_ROOT, "examples", "pr-preview", "Pulumi.pr-42.yaml"))).toBe(false);
  });

  it("with --quiet prints what it is, then only each command's summary", async () => {
    const { code, output } = await runDemo(["--quiet"]);
    expect(code).toBe(0);
    const lines = output.split("\n").filter((line) => line !== "");
    expect(lines[0]).toMatch(/^demo: no Pulumi CLI found: /);
    expect(lines[1]).toMatch(/^demo: \(pulumi-neon-dynamic\/testing: /);
    expect(lines.slice(2, -1).every((line) => line.startsWith("Resources: "))).toBe(true);
    // primary-replica-key: preview, up, preview, up, up, destroy; pr-preview: preview, up, up, destroy.
    expect(lines.slice(2, -1)).toHaveLength(10);
    expect(lines[lines.length - 1]).toBe("demo: done");
  });

  // Guard: the demo wrote to the stdin of a `pulumi` that had exited (EPIPE) with no handler: it crashed, leaving its
  // backend directory in the temp dir.
  it.each(["exit 1", "exit 0"])(
    "with a pulumi that exits at once (%s), fails saying why, exits 1 and leaves nothing behind",
    async (script) => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fake-pulumi-"));
      try {
        const bin = path.join(dir, "bin");
        const tmp = path.join(dir, "tmp");
        fs.mkdirSync(bin);
        fs.mkdirSync(tmp);
        fs.writeFileSync(path.join(bin, "pulumi"), `#!/bin/sh\n${script}\n`, { mode: 0o755 });
        const PATH = [bin, pathWithoutPulumi()].join(path.delimiter);
        const { code, signal, output } = await runDemo([], { PATH, PULUMI_CLI_ROOT: dir, TMPDIR: tmp });
        expect(signal).toBeNull(); // it ended by itself: the emulator was closed
        expect(code).toBe(1);
        expect(output).toMatch(
          // exit 0: the CLI may be gone before the key is written to its stdin (EPIPE), or take it and print nothing.
          /^demo: failed: pulumi (stack init exited with 1|config set exited without reading its input|stack output --json printed no outputs)/m,
        );
        expect(output).not.toMatch(/EPIPE|Unhandled/);
        expect(fs.readdirSync(tmp)).toEqual([]); // the file backend's directory is gone
        expect(fs.existsSync(path.join(REPO_ROOT, "examples", "primary-replica-key", "Pulumi.neon-demo.yaml"))).toBe(
          false,
        );
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  );

  it("colours only a terminal, and not with NO_COLOR (set, not empty); FORCE_COLOR forces it", () => {
    const tty = { isTTY: true };
    expect(useColor(tty, {})).toBe(true);
    expect(useColor({}, {})).toBe(false);
    expect(useColor(tty, { NO_COLOR: "1" })).toBe(false);
    expect(useColor(tty, { NO_COLOR: "" })).toBe(true);
    expect(useColor({}, { FORCE_COLOR: "1" })).toBe(true);
    expect(useColor(tty, { FORCE_COLOR: "0" })).toBe(false);
    expect(useColor(tty, { FORCE_COLOR: "1", NO_COLOR: "1" })).toBe(true);
  });

  // Guard: on a terminal the demo coloured its output whatever NO_COLOR said. `script` (util-linux) gives the demo a
  // terminal; without it the test cannot make one.
  const script = ["/usr/bin/script", "/bin/script"].find((file) => fs.existsSync(file));
  (script ? it : it.skip)("on a terminal, colours its output, unless NO_COLOR is set", async () => {
    const onTerminal = (env: NodeJS.ProcessEnv) => {
      const command = [process.execPath, SCRIPT].map((word) => `'${word}'`).join(" ");
      const { FORCE_COLOR: _force, NO_COLOR: _no, ...inherited } = process.env; // jest's workers set FORCE_COLOR
      return spawnSync(script as string, ["-qec", command, "/dev/null"], {
        cwd: REPO_ROOT,
        env: {
          ...inherited,
          PATH: pathWithoutPulumi(),
          PULUMI_CLI_ROOT: "",
          NEON_API_KEY: "",
          NEON_API_HOST: "",
          ...env,
        },
        encoding: "utf8",
        timeout: 600_000,
      });
    };
    const plain = onTerminal({ NO_COLOR: "1" });
    expect(plain.status).toBe(0);
    expect(plain.stdout).toContain("demo: done");
    expect(plain.stdout).not.toContain("\u001b[");
    expect(plain.stdout).not.toContain("Warning");
    const coloured = onTerminal({});
    expect(coloured.stdout).toContain("\u001b[32m + neon:Compute");
  });

  it("finds a pulumi executable on PATH", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "fake-pulumi-"));
    try {
      fs.writeFileSync(path.join(dir, "pulumi"), "#!/bin/sh\n", { mode: 0o755 });
      fs.writeFileSync(path.join(dir, "not-executable"), "");
      expect(findPulumi(["/nonexistent", dir].join(path.delimiter))).toBe(path.join(dir, "pulumi"));
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
