/**
 * A Go program through the native plugin (bin/pulumi-resource-neon) and the generated Go SDK (sdk/go/neon), run by the
 * real CLI through the Go Automation API (issue 25, item 5): the Go language host cannot be built here, and an inline
 * program serves itself (test/go-automation/main.go, built here with `go build`).
 *
 * One stack: preview (no request), up (a branch and a compute on it), a second up that changes nothing and sends
 * nothing, a resize whose preview carries the restart warning and whose up sends one PATCH, `pulumi import` of a
 * branch made outside Pulumi by its Terraform id (then declared by the program: a preview with no change), a refresh
 * with no change, and destroy. The API key is in no state file and no output in plain text.
 */
import { ChildProcess, execFileSync, spawn } from "child_process";
import * as fs from "fs";
import * as path from "path";
import * as readline from "readline";
import { NeonClient } from "../../client";
import { Emulator, startEmulator } from "../../emulator";
import { cliRootOrThrow } from "./cli-world";
import { ProgramDir } from "./program-dir";

const REPO_ROOT = path.resolve(__dirname, "../../..");
const GO_PROGRAM = path.join(REPO_ROOT, "test", "go-automation");

/** One command's answer (main.go's `answer`), with the emulator's requests while it ran. */
interface Answer {
  command: string;
  error?: string;
  changes?: Record<string, number>;
  outputs?: Record<string, unknown>;
  stdout?: string;
  requests: { method: string; path: string; status: number }[];
}

/** The Go program, running: `send` writes one command and resolves with its answer. */
class GoProgram {
  private readonly answers: string[] = [];
  private waiting?: (line: string) => void;
  readonly exited: Promise<number | null>;

  constructor(
    private readonly child: ChildProcess,
    private readonly emulator: Emulator,
  ) {
    readline.createInterface({ input: child.stdout! }).on("line", (line) => {
      if (this.waiting) this.waiting(line);
      else this.answers.push(line);
    });
    this.exited = new Promise((resolve) => child.on("exit", (code) => resolve(code)));
  }

  /** The next line the program writes (its answer to the last command). */
  private next(): Promise<string> {
    const line = this.answers.shift();
    if (line !== undefined) return Promise.resolve(line);
    return new Promise((resolve, reject) => {
      this.waiting = (l) => {
        this.waiting = undefined;
        resolve(l);
      };
      void this.exited.then((code) => reject(new Error(`the Go program exited (${code}) without answering`)));
    });
  }

  async started(): Promise<void> {
    const answer = JSON.parse(await this.next()) as Answer;
    if (answer.error) throw new Error(`the Go program did not start: ${answer.error}`);
  }

  /** Runs `command`; fails with the CLI's output when it failed. */
  async ok(command: string): Promise<Answer> {
    const mark = this.emulator.requests.length;
    this.child.stdin!.write(`${command}\n`);
    const answer = JSON.parse(await this.next()) as Answer;
    answer.requests = this.emulator.requests.slice(mark);
    if (answer.error) throw new Error(`${command}: ${answer.error}\n${answer.stdout ?? ""}`);
    return answer;
  }

  async quit(): Promise<void> {
    this.child.stdin!.end("quit\n");
    await this.exited;
  }
}

let emulator: Emulator;
let dir: ProgramDir;
let program: GoProgram;

beforeAll(async () => {
  const cliRoot = cliRootOrThrow();
  emulator = await startEmulator({ operationDurationMs: 20, rateLimit: false });
  // The directory, file backend, PULUMI_HOME and environment of the CLI's runs; the program is main.go's.
  dir = new ProgramDir({ prefix: "native-go", project: "neon-go", yaml: true, program: [], emulator, cliRoot });
  const binary = path.join(dir.root, "neon-go-program");
  try {
    execFileSync("go", ["build", "-o", binary, "."], { cwd: GO_PROGRAM, env: dir.env, stdio: "pipe" });
  } catch (error) {
    const said = (error as { stderr?: Buffer }).stderr?.toString() ?? String(error);
    throw new Error(
      `go build of test/go-automation failed (Go 1.25 or later is needed: https://go.dev/dl/):\n${said}`,
      {
        cause: error,
      },
    );
  }
  const child = spawn(binary, [], {
    cwd: dir.root,
    env: { ...dir.env, NEON_PLUGIN_DIR: path.join(REPO_ROOT, "bin") },
    stdio: ["pipe", "pipe", "inherit"],
  });
  program = new GoProgram(child, emulator);
  await program.started();
});

afterAll(async () => {
  await program?.quit();
  await dir?.dispose();
  await emulator?.close();
});

const writes = (answer: Answer) =>
  answer.requests.filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path}`);

it("preview, up, an up with no change, a resize, import, refresh and destroy of a Go program", async () => {
  const { projectId } = emulator;
  const api = new NeonClient({ apiKey: emulator.apiKey, apiUrl: emulator.baseUrl, rateLimit: false });
  for (const setting of [`projectId ${projectId}`, "size 1", `neon:apiUrl ${emulator.baseUrl}`])
    await program.ok(`set ${setting}`);
  await program.ok(`set neon:apiKey ${emulator.apiKey}`);

  const first = await program.ok("preview");
  expect(first.changes).toEqual({ create: 3 }); // the stack, the branch, the compute
  expect(first.requests).toEqual([]);

  const up = await program.ok("up");
  const branch = (await api.branches.list(projectId)).find((b) => b.name === "go-dev")!;
  const [compute] = await api.endpoints.listForBranch(projectId, branch.id);
  expect(writes(up).sort()).toEqual([`POST /projects/${projectId}/branches`, `POST /projects/${projectId}/endpoints`]);
  expect(compute).toMatchObject({ type: "read_write", autoscaling_limit_min_cu: 1, autoscaling_limit_max_cu: 1 });
  expect(up.outputs).toEqual({ branchId: branch.id, computeId: compute.id, host: compute.host, maxCu: 1 });

  const again = await program.ok("up");
  expect(again.changes).toEqual({ same: 3 });
  expect(again.requests).toEqual([]);

  await program.ok("set size 2");
  const resize = await program.ok("preview");
  expect(resize.changes).toEqual({ same: 2, update: 1 });
  expect(resize.stdout).toMatch(/warning: Compute "db" \(ep-[\w-]+\) will restart if it is running: /);
  expect(resize.requests).toEqual([]);
  const resized = await program.ok("up");
  expect(writes(resized)).toEqual([`PATCH /projects/${projectId}/endpoints/${compute.id}`]);
  expect(resized.outputs?.maxCu).toBe(2);

  // A branch made outside Pulumi, imported by its Terraform id, then declared by the program as import handed it back.
  const main = (await api.branches.list(projectId)).find((b) => b.default)!;
  const { branch: outside } = await api.branches.create(projectId, { name: "outside", parent_id: main.id });
  const imported = await program.ok(`import neon:index:Branch outside ${projectId}/${outside.id}`);
  expect(writes(imported)).toEqual([]);
  await program.ok("set importedName outside");
  await program.ok(`set importedParentId ${main.id}`);
  const afterImport = await program.ok("preview");
  expect(afterImport.changes).toEqual({ same: 4 });
  expect(afterImport.requests).toEqual([]);

  const refreshed = await program.ok("refresh");
  expect(refreshed.changes).toEqual({ same: 4 });
  expect(writes(refreshed)).toEqual([]);

  const backend = path.join(dir.root, "backend");
  const files = fs.readdirSync(backend, { recursive: true, withFileTypes: true }).filter((f) => f.isFile());
  for (const file of files)
    expect(fs.readFileSync(path.join(file.parentPath, file.name), "utf8")).not.toContain(emulator.apiKey);
  for (const answer of [first, up, again, resize, resized, imported, afterImport, refreshed])
    expect(JSON.stringify(answer)).not.toContain(emulator.apiKey);

  const destroyed = await program.ok("destroy");
  expect(writes(destroyed).sort()).toEqual(
    [
      `DELETE /projects/${projectId}/endpoints/${compute.id}`,
      `DELETE /projects/${projectId}/branches/${branch.id}`,
      `DELETE /projects/${projectId}/branches/${outside.id}`,
    ].sort(),
  );
  const left = (await api.branches.list(projectId)).map((b) => b.id);
  expect(left).not.toContain(branch.id);
  expect(left).not.toContain(outside.id);
});
