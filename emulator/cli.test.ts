import { spawn, type ChildProcessWithoutNullStreams } from "node:child_process";
import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { branchVariable, keyFileOf, readyLines } from "./cli";
import { parseCli } from "./cli-options";
import { TestClient } from "./test-client";

const CLI = join(__dirname, "cli.js");
const REPO_ROOT = resolve(__dirname, "../..");

/** A running `neon-emulator`: what it printed on stdout as NAME=value pairs, and its stderr so far. */
interface Running {
  child: ChildProcessWithoutNullStreams;
  vars: Record<string, string>;
  stdout: string;
  stderr: () => string;
}

/** The CLIs a test started, stopped after it whatever happened (a failed expectation must not leave one running). */
const started = new Set<ChildProcessWithoutNullStreams>();
afterEach(() => {
  for (const child of started) if (child.exitCode === null) child.kill("SIGKILL");
  started.clear();
});

/**
 * Starts the CLI and waits until it is ready: its stdout lines (each must be NAME=value, what a script parses) and
 * the stderr it writes before them, ending with the service behaviours. It runs in `cwd` (default: a new temporary
 * folder, so that the world it keeps there by default is its own).
 */
async function startCli(args: string[], cwd = mkdtempSync(join(tmpdir(), "neon-cli-cwd-"))): Promise<Running> {
  const child = spawn(process.execPath, [CLI, "--port", "0", "--no-rate-limit", ...args], { cwd });
  started.add(child);
  let stdout = "";
  let stderr = "";
  await new Promise<void>((ready, fail) => {
    const check = () => {
      if (/NEON_PROJECT_ID=.*\n/.test(stdout) && /service behaviours: .*\n/.test(stderr)) ready();
    };
    child.stdout.on("data", (d: Buffer) => {
      stdout += d.toString();
      check();
    });
    child.stderr.on("data", (d: Buffer) => {
      stderr += d.toString();
      check();
    });
    child.on("exit", (code) => fail(new Error(`exited ${code}: ${stderr}`)));
  });
  const lines = stdout.trimEnd().split("\n");
  for (const line of lines) expect(line).toMatch(/^[A-Z][A-Z0-9_]*=\S+$/);
  const vars = Object.fromEntries(
    lines.map((line) => [line.slice(0, line.indexOf("=")), line.slice(line.indexOf("=") + 1)]),
  );
  return { child, vars, stdout, stderr: () => stderr };
}

/** SIGTERM, as Ctrl-C or a CI step's end: its exit code and all it said on stderr. */
async function stopCli(running: Running): Promise<{ code: number | null; stderr: string }> {
  const exited = new Promise<number | null>((done) => running.child.on("exit", (code) => done(code)));
  running.child.kill("SIGTERM");
  const code = await exited;
  return { code, stderr: running.stderr() };
}

/** The default project's branches by name, as the API lists them. */
async function branchesOf(running: Running): Promise<Record<string, string>> {
  const c = new TestClient(running.vars.NEON_API_HOST, running.vars.NEON_API_KEY);
  const res = await c.get(`/projects/${running.vars.NEON_PROJECT_ID}/branches`);
  c.close();
  return Object.fromEntries(res.body.branches.map((b: { name: string; id: string }) => [b.name, b.id]));
}

describe("cli", () => {
  it("parses the documented flags", () => {
    const o = parseCli([
      "--port",
      "0",
      "--api-key",
      "k",
      "--time-scale",
      "60",
      "--faults",
      "seed=1,rate=0.1",
      "--no-rate-limit",
    ]);
    expect(o).toMatchObject({ port: 0, apiKey: "k", timeScale: 60, faults: { seed: 1, rate: 0.1 }, rateLimit: false });
    expect(parseCli(["--rate-limit", "100,5"]).rateLimit).toEqual({ perMinute: 100, burstPerSecondPerRoute: 5 });
    expect(() => parseCli(["--port", "abc"])).toThrow(/--port/);
    expect(() => parseCli(["--bogus"])).toThrow();
    expect(parseCli(["--branch-move", "refused"]).branchMove).toBe("refused");
    expect(parseCli(["--pooler-requests", "refused"]).poolerRequests).toBe("refused");
    expect(() => parseCli(["--pooler-requests", "no"])).toThrow(/--pooler-requests.*allowed: accepted, refused/);
    expect(() => parseCli(["--branch-move", "sideways"])).toThrow(/--branch-move.*allowed: moves, refused, ignored/);
  });

  it("starts, prints the base URL and the key once, serves, and saves state on SIGTERM", async () => {
    const stateFile = join(mkdtempSync(join(tmpdir(), "neon-cli-")), "state.json");
    const child = spawn(process.execPath, [CLI, "--port", "0", "--state-file", stateFile, "--no-rate-limit"], {
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    await new Promise<void>((resolve, reject) => {
      child.stdout.on("data", (d: Buffer) => {
        out += d.toString();
        if (out.includes("NEON_PROJECT_ID=")) resolve();
      });
      child.on("exit", (code) => reject(new Error(`exited ${code}`)));
    });
    const url = /NEON_API_HOST=(\S+)/.exec(out)?.[1] as string;
    const key = /NEON_API_KEY=(\S+)/.exec(out)?.[1] as string;
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/v2$/);
    expect(key).toMatch(/^[a-z0-9]{64}$/);
    expect(out.split(key).length - 1).toBe(1);
    const c = new TestClient(url, key);
    expect((await c.post("/api_keys", { key_name: "from-cli-test" })).status).toBe(200);
    c.close();
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    child.kill("SIGTERM");
    expect(await exited).toBe(0);
    const saved = readFileSync(stateFile, "utf8");
    expect(saved).toContain("from-cli-test");
    expect(saved).not.toContain(key);
  });

  it("prints the default project's branch ids beside its key (NEON_BRANCH_MAIN, _DEV, _STAGING), one NAME=value line each", async () => {
    const running = await startCli([]);
    const branches = await branchesOf(running);
    expect(Object.keys(running.vars)).toEqual([
      "NEON_API_HOST",
      "NEON_API_KEY",
      "NEON_PROJECT_ID",
      "NEON_BRANCH_MAIN",
      "NEON_BRANCH_DEV",
      "NEON_BRANCH_STAGING",
    ]);
    expect(running.vars).toMatchObject({
      NEON_BRANCH_MAIN: branches.main,
      NEON_BRANCH_DEV: branches.dev,
      NEON_BRANCH_STAGING: branches.staging,
    });
    expect(running.vars.NEON_BRANCH_MAIN).toMatch(/^br-/);
    const { code, stderr } = await stopCli(running);
    expect(code).toBe(0);
    expect(stderr).toContain("SIGTERM, saving state to .neon-emulator/world.json and closing");
  });

  it("restarted with no flags it keeps its world (key, ids, objects) in a git-ignored .neon-emulator folder, secrets 0600; --fresh starts a new one that names the replaced world", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "neon-cli-world-"));
    const first = await startCli([], cwd);
    const c = new TestClient(first.vars.NEON_API_HOST, first.vars.NEON_API_KEY);
    expect((await c.post("/api_keys", { key_name: "made-before-restart" })).status).toBe(200);
    c.close();
    await stopCli(first);

    const second = await startCli([], cwd);
    const { NEON_API_HOST: _host, ...kept } = first.vars;
    expect(second.vars).toMatchObject(kept); // the key, the project and branch ids
    const c2 = new TestClient(second.vars.NEON_API_HOST, second.vars.NEON_API_KEY);
    const res = await c2.get("/api_keys");
    expect(res.body.map((k: { name: string }) => k.name)).toContain("made-before-restart");
    const world = res.headers["x-neon-emulator-world"];
    expect(world).toMatch(/^world-[0-9a-f]{12}$/);
    expect(second.stderr()).toContain(`world ${world}, kept in .neon-emulator/world.json (--fresh starts a new one)`);
    c2.close();
    await stopCli(second);

    const folder = join(cwd, ".neon-emulator");
    expect(readFileSync(join(folder, ".gitignore"), "utf8")).toMatch(/^\*$/m);
    expect(statSync(folder).mode & 0o777).toBe(0o700);
    for (const file of ["world.json", "world.json.key", "world.json.passwords"]) {
      expect(statSync(join(folder, file)).mode & 0o777).toBe(0o600);
    }

    const fresh = await startCli(["--fresh"], cwd);
    expect(fresh.vars.NEON_API_KEY).not.toBe(first.vars.NEON_API_KEY);
    expect(fresh.vars.NEON_PROJECT_ID).not.toBe(first.vars.NEON_PROJECT_ID);
    expect(fresh.stderr()).toMatch(/a fresh world world-\w+ replaces the one kept in .neon-emulator\/world.json/);
    const stale = new TestClient(fresh.vars.NEON_API_HOST, first.vars.NEON_API_KEY);
    const refused = await stale.get(`/projects/${first.vars.NEON_PROJECT_ID}`);
    expect(refused.status).toBe(401);
    expect(refused.headers["x-neon-emulator-previous-world"]).toBe(world);
    stale.close();
    await stopCli(fresh);
  });

  it("names a branch's variable from its name; a name another branch's variable already took is left out", () => {
    expect(branchVariable("main")).toBe("NEON_BRANCH_MAIN");
    expect(branchVariable("feature/login-2")).toBe("NEON_BRANCH_FEATURE_LOGIN_2");
    const em = { baseUrl: "http://h/api/v2", apiKey: "k", projectId: "p", branches: { dev: "br-1", DEV: "br-2" } };
    expect(readyLines(em, "org-x")).toEqual([
      "NEON_API_HOST=http://h/api/v2",
      "NEON_API_KEY=k",
      "NEON_PROJECT_ID=p",
      "NEON_ORG_ID=org-x",
      "NEON_BRANCH_DEV=br-1",
    ]);
  });

  it("a reloaded state file keeps its console key: a restart prints the same key, kept beside the state file (never in it)", async () => {
    const stateFile = join(mkdtempSync(join(tmpdir(), "neon-cli-")), "state.json");
    const first = await startCli(["--state-file", stateFile]);
    const key = first.vars.NEON_API_KEY;
    expect(first.stderr()).toContain(`console key kept in ${keyFileOf(stateFile)}`);
    const stopped = await stopCli(first);
    expect(stopped.code).toBe(0);
    expect(stopped.stderr).toContain(`SIGTERM, saving state to ${stateFile} and closing`);

    const second = await startCli(["--state-file", stateFile]);
    expect(second.vars.NEON_API_KEY).toBe(key);
    expect(second.vars.NEON_BRANCH_DEV).toBe(first.vars.NEON_BRANCH_DEV);
    expect(second.stderr()).toContain(`console key reused from ${keyFileOf(stateFile)}`);
    const c = new TestClient(second.vars.NEON_API_HOST, key);
    const keys = (await c.get("/api_keys")).body as { name: string }[];
    expect(keys.map((k) => k.name)).toEqual(["console"]); // no new console key at each start
    c.close();
    expect((await stopCli(second)).code).toBe(0);
    expect(readFileSync(stateFile, "utf8")).not.toContain(key);
    expect(readFileSync(keyFileOf(stateFile), "utf8")).toBe(`${key}\n`);
    expect(statSync(keyFileOf(stateFile)).mode & 0o777).toBe(0o600);
  });

  it("a kept console key that was revoked is replaced by a new one, saying so; --api-key wins over the kept one", async () => {
    const stateFile = join(mkdtempSync(join(tmpdir(), "neon-cli-")), "state.json");
    const first = await startCli(["--state-file", stateFile]);
    const c = new TestClient(first.vars.NEON_API_HOST, first.vars.NEON_API_KEY);
    const [consoleKey] = (await c.get("/api_keys")).body as { id: number }[];
    expect((await c.del(`/api_keys/${consoleKey.id}`)).status).toBe(200);
    c.close();
    await stopCli(first);

    const second = await startCli(["--state-file", stateFile]);
    expect(second.vars.NEON_API_KEY).not.toBe(first.vars.NEON_API_KEY);
    expect(second.stderr()).toMatch(
      /the console key kept in .*state\.json\.key was refused \(.*revoked.*\): a new one/,
    );
    const c2 = new TestClient(second.vars.NEON_API_HOST, second.vars.NEON_API_KEY);
    expect((await c2.get("/api_keys")).status).toBe(200);
    c2.close();
    await stopCli(second);
    expect(readFileSync(keyFileOf(stateFile), "utf8")).toBe(`${second.vars.NEON_API_KEY}\n`);

    const given = "given-console-key-0123456789abcdefghijklmnopqrstuvwxyz0123456789ab";
    const third = await startCli(["--state-file", stateFile, "--api-key", given]);
    expect(third.vars.NEON_API_KEY).toBe(given);
    await stopCli(third);
    expect(readFileSync(keyFileOf(stateFile), "utf8")).toBe(`${given}\n`);
  });

  it("npm run emulator before a build says to run npm run build first, with no stack trace; after it, passes its flags on", async () => {
    const npm = (cwd: string, args: string[]) =>
      new Promise<{ code: number | null; out: string; err: string }>((done) => {
        const child = spawn("npm", ["run", "--silent", "emulator", "--", ...args], { cwd });
        let out = "";
        let err = "";
        child.stdout.on("data", (d: Buffer) => (out += d.toString()));
        child.stderr.on("data", (d: Buffer) => (err += d.toString()));
        child.on("exit", (code) => done({ code, out, err }));
      });
    // A checkout before its first build: the package's own emulator script, and no dist/.
    const unbuilt = mkdtempSync(join(tmpdir(), "neon-unbuilt-"));
    const { scripts } = JSON.parse(readFileSync(join(REPO_ROOT, "package.json"), "utf8"));
    writeFileSync(
      join(unbuilt, "package.json"),
      JSON.stringify({ name: "unbuilt", scripts: { emulator: scripts.emulator } }),
    );
    const before = await npm(unbuilt, ["--port", "4010"]);
    expect(before.code).toBe(1);
    expect(before.err).toContain("run npm run build first");
    expect(before.err).not.toMatch(/Cannot find module|\n\s+at /);

    const built = await npm(REPO_ROOT, ["--help"]);
    expect(built.code).toBe(0);
    expect(built.out).toContain("--state-file F");
  });

  it("--help prints the usage; a bad flag exits 2", async () => {
    const run = (args: string[]) =>
      new Promise<{ code: number | null; out: string }>((resolve) => {
        const child = spawn(process.execPath, [CLI, ...args]);
        let out = "";
        child.stdout.on("data", (d: Buffer) => (out += d.toString()));
        child.stderr.on("data", (d: Buffer) => (out += d.toString()));
        child.on("exit", (code) => resolve({ code, out }));
      });
    const help = await run(["--help"]);
    expect(help.code).toBe(0);
    expect(help.out).toContain("--time-scale");
    expect((await run(["--port", "nope"])).code).toBe(2);
  });
});
