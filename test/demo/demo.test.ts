/**
 * `npm run demo` without the Pulumi CLI: one line saying what is missing and how to install it, exit code 1,
 * and no emulator left running (the process ends by itself, promptly).
 */
import { spawn } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { findPulumi, NO_CLI_MESSAGE } from "../../scripts/demo";
import { REPO_ROOT } from "../harness/world";

const SCRIPT = path.join(REPO_ROOT, "dist", "scripts", "demo.js");

/** PATH without any directory that holds a `pulumi` executable. */
function pathWithoutPulumi(): string {
  const dirs = (process.env.PATH ?? "").split(path.delimiter);
  return dirs.filter((dir) => !findPulumi(dir)).join(path.delimiter);
}

function runDemo(
  env: NodeJS.ProcessEnv,
): Promise<{ code: number | null; signal: string | null; output: string; ms: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn(process.execPath, [SCRIPT], { cwd: REPO_ROOT, env });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), 15000);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, output, ms: Date.now() - started });
    });
  });
}

describe("demo without the Pulumi CLI", () => {
  it("says so in one line naming the install command, exits 1, and leaves nothing running", async () => {
    const env = { ...process.env, PATH: pathWithoutPulumi() };
    expect(findPulumi(env.PATH)).toBeUndefined();
    const { code, signal, output, ms } = await runDemo(env);
    expect(signal).toBeNull(); // ended by itself: the emulator was closed, nothing kept the process alive
    expect(code).toBe(1);
    expect(ms).toBeLessThan(10000);
    const lines = output.split("\n").filter((line) => line.trim() !== "");
    expect(lines).toEqual([NO_CLI_MESSAGE]);
    expect(lines[0]).toContain("curl -fsSL https://get.pulumi.com | sh");
    expect(lines[0]).toContain("https://www.pulumi.com/docs/install/");
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

/**
 * A stand-in `pulumi` that logs each call (arguments, backend, directory, stdin) and fails the command named
 * in FAKE_FAIL: checks the sequence the demo drives, not the CLI itself (which these machines lack).
 */
const FAKE_CLI = `#!/bin/sh
{ printf '%s' "$*"; printf ' | %s | %s | stdin=' "$PULUMI_BACKEND_URL" "$PWD"; cat; printf '\\n'; } >> "$FAKE_LOG"
if [ "$1 $2" = "stack output" ]; then echo '{"ciApiKey":"[secret]"}'; fi
if [ "$1" = "$FAKE_FAIL" ]; then exit 1; fi
exit 0
`;

describe("demo with a Pulumi CLI (a stand-in that records its calls)", () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), "fake-pulumi-"));
    fs.writeFileSync(path.join(dir, "pulumi"), FAKE_CLI, { mode: 0o755 });
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  async function demoWithFake(fail = "") {
    const log = path.join(dir, "calls.log");
    const env = {
      ...process.env,
      PATH: [dir, pathWithoutPulumi()].join(path.delimiter),
      FAKE_LOG: log,
      FAKE_FAIL: fail,
    };
    const result = await runDemo(env);
    const calls = fs
      .readFileSync(log, "utf8")
      .trim()
      .split("\n")
      .map((line) => line.split(" | "));
    return { ...result, calls };
  }

  it("inits a stack on a file backend, sets config (the key through stdin), ups, prints outputs, destroys", async () => {
    const { code, output, calls } = await demoWithFake();
    expect(code).toBe(0);
    expect(calls.map((c) => c[0].replace(/^(config set [\w:]+) \S+$/, "$1 <value>"))).toEqual([
      "stack init neon-demo",
      "config set neon:apiUrl <value>",
      "config set --secret neon:apiKey",
      "config set projectId <value>",
      "config set branchId <value>",
      "up --yes --skip-preview=false",
      "stack output --json --show-secrets=false",
      "destroy --yes",
      "stack rm --yes",
    ]);
    expect(calls[2][3]).toMatch(/^stdin=\S{20,}$/);
    for (const [, backend, cwd] of calls) {
      expect(backend).toMatch(/^file:\/\/.*neon-demo-/);
      expect(cwd).toBe(path.join(REPO_ROOT, "examples", "primary-replica-key"));
    }
    expect(output).toContain('{"ciApiKey":"[secret]"}');
    expect(fs.existsSync(calls[0][1].slice("file://".length))).toBe(false);
  });

  it("a failed up still destroys and removes the stack, and exits 1", async () => {
    const { code, calls } = await demoWithFake("up");
    expect(code).toBe(1);
    expect(calls.map((c) => c[0]).slice(-3)).toEqual([
      "up --yes --skip-preview=false",
      "destroy --yes",
      "stack rm --yes",
    ]);
  });
});
