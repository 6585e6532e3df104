/**
 * `pulumi up --continue-on-error` with resources renamed in the program (their Pulumi names changed, the same `name`)
 * without an alias, through the real Pulumi CLI (v3.248.0) on a small `Pulumi.yaml` program, against the emulator
 * (docs/troubleshooting.md, "`--continue-on-error` and renamed resources"). Each rename is a create of the new name,
 * which fails (the service already has that role or database), and a delete of the old one, which
 * `--continue-on-error` carries out:
 * - a Database renamed: the database is deleted (with its data); the CLI exits 1; the next `up` creates an empty one;
 * - a Role renamed that another resource depends on (`dependsOn`) without owning anything of it: the role is deleted,
 *   the dependent is skipped and still names it in the state, so the CLI cannot save the state ("snapshot integrity
 *   failure"); with stack outputs (the program exports ids), it then panics (exit 2) and leaves its lock: the save of
 *   the outputs fails too, and with --continue-on-error that error path marks a step that is nil as failed
 *   (step_executor.go, executeRegisterResourceOutputs → cancelDueToError(err, nil) → step.Fail()). Without stack
 *   outputs it exited 1, without a panic, in the runs made. After `pulumi cancel`, `preview` refuses the state until
 *   `pulumi state repair`, and the next `up` creates the role again.
 */
import { spawn } from "child_process";
import * as fs from "fs";
import * as path from "path";
import { Emulator, startEmulator } from "../../emulator";
import { NeonClient } from "../../sdk";
import { cliRootOrThrow } from "./cli-world";

const REPO_ROOT = path.resolve(__dirname, "../../..");
const PROJECT = "renamed";

let emulator: Emulator;
let api: NeonClient;
let cliRoot: string;

beforeAll(async () => {
  cliRoot = cliRootOrThrow();
  emulator = await startEmulator({ operationDurationMs: 20, rateLimit: false });
  api = new NeonClient({ apiKey: emulator.apiKey, apiUrl: emulator.baseUrl, rateLimit: false });
});
afterAll(() => emulator?.close());

interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  /** "METHOD /path status" of the emulator's requests during the run that change something. */
  writes: string[];
}

interface StateResource {
  urn: string;
  id?: string;
  dependencies?: string[];
}

/** A program directory inside the repository (so that the package resolves), its file backend and PULUMI_HOME. */
class ProgramDir {
  readonly root = fs.mkdtempSync(path.join(REPO_ROOT, "test", "cli", ".tmp-continue-"));
  readonly program = path.join(this.root, "program");
  readonly env: NodeJS.ProcessEnv;

  constructor() {
    fs.mkdirSync(this.program);
    fs.mkdirSync(path.join(this.root, "backend"));
    fs.writeFileSync(
      path.join(this.program, "Pulumi.yaml"),
      `name: ${PROJECT}\nruntime:\n  name: nodejs\n  options:\n    typescript: false\nmain: index.js\n`,
    );
    fs.writeFileSync(
      path.join(this.program, "index.js"),
      [
        `const pulumi = require("@pulumi/pulumi");`,
        `const { Database, Role } = require("pulumi-neon-dynamic");`,
        `const config = new pulumi.Config();`,
        `const projectId = config.require("projectId");`,
        `const branchId = config.require("branchId");`,
        `const owner = "neondb_owner";`,
        `const role = new Role(config.get("roleResource") || "app", { projectId, branchId, name: "app_user" });`,
        `const db = new Database(config.get("dbResource") || "db", { projectId, branchId, name: "appdb", ownerName: owner });`,
        `new Database("keep", { projectId, branchId, name: "keepdb", ownerName: owner }, { dependsOn: [role] });`,
        `exports.role = role.id;`,
        `exports.db = db.id;`,
        ``,
      ].join("\n"),
    );
    this.env = {
      ...process.env,
      PULUMI_BACKEND_URL: `file://${path.join(this.root, "backend")}`,
      PULUMI_HOME: path.join(this.root, "home"),
      PULUMI_CONFIG_PASSPHRASE: "pulumi-neon-dynamic-tests",
      PULUMI_SKIP_UPDATE_CHECK: "true",
      PULUMI_DISABLE_AUTOMATIC_PLUGIN_ACQUISITION: "true",
      PULUMI_OPTION_NON_INTERACTIVE: "true",
      PATH: `${path.join(cliRoot, "bin")}${path.delimiter}${process.env.PATH ?? ""}`,
      NEON_API_KEY: "",
      NEON_API_HOST: "",
    };
  }

  run(args: string[]): Promise<Run> {
    const mark = emulator.requests.length;
    return new Promise((resolve, reject) => {
      const child = spawn(path.join(cliRoot, "bin", "pulumi"), [...args, "--non-interactive"], {
        cwd: this.program,
        env: this.env,
        stdio: ["ignore", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      child.stdout?.on("data", (chunk) => (stdout += chunk));
      child.stderr?.on("data", (chunk) => (stderr += chunk));
      child.on("error", reject);
      child.on("close", (code) => {
        const writes = (emulator.requests.slice(mark) as { method: string; path: string; status: number }[])
          .filter((r) => r.method !== "GET")
          .map((r) => `${r.method} ${r.path.replace(/^\/projects\/[^/]+\/branches\/[^/]+/, "")} ${r.status}`);
        resolve({ code, stdout, stderr, writes });
      });
    });
  }

  async ok(args: string[]): Promise<Run> {
    const result = await this.run(args);
    if (result.code !== 0)
      throw new Error(`pulumi ${args.join(" ")} exited ${result.code}:\n${result.stdout}\n${result.stderr}`);
    return result;
  }

  /** "name id <- dependencies" of the provider's resources in the stack's checkpoint. */
  state(): string[] {
    const file = path.join(this.root, "backend", ".pulumi", "stacks", PROJECT, "dev.json");
    const latest = (
      JSON.parse(fs.readFileSync(file, "utf8")) as { checkpoint: { latest: { resources?: StateResource[] } } }
    ).checkpoint.latest;
    const name = (urn: string) => urn.split("::").pop();
    return (latest.resources ?? [])
      .filter((r) => r.urn.includes("dynamic/neon:"))
      .map((r) => `${name(r.urn)} <- ${(r.dependencies ?? []).map(name).join(",")}`);
  }

  /** Kills (by pid) the plugins a crashed CLI left running (they carry this PULUMI_HOME), then removes the directory. */
  async dispose(): Promise<void> {
    const marker = `PULUMI_HOME=${this.env.PULUMI_HOME}`;
    for (const entry of fs.readdirSync("/proc")) {
      if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
      try {
        if (fs.readFileSync(`/proc/${entry}/environ`, "utf8").split("\0").includes(marker))
          process.kill(Number(entry), "SIGKILL");
      } catch {
        // gone, or not ours to read
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
    fs.rmSync(this.root, { recursive: true, force: true });
  }
}

const UP = ["up", "--yes", "--skip-preview"];

it("the real CLI: up --continue-on-error deletes a renamed Database, and deletes a renamed Role then panics on the state; pulumi state repair recovers", async () => {
  const branchId = (await api.branches.create(emulator.projectId, { branch: { name: "renamed" } })).branch.id;
  const names = async () => ({
    roles: (await api.roles.list(emulator.projectId, branchId)).map((r) => r.name).sort(),
    databases: (await api.databases.list(emulator.projectId, branchId)).map((d) => d.name).sort(),
  });
  const dir = new ProgramDir();
  try {
    await dir.ok(["stack", "init", "dev"]);
    await dir.ok(["config", "set", "--secret", "neon:apiKey", emulator.apiKey]);
    await dir.ok(["config", "set", "neon:apiUrl", emulator.baseUrl]);
    await dir.ok(["config", "set", "projectId", emulator.projectId]);
    await dir.ok(["config", "set", "branchId", branchId]);
    await dir.ok(UP);
    const appdb = (await api.databases.list(emulator.projectId, branchId)).find((d) => d.name === "appdb")?.id;

    // The Database renamed: the create fails, the old database is deleted; exit 1, no crash.
    await dir.ok(["config", "set", "dbResource", "db2"]);
    const dbRenamed = await dir.run([...UP, "--continue-on-error"]);
    expect(dbRenamed.code).toBe(1);
    expect(dbRenamed.stdout).toContain("already has a database named appdb");
    expect(dbRenamed.stderr).not.toContain("panic:");
    expect(dbRenamed.writes).toEqual(["DELETE /databases/appdb 200"]);
    expect((await names()).databases).not.toContain("appdb");
    // The next up creates an empty database of that name (another id).
    expect((await dir.ok(UP)).writes).toEqual(["POST /databases 201"]);
    const again = (await api.databases.list(emulator.projectId, branchId)).find((d) => d.name === "appdb")?.id;
    expect(again).toBeDefined();
    expect(again).not.toBe(appdb);

    // The Role renamed: the create fails, "keep" (dependsOn the role) is skipped, the old role is deleted; the state
    // would keep keep's dependency on it, so the CLI cannot save it and panics, leaving its lock.
    await dir.ok(["config", "set", "roleResource", "app2"]);
    const roleRenamed = await dir.run([...UP, "--continue-on-error"]);
    expect(roleRenamed.code).toBe(2);
    expect(roleRenamed.stdout).toContain("already has a role named app_user");
    expect(roleRenamed.stdout).toContain(
      `snapshot integrity failure; it was already written, but is invalid (backup available at .pulumi/stacks/${PROJECT}/dev.json.bak): ` +
        `resource urn:pulumi:dev::${PROJECT}::pulumi-nodejs:dynamic/neon:Database::keep refers to missing dependency ` +
        `urn:pulumi:dev::${PROJECT}::pulumi-nodejs:dynamic/neon:Role::app`,
    );
    expect(roleRenamed.stderr).toContain("panic: runtime error: invalid memory address or nil pointer dereference");
    expect(roleRenamed.writes).toEqual(["DELETE /roles/app_user 200"]);
    expect((await names()).roles).not.toContain("app_user");
    expect(dir.state()).toContain("keep <- app");

    const locked = await dir.run(UP);
    expect(locked.stderr).toContain("the stack is currently locked by 1 lock(s)");
    await dir.ok(["cancel", "--yes"]);
    const refused = await dir.run(["preview"]);
    expect(refused.code).not.toBe(0);
    expect(refused.stdout + refused.stderr).toContain("The Pulumi CLI encountered a snapshot integrity error");
    expect(refused.writes).toEqual([]);

    // `pulumi state repair` drops the dangling dependency; the next up creates the role again (a new password).
    const repaired = await dir.ok(["state", "repair", "--yes"]);
    expect(repaired.stdout + repaired.stderr).toContain("State repaired successfully");
    expect(dir.state()).toContain("keep <- ");
    expect((await dir.ok(UP)).writes).toEqual(["POST /roles 201"]);
    expect(dir.state()).toContain("keep <- app2");
    expect(await names()).toMatchObject({ roles: expect.arrayContaining(["app_user"]) });
  } finally {
    await dir.dispose();
  }
});
