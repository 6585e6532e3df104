/**
 * The reliability rig: the emulator (persisted to a state file) and one local stack (testing/) that drives the real
 * dynamic-provider plugin as the Pulumi CLI does, a new plugin process per command. Beyond what a stack offers, it
 * has the moves a reliability test needs:
 *
 * - `restartEmulator(faults)`: closes the emulator and starts it again from its state file, on the same port and
 *   with the same console key, with other fault settings. The emulator's random fault rate is fixed at start, so
 *   this is how a test turns faults on for the faulty `up`s and off for the repairing ones. The stack's config
 *   (neon:apiUrl, neon:apiKey) stays valid: the provider sees one service throughout.
 * - `interrupt()`: kills the running command as a killed `pulumi up` (the state keeps its pending operations).
 * - `results`: every command the rig ran, so that their diagnostics (the plugin's output included) are searched
 *   for secrets and the audit can tell which command made an object and whether that command reported it.
 *
 * A stuck operation (operations.stickNext) never ends in the emulator and keeps its project locked (423) for
 * good; the real service's stuck operations are ended by Neon. `restartEmulator` ends such operations (in the
 * state file, before the restart) unless told otherwise, so the next `up` meets the service Neon would leave.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "fs";
import { tmpdir } from "os";
import * as path from "path";
import { Emulator, EmulatorOptions, FaultKind, Fixture, RequestLogEntry, startEmulator } from "../../emulator";
import { NeonClient } from "../../client";
import { CommandResult, LocalStack, Program, StepRecord } from "../../testing";
import { REPO_ROOT } from "../plugin/world";

export { API_KEY, COMPUTE } from "../plugin/world";
export const BRANCHES = ["main", "dev", "staging"] as const;
export type BranchName = (typeof BRANCHES)[number];

export interface FaultSettings {
  seed: number;
  rate: number;
  kinds?: FaultKind[];
  slowMs?: number;
}

export interface RigOptions {
  /** Projects in the fixture, each with main (and its primary compute), dev and staging. Default 1. */
  projects?: number;
  faults?: FaultSettings;
  /** neon:waitTimeoutSeconds: bounds each operation wait (stuck operations). Default 2. */
  waitTimeoutSeconds?: number;
  operationDurationMs?: number;
  rateLimit?: EmulatorOptions["rateLimit"];
}

export interface RigProject {
  id: string;
  branches: Record<BranchName, string>;
  /** The fixture's own computes (the primary on main): never an orphan, never to be deleted or held by the stack. */
  fixtureComputes: string[];
}

/** Figures of the emulator across its restarts. */
export interface RigCounts {
  requests: number;
  /** Requests answered by an emulator started with random faults on: the base of the fault ratio. */
  faultyRequests: number;
  faults: number;
  byStatus: Record<string, number>;
}

/** One `pulumi up --skip-preview` as a reliability test reads it. */
export interface RigUp {
  /** The command's error first, then every other error it reported (each failed step, each check failure). */
  errors: Error[];
  /** The stack's outputs after the command, secrets shown (`pulumi stack output --show-secrets`). */
  exports: Record<string, unknown>;
  warnings: string[];
  steps: StepRecord[];
  result: CommandResult;
}

export class Rig {
  emulator!: Emulator;
  readonly stack: LocalStack;
  projects: RigProject[] = [];
  /** Every command the rig ran, interrupted ones included, in order. */
  readonly results: CommandResult[] = [];
  readonly counts: RigCounts = { requests: 0, faultyRequests: 0, faults: 0, byStatus: {} };
  private readonly dir = mkdtempSync(path.join(tmpdir(), "neon-reliability-"));
  readonly stateFile = path.join(this.dir, "state.json");
  private port = 0;
  private apiKey?: string;
  private faulty = false;

  private constructor(private readonly options: RigOptions) {
    this.stack = new LocalStack({
      program: () => ({}),
      cwd: REPO_ROOT,
      requestLog: new RunningLog(() => this.emulator),
      env: { ...process.env, NEON_API_KEY: "", NEON_API_HOST: "", NEON_WAIT_TIMEOUT_SECONDS: "" },
    });
  }

  static async start(options: RigOptions = {}): Promise<Rig> {
    const rig = new Rig(options);
    await rig.startEmulator(options.faults);
    rig.apiKey = rig.emulator.apiKey;
    rig.port = Number(new URL(rig.emulator.baseUrl).port);
    rig.stack.setConfig({
      "neon:apiKey": { secret: rig.emulator.apiKey },
      "neon:apiUrl": rig.emulator.baseUrl,
      "neon:waitTimeoutSeconds": String(options.waitTimeoutSeconds ?? 2),
    });
    rig.projects = await rig.readProjects();
    return rig;
  }

  /** A client with the console key, for reading (or changing, as a user would) the service's world. */
  api(): NeonClient {
    return new NeonClient({ apiKey: this.emulator.apiKey, apiUrl: this.emulator.baseUrl });
  }

  /** Restarts the emulator from its state file with these faults (none: faults off); ends stuck operations. */
  async restartEmulator(faults?: FaultSettings, options: { unstick?: boolean } = {}): Promise<void> {
    this.addCounts();
    await this.emulator.close();
    if (options.unstick ?? true) endStuckOperations(this.stateFile);
    await this.startEmulator(faults);
  }

  /** `pulumi up --skip-preview` of `program` (with `preview`: `pulumi up`, its preview first). Never throws. */
  async up(program: Program, options: { preview?: boolean } = {}): Promise<RigUp> {
    this.stack.program = program;
    const result = await this.record(this.stack.up({ skipPreview: !options.preview }));
    return {
      errors: errorsOf(result),
      exports: this.stack.outputs({ showSecrets: true }),
      warnings: result.warnings,
      steps: result.steps,
      result,
    };
  }

  /** `pulumi destroy --skip-preview`. */
  destroy(): Promise<CommandResult> {
    return this.record(this.stack.destroy({ skipPreview: true }));
  }

  /** Kills the running command as a killed CLI (its plugin dies; the state keeps its pending operations). */
  interrupt(): Promise<void> {
    return this.stack.interrupt();
  }

  /** The requests the running emulator logged from `mark` on. */
  requestsSince(mark: number): RequestLogEntry[] {
    return this.emulator.requests.slice(mark);
  }

  /** Requests and faults so far, this emulator's included. */
  totals(): RigCounts {
    const stats = this.emulator.stats();
    const byStatus = { ...this.counts.byStatus };
    for (const [status, n] of Object.entries(stats.byStatus)) byStatus[status] = (byStatus[status] ?? 0) + n;
    return {
      requests: this.counts.requests + stats.requests,
      faultyRequests: this.counts.faultyRequests + (this.faulty ? stats.requests : 0),
      faults: this.counts.faults + this.emulator.faults.injected(),
      byStatus,
    };
  }

  async stop(): Promise<void> {
    await this.stack.interrupt().catch(() => undefined);
    await this.emulator.close();
    rmSync(this.dir, { recursive: true, force: true });
  }

  private async record(command: Promise<CommandResult>): Promise<CommandResult> {
    const result = await command;
    this.results.push(result);
    return result;
  }

  private addCounts(): void {
    Object.assign(this.counts, this.totals());
  }

  private async startEmulator(faults?: FaultSettings): Promise<void> {
    this.emulator = await startEmulator({
      port: this.port,
      apiKey: this.apiKey,
      stateFile: this.stateFile,
      fixture: fixtureOf(this.options.projects ?? 1),
      operationDurationMs: this.options.operationDurationMs ?? 20,
      rateLimit: this.options.rateLimit ?? false,
      ...(faults ? { faults: { slowMs: 200, ...faults } } : {}),
    });
    this.faulty = faults !== undefined && faults.rate > 0;
  }

  private async readProjects(): Promise<RigProject[]> {
    const api = this.api();
    const projects = (await api.projects.listAll({ limit: 400 })).sort((a, b) => a.name.localeCompare(b.name));
    return Promise.all(
      projects.map(async (project) => {
        const branches = await api.branches.list(project.id);
        const byName = Object.fromEntries(branches.map((b) => [b.name, b.id])) as Record<BranchName, string>;
        const computes = (await api.endpoints.list(project.id)).map((c) => c.id);
        return { id: project.id, branches: byName, fixtureComputes: computes };
      }),
    );
  }
}

/** The request log of whichever emulator is running (each restart starts a new one), for the stack's results. */
class RunningLog {
  constructor(private readonly running: () => Emulator) {}

  get requests(): readonly RequestLogEntry[] {
    return this.running().requests;
  }
}

/**
 * What a command reported as errors: its error first, then each error diagnostic it did not already say, but the
 * engine's closing line after a failed step ("update failed": deployment_executor.go reportExecResult), which names
 * nothing of its own (the step's error says what failed).
 */
export function errorsOf(result: CommandResult): Error[] {
  const errors = result.error ? [result.error] : [];
  for (const d of result.diagnostics) {
    if (d.severity !== "error" || d.message === result.error?.message) continue;
    if (!d.urn && /^(update|preview) failed$/.test(d.message)) continue;
    errors.push(new Error(d.message));
  }
  return errors;
}

/** N projects like the default one: main with its primary, dev, staging. Names sort in order. */
export function fixtureOf(projects: number): Fixture {
  const list = Array.from({ length: projects }, (_, i) => ({
    name: `project-${String(i).padStart(3, "0")}`,
    region_id: "aws-us-east-2",
    branches: [
      { name: "main", endpoints: [{ type: "read_write" as const, current_state: "active" as const }] },
      { name: "dev" },
      { name: "staging" },
    ],
  }));
  return { accounts: [{ projects: list }] };
}

/** Ends the operations a stickNext left running forever (as Neon ends a stuck operation), in the state file. */
function endStuckOperations(stateFile: string): void {
  const state = JSON.parse(readFileSync(stateFile, "utf8")) as {
    clockNow: number;
    operations: { endAt: number; runAt: number }[];
  };
  let changed = false;
  for (const op of state.operations) {
    if (op.endAt < Number.MAX_SAFE_INTEGER) continue;
    op.runAt = Math.min(op.runAt, state.clockNow);
    op.endAt = state.clockNow;
    changed = true;
  }
  if (changed) writeFileSync(stateFile, JSON.stringify(state));
}
