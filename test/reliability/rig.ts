/**
 * The reliability rig: the emulator (persisted to a state file), the real dynamic-provider plugin and the step
 * driver, with the two moves a reliability test needs and the harness does not offer:
 *
 * - `restartEmulator(faults)`: closes the emulator and starts it again from its state file, on the same port and
 *   with the same console key, with other fault settings. The emulator's random fault rate is fixed at start, so
 *   this is how a test turns faults on for the faulty `up`s and off for the repairing ones. The plugin keeps its
 *   configuration (same URL, same key) and sees one service throughout.
 * - `restartPlugin()`: a new plugin process for the same engine state, as after a cancelled `pulumi up`.
 *
 * A stuck operation (operations.stickNext) never ends in the emulator and keeps its project locked (423) for
 * good; the real service's stuck operations are ended by Neon. `restartEmulator` ends such operations (in the
 * state file, before the restart) unless told otherwise, so the next `up` meets the service Neon would leave.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "fs";
import { tmpdir } from "os";
import * as path from "path";
import { Emulator, EmulatorOptions, FaultKind, Fixture, startEmulator } from "../../emulator";
import { NeonClient } from "../../sdk";
import { StepEngine } from "../harness/engine";
import { Plugin } from "../harness/plugin";
import { Program, run } from "../harness/program";
import { REPO_ROOT } from "../harness/world";

export const COMPUTE = "pulumi-nodejs:dynamic/neon:Compute";
export const API_KEY = "pulumi-nodejs:dynamic/neon:ApiKey";
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
  /** The fixture's own computes (the primary on main): never an orphan. */
  fixtureComputes: string[];
}

/** Figures of the emulator across its restarts. */
export interface RigCounts {
  requests: number;
  faults: number;
  byStatus: Record<string, number>;
}

export class Rig {
  emulator!: Emulator;
  plugin!: Plugin;
  engine!: StepEngine;
  projects: RigProject[] = [];
  /** Every plugin started, so that the output of killed ones is searched for secrets too. */
  readonly plugins: Plugin[] = [];
  readonly counts: RigCounts = { requests: 0, faults: 0, byStatus: {} };
  private readonly dir = mkdtempSync(path.join(tmpdir(), "neon-reliability-"));
  readonly stateFile = path.join(this.dir, "state.json");
  private port = 0;
  private apiKey?: string;

  private constructor(private readonly options: RigOptions) {}

  static async start(options: RigOptions = {}): Promise<Rig> {
    const rig = new Rig(options);
    await rig.startEmulator(options.faults);
    rig.apiKey = rig.emulator.apiKey;
    rig.port = Number(new URL(rig.emulator.baseUrl).port);
    await rig.startPlugin();
    rig.engine = new StepEngine(rig.plugin);
    rig.projects = await rig.readProjects();
    return rig;
  }

  /** A client with the console key, for reading the service's world (use with faults off). */
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

  /** A fresh plugin process driving the same engine state (the old one is killed if still alive). */
  async restartPlugin(): Promise<void> {
    this.plugin.kill();
    await this.plugin.close().catch(() => undefined);
    await this.startPlugin();
    // The engine keeps its state (and the key sealing its secrets); only the process it drives changes.
    (this.engine as unknown as { plugin: Plugin }).plugin = this.plugin;
  }

  /** One `pulumi up` of `program`; errors are returned (and kept in engine.errors), not thrown. */
  async up(program: Program): Promise<{ errors: Error[]; exports: Record<string, unknown> }> {
    this.engine.steps = [];
    const result = await run(this.engine, program);
    return { errors: result.errors, exports: result.exports ?? {} };
  }

  /** Requests and faults so far, this emulator's included. */
  totals(): RigCounts {
    const stats = this.emulator.stats();
    const byStatus = { ...this.counts.byStatus };
    for (const [status, n] of Object.entries(stats.byStatus)) byStatus[status] = (byStatus[status] ?? 0) + n;
    return {
      requests: this.counts.requests + stats.requests,
      faults: this.counts.faults + this.emulator.faults.injected(),
      byStatus,
    };
  }

  async stop(): Promise<void> {
    for (const plugin of this.plugins) await plugin.close().catch(() => undefined);
    await this.emulator.close();
    rmSync(this.dir, { recursive: true, force: true });
  }

  private addCounts(): void {
    const totals = this.totals();
    Object.assign(this.counts, totals);
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
  }

  private async startPlugin(): Promise<void> {
    const env = { ...process.env, NEON_API_KEY: "", NEON_API_HOST: "", NEON_WAIT_TIMEOUT_SECONDS: "" };
    this.plugin = await Plugin.start({ cwd: REPO_ROOT, env });
    this.plugins.push(this.plugin);
    await this.plugin.configure({
      "neon:apiKey": this.emulator.apiKey,
      "neon:apiUrl": this.emulator.baseUrl,
      "neon:waitTimeoutSeconds": String(this.options.waitTimeoutSeconds ?? 2),
    });
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
