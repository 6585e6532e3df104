/**
 * Section 7: `pulumi up` through the real Pulumi CLI (`CliStack`: the Automation API, an inline program registering
 * the real `Compute` class, a file backend), against the same emulator world as the rest of the bench, beside ours
 * through the local plugin (sections 1 and 2) in the same run.
 *
 * Each stage is one CLI command, as each stage of bench/ours.ts is one plugin: `up --skip-preview` to create (0.25
 * CU), `up --skip-preview` to resize (0.5 CU), `destroy --skip-preview`. Read from the emulator's request log (`at`:
 * service ms of arrival; a response leaves `latency` later):
 *
 * - wall: a stage's first request → its last response, the time the service is being driven (what the plugin's
 *   figure measures, its start excluded), summed over the stages;
 * - fixed cost: a command's start → its first request (the CLI, the language host, the program, the plugin's start,
 *   the first Check), median over the stages;
 * - command: a command's start → `CliStack` returning (which adds its `pulumi stack output`), summed over stages.
 *
 * Without a CLI (`findPulumiCli()`), the section is one row saying so, with no target.
 */
import { execFileSync } from "child_process";
import * as path from "path";
import { Emulator } from "../emulator";
import { Compute } from "../provider";
import { CliStack } from "../testing/cli-stack";
import { findPulumiCli } from "../testing/cli";
import { CommandResult } from "../testing/stack";
import { BenchConfig, limitMs, minimumRequests, real } from "./config";
import { RunResult } from "./measure";
import { resources } from "./ours";
import { Row } from "./report";
import { show, summarize } from "./stats";
import { branchId, COMPUTE_TYPE, emulatorFor, projectId, REPO_ROOT } from "./world";

const SECTION = "7";

export interface Entry {
  method: string;
  path: string;
  status: number;
  at: number;
}

/** One stage (one CLI command), in real ms. */
export interface Stage {
  /** First request → last response. */
  wallMs: number;
  /** Command start → first request. */
  fixedMs: number;
  /** Command start → the command's return. */
  commandMs: number;
  requests: Entry[];
}

export interface CliRun {
  stages: Stage[];
  wallMs: number;
  commandMs: number;
  requests: number;
  byStatus: Record<string, number>;
}

export interface Shape {
  projects: number;
  perProject: number;
  parallel: number;
}

function log(line: string): void {
  process.stderr.write(`bench: ${line}\n`);
}

/**
 * The CLI's environment, which the plugin it starts inherits: as bench/world.ts pluginFor's, the client's rate limit
 * windows scaled like every other duration, and no key or host from this shell.
 */
function cliEnv(config: BenchConfig): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NEON_API_KEY: "",
    NEON_API_HOST: "",
    NEON_PROVIDER_DEBUG: "",
    NEON_RATE_LIMIT: `600/${60_000 / config.timeScale}ms,35/${1000 / config.timeScale}ms`,
  };
}

/** Runs one command and reads its timing from the request log. */
async function stage(
  emulator: Emulator,
  config: BenchConfig,
  expected: { op: string; count: number },
  command: () => Promise<CommandResult>,
): Promise<Stage> {
  const mark = emulator.requests.length;
  const serviceStart = emulator.clock.now();
  const started = performance.now();
  const result = await command();
  const commandMs = performance.now() - started;
  if (result.error) throw result.error;
  const done = result.steps.filter((s) => s.type === COMPUTE_TYPE && s.op === expected.op && !s.error).length;
  if (done !== expected.count) throw new Error(`${expected.op}: ${done} of ${expected.count} computes`);
  const requests = (emulator.requests.slice(mark) as Entry[]).slice().sort((a, b) => a.at - b.at);
  if (requests.length === 0) throw new Error(`${expected.op}: no request reached the emulator`);
  const latency = Math.round(real(config, config.latencyMs));
  const first = requests[0].at;
  const last = Math.max(...requests.map((r) => r.at));
  return {
    wallMs: real(config, last - first) + latency,
    fixedMs: real(config, first - serviceStart),
    commandMs,
    requests,
  };
}

/** Create, resize, destroy through the CLI, on a fresh emulator and a fresh stack. */
export async function cliRun(config: BenchConfig, cliRoot: string, shape: Shape): Promise<CliRun> {
  const emulator = await emulatorFor(config, shape.projects);
  const list = resources(shape.projects, shape.perProject);
  let cu = 0.25;
  const program = () => {
    for (const r of list)
      new Compute(r.name, {
        projectId: projectId(r.project),
        branchId: branchId(r.project),
        type: "read_only",
        autoscalingLimitMinCu: cu,
        autoscalingLimitMaxCu: cu,
      });
  };
  const stack = new CliStack({
    cliRoot,
    program,
    cwd: REPO_ROOT,
    project: "bench",
    stack: "cli",
    parallel: shape.parallel,
    requestLog: emulator,
    env: cliEnv(config),
    config: { "neon:apiKey": { secret: emulator.apiKey }, "neon:apiUrl": emulator.baseUrl },
  });
  try {
    // Untimed: the workspace, the stack and its config (CLI calls of their own), with an empty refresh.
    const warm = await stack.refresh({ skipPreview: true });
    if (warm.error) throw warm.error;
    const n = list.length;
    const stages = [await stage(emulator, config, { op: "create", count: n }, () => stack.up({ skipPreview: true }))];
    cu = 0.5;
    stages.push(await stage(emulator, config, { op: "update", count: n }, () => stack.up({ skipPreview: true })));
    stages.push(await stage(emulator, config, { op: "delete", count: n }, () => stack.destroy({ skipPreview: true })));
    const all = stages.flatMap((s) => s.requests);
    const byStatus: Record<string, number> = {};
    for (const r of all) byStatus[String(r.status)] = (byStatus[String(r.status)] ?? 0) + 1;
    const sum = (f: (s: Stage) => number) => stages.reduce((a, s) => a + f(s), 0);
    return { stages, wallMs: sum((s) => s.wallMs), commandMs: sum((s) => s.commandMs), requests: all.length, byStatus };
  } finally {
    await stack.dispose();
    await emulator.close();
  }
}

/** "v3.248.0", as `pulumi version` prints it; "" when it does not answer. */
function cliVersion(cliRoot: string): string {
  try {
    const env = { ...process.env, PULUMI_SKIP_UPDATE_CHECK: "true" };
    return execFileSync(path.join(cliRoot, "bin", "pulumi"), ["version"], { env, encoding: "utf8" }).trim();
  } catch {
    return "";
  }
}

const status = (r: CliRun, code: number): number => r.byStatus[String(code)] ?? 0;
const median = (values: number[]): number => summarize(values).median;

/**
 * Where a command's time goes, for the log: per stage, the fixed cost, the wall, what follows the last response (the
 * engine's end, the CLI's exit, `CliStack`'s `pulumi stack output`), and the longest stretch of the wall without
 * any request in flight (a request is in flight from its arrival to its response).
 */
function describeStages(config: BenchConfig, run: CliRun): string {
  const names = ["create", "resize", "destroy"];
  const latency = config.latencyMs;
  return run.stages
    .map((s, i) => {
      let gap = 0;
      let busyUntil = s.requests[0].at;
      for (const r of s.requests) {
        gap = Math.max(gap, r.at - busyUntil);
        busyUntil = Math.max(busyUntil, r.at + latency);
      }
      const tail = s.commandMs - s.fixedMs - s.wallMs;
      return `${names[i]}: fixed ${s.fixedMs.toFixed(0)} + wall ${s.wallMs.toFixed(0)} + after ${tail.toFixed(0)} = command ${s.commandMs.toFixed(0)} ms; ${s.requests.length} requests, longest idle ${real(config, gap).toFixed(0)} ms`;
    })
    .join("; ");
}

/** The rows of one scenario: wall, fixed cost, command time, requests, 423/429. */
function scenarioRows(
  config: BenchConfig,
  label: string,
  shape: Shape,
  runs: CliRun[],
  wallTarget: number,
  plugin: { wallMs?: number; wallPerLimit?: number; what: string },
): Row[] {
  const n = shape.projects * shape.perProject;
  const limit = limitMs(config, shape.perProject);
  const wall = summarize(runs.map((r) => r.wallMs / limit));
  const cliWall = median(runs.map((r) => r.wallMs));
  const ratio =
    plugin.wallMs !== undefined
      ? cliWall / plugin.wallMs
      : plugin.wallPerLimit !== undefined
        ? wall.median / plugin.wallPerLimit
        : undefined;
  const versus = ratio !== undefined && Number.isFinite(ratio) ? `; CLI ÷ ${plugin.what}: ${ratio.toFixed(3)}` : "";
  const minimum = minimumRequests(config, n);
  const requests = summarize(runs.map((r) => r.requests / minimum));
  const fixed = summarize(runs.flatMap((r) => r.stages.map((s) => s.fixedMs)));
  const command = summarize(runs.map((r) => r.commandMs / limit));
  return [
    {
      section: SECTION,
      figure: `CLI, ${label}: wall ÷ limit (first request → last response per command; limit ${(limit / 1000).toFixed(1)} s)`,
      value: `${show(wall)}${versus}`,
      target: `≤ ${wallTarget.toFixed(2)}`,
      pass: wall.median <= wallTarget,
    },
    {
      section: SECTION,
      figure: `CLI, same: fixed cost per command (start → first request, ms; over the ${fixed.n} commands)`,
      value: show(fixed, 0),
      target: "",
    },
    {
      section: SECTION,
      figure: "CLI, same: whole commands ÷ limit (3 commands, start → return)",
      value: show(command),
      target: "",
    },
    {
      section: SECTION,
      figure: "CLI, same: requests ÷ minimum",
      value: `${show(requests)} (${median(runs.map((r) => r.requests))} requests, minimum ${minimum})`,
      target: "≤ 1.3",
      pass: requests.median <= 1.3,
    },
    {
      section: SECTION,
      figure: "CLI, same: 423 / 429 responses",
      value: `${show(summarize(runs.map((r) => status(r, 423))), 0)} / ${show(summarize(runs.map((r) => status(r, 429))), 0)}`,
      target: "0 423s",
      pass: runs.every((r) => status(r, 423) === 0),
    },
  ];
}

async function scenario(
  config: BenchConfig,
  cliRoot: string,
  label: string,
  shape: Shape,
  wallTarget: number,
  plugin: { wallMs?: number; wallPerLimit?: number; what: string },
): Promise<Row[]> {
  const runs: CliRun[] = [];
  try {
    for (let i = 0; i < config.runs; i++) {
      log(`through the CLI: ${label}, run ${i + 1} of ${config.runs}`);
      const run = await cliRun(config, cliRoot, shape);
      log(`  ${describeStages(config, run)}`);
      runs.push(run);
    }
  } catch (error) {
    const message = (error instanceof Error ? error.message : String(error)).split("\n")[0].slice(0, 200);
    return [{ section: SECTION, figure: `CLI, ${label}`, value: `failed: ${message}`, target: "", pass: false }];
  }
  return scenarioRows(config, label, shape, runs, wallTarget, plugin);
}

/**
 * Section 7's rows: scenario 1 (the section 1 computes of one project, `config.parallel`) and scenario 2 (section 2's
 * projects × computes, all in parallel), each compared with the plugin's figure of the same run: section 1's wall
 * (`oneProject`), section 2's wall ÷ limit (its first row in `rows`).
 */
export async function cliRows(config: BenchConfig, oneProject: RunResult[], rows: Row[]): Promise<Row[]> {
  const cliRoot = findPulumiCli();
  if (!cliRoot)
    return [
      {
        section: SECTION,
        figure: "through the real Pulumi CLI",
        value: "skipped: no Pulumi CLI (npm run pulumi:install)",
        target: "",
      },
    ];
  const one: Shape = { projects: 1, perProject: config.computes, parallel: config.parallel };
  const many: Shape = {
    projects: config.projects,
    perProject: config.computesPerProject,
    parallel: config.projects * config.computesPerProject,
  };
  const section2 = rows.find((r) => r.section === "2");
  const version = cliVersion(cliRoot);
  const first = `${version ? `${version}, ` : ""}${one.perProject} computes of one project, parallel ${one.parallel}`;
  return [
    ...(await scenario(config, cliRoot, first, one, 1.1, {
      wallMs: median(oneProject.map((r) => r.wallMs)),
      what: "plugin (section 1) wall",
    })),
    ...(await scenario(
      config,
      cliRoot,
      `${many.projects} projects × ${many.perProject} computes, parallel ${many.parallel}`,
      many,
      1.2,
      { wallPerLimit: section2 ? parseFloat(section2.value) : undefined, what: "plugin (section 2) wall" },
    )),
  ];
}
