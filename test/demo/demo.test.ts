/**
 * `npm run demo` on a machine without the Pulumi CLI: it runs the example primary-replica-key through the local engine against the
 * emulator and tells the whole story (plan, up, outputs with the key hidden and the project it is limited to, a
 * resize that the preview warns about and that is one PATCH, an up that changes nothing, destroy), says so in its
 * first line, exits 0 and leaves nothing running. With `--quiet`, only each command's summary.
 */
import { spawn, spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { findPulumi, useColor } from "../../scripts/demo";
import { REPO_ROOT } from "../plugin/world";

const SCRIPT = path.join(REPO_ROOT, "dist", "scripts", "demo.js");

/** PATH without any directory that holds a `pulumi` executable. */
function pathWithoutPulumi(): string {
  const dirs = (process.env.PATH ?? "").split(path.delimiter);
  return dirs.filter((dir) => !findPulumi(dir)).join(path.delimiter);
}

function runDemo(
  args: string[] = [],
  extraEnv: NodeJS.ProcessEnv = {},
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
    const child = spawn(process.execPath, [SCRIPT, ...args], { cwd: REPO_ROOT, env });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 120_000);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, output });
    });
  });
}

describe("demo without the Pulumi CLI", () => {
  it("runs the example through the local engine, telling the whole story, and exits 0", async () => {
    const { code, signal, output } = await runDemo();
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
      /^demo: done$/m,
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
  });

  it("with --quiet prints what it is, then only each command's summary", async () => {
    const { code, output } = await runDemo(["--quiet"]);
    expect(code).toBe(0);
    const lines = output.split("\n").filter((line) => line !== "");
    expect(lines[0]).toMatch(/^demo: no Pulumi CLI found: /);
    expect(lines[1]).toMatch(/^demo: \(pulumi-neon-dynamic\/testing: /);
    expect(lines.slice(2, -1).every((line) => line.startsWith("Resources: "))).toBe(true);
    expect(lines.slice(2, -1)).toHaveLength(6); // preview, up, preview, up, up, destroy
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
        timeout: 120_000,
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
