/**
 * `npm run bench`: measures speed and cost of the provider against the emulator, beside the peers' strategies and
 * the limit set by the service, prints one table, writes bench/results.md and bench/results.svg, and exits 1 when
 * a target is missed. `--quick` for a short run; `--runs N`, `--time-scale S`, `--latency MS` override.
 */
import { writeFileSync } from "fs";
import * as os from "os";
import * as path from "path";
import { describeBehaviours } from "../emulator";
import { cliRows } from "./cli";
import { BenchConfig, limitMs, parseArgs, phaseMs, real } from "./config";
import { RunResult } from "./measure";
import { chart, Row, Series, table } from "./report";
import {
  BASELINES,
  baselineRuns,
  manyProjects,
  oneProjectRows,
  oursRuns,
  scalingRows,
  staticFigures,
} from "./sections";
import { Strategy } from "./baselines";
import { dynamicFace, Face, withNativeFace } from "./faces";
import { summarize } from "./stats";
import { captureInputs } from "./world";

const COLORS = ["#d62728", "#ff7f0e", "#9467bd"];

/** The line naming the emulated service's behaviours, printed first when the run starts and atop the results. */
function behavioursLine(config: BenchConfig): string {
  return `Emulator behaviours (the real service's unless noted): ${describeBehaviours(config.service)}.`;
}

function header(config: BenchConfig): string {
  const deletePhases = config.service.deleteOperations ? "1 (its suspend_compute)" : "none";
  return [
    behavioursLine(config),
    `Emulator: operations of ${config.operationMs} ms service time per phase (a create: 1 phase; a resize of a running compute: 3; a delete: ${deletePhases}),`,
    `request round trip ${config.latencyMs} ms service time, the service's rate limits on (700/min per account, 40/s per route).`,
    `Service time runs ${config.timeScale}× faster than real time (an operation phase takes ${phaseMs(config)} ms real, a round trip ${Math.round(real(config, config.latencyMs))} ms real);`,
    `the peers' fixed delays and poll intervals are divided by the same factor, so their ratios to the operations are faithful.`,
    `Our client's rate limit (600/min, 35/s per route) is scaled the same way (NEON_RATE_LIMIT); its first polls of a kind of operation it has not yet seen finish (50 ms, growing by 1.15) are not.`,
    `Ours runs through the real dynamic-provider plugin over gRPC (a fresh plugin per stage, as each \`pulumi up\`), in the engine's order: Check and Diff one resource at a time, its step then on one of ${config.parallel} workers;`,
    `the native plugin (bin/pulumi-resource-neon, started with an engine's address) runs the same stages the same way;`,
    `the limit is the sum of the operations' durations of one project; minimum requests = one write per change + one poll per change that starts operations.`,
    `Medians over ${config.runs} runs (min–max in brackets)${config.quick ? " — QUICK RUN" : ""}.`,
  ].join("\n");
}

async function scenarioOne(config: BenchConfig, dynamic: Face, native: Face) {
  const sizes = [...new Set([...config.scaling, config.computes])].sort((a, b) => a - b);
  const ours = new Map<number, RunResult[]>();
  const baselines = new Map<Strategy, Map<number, RunResult[]>>(BASELINES.map((s) => [s, new Map()]));
  let nativeRuns: RunResult[] = [];
  for (const n of sizes) {
    log(`ours: ${n} computes`);
    ours.set(n, await oursRuns(config, dynamic, n, n > config.computes ? Math.max(1, config.runs - 1) : config.runs));
    if (n === config.computes) {
      // Right after the dynamic plugin's runs of the same size, so that both meet the same load on the machine.
      log(`${native.name}: ${n} computes`);
      nativeRuns = await oursRuns(config, native, n, config.runs);
    }
    if (n > config.computes) continue;
    for (const strategy of BASELINES) {
      log(`${strategy.name}: ${n} computes`);
      baselines.get(strategy)!.set(n, await baselineRuns(config, strategy, n, n === config.computes ? config.runs : 1));
    }
  }
  return { ours, baselines, native: { name: native.name, runs: nativeRuns } };
}

function chartOf(config: BenchConfig, one: Awaited<ReturnType<typeof scenarioOne>>): string {
  const med = (runs: RunResult[]) => summarize(runs.map((r) => r.wallMs / 1000)).median;
  const sizes = [...one.ours.keys()];
  const series: Series[] = [
    {
      name: "limit (sum of operations)",
      color: "#888",
      dashed: true,
      points: sizes.map((x) => ({ x, y: limitMs(config, x) / 1000 })),
    },
    {
      name: "ours (dynamic plugin over gRPC)",
      color: "#1f77b4",
      points: sizes.map((x) => ({ x, y: med(one.ours.get(x)!) })),
    },
    {
      name: "ours (native plugin over gRPC)",
      color: "#2ca02c",
      points: [{ x: config.computes, y: med(one.native.runs) }],
    },
  ];
  BASELINES.forEach((s, i) => {
    const points = [...one.baselines.get(s)!].map(([x, runs]) => ({
      x,
      y: med(runs),
      failed: Math.max(...runs.map((r) => r.failed)),
    }));
    series.push({ name: s.name, color: COLORS[i], points });
  });
  return chart(`Create + resize + destroy N computes of one project, ${config.parallel} in parallel`, series);
}

/** The Markdown as the repository's formatter writes it (so `prettier --check` passes); as is without prettier. */
async function formatted(markdown: string): Promise<string> {
  try {
    const prettier: { format(text: string, options: object): Promise<string> } = require("prettier");
    return await prettier.format(markdown, { parser: "markdown", printWidth: 120 });
  } catch {
    return markdown;
  }
}

/**
 * The 1-minute load average: on a machine shared with other work the wall times come out longer and the requests
 * more (a quick run at load 5 to 9 on 2 cores: requests ÷ minimum 1.46, against 1.22 on a quiet machine), so a table
 * names the load it was measured under.
 */
function load(): string {
  return os.loadavg()[0].toFixed(1);
}

function log(line: string): void {
  process.stderr.write(`bench: ${line}\n`);
}

async function main(): Promise<number> {
  const config = parseArgs(process.argv.slice(2));
  process.stdout.write(`${behavioursLine(config)}\n\n`);
  const started = performance.now();
  const loadAtStart = load();
  const captured = await captureInputs();
  const dynamic = dynamicFace(captured);
  const { one, rows } = await withNativeFace(async (native) => {
    const one = await scenarioOne(config, dynamic, native);
    const baselinesAt = new Map([...one.baselines].map(([s, bySize]) => [s, bySize.get(config.computes)!]));
    const rows: Row[] = oneProjectRows(config, one.ours.get(config.computes)!, baselinesAt, one.native);
    log("many projects");
    rows.push(...(await manyProjects(config, dynamic)));
    log("state size, preview, plugin start");
    rows.push(...(await staticFigures(config, captured, [dynamic, native])));
    return { one, rows };
  });
  rows.push(...scalingRows(config, one.ours));
  log("through the real Pulumi CLI");
  rows.push(...(await cliRows(config, one.ours.get(config.computes)!, rows)));
  const minutes = ((performance.now() - started) / 60000).toFixed(1);
  const machine = `node ${process.version}, ${os.cpus().length} cores, load average ${loadAtStart} at the start, ${load()} at the end`;
  const text = `${header(config)}\n\n${table(rows)}\n\nMeasured in one run of ${minutes} min on this machine (${machine}).\n`;
  process.stdout.write(text);
  const dir = path.resolve(__dirname, "../../bench");
  const markdown = `# Bench results\n\n${text}\n![wall time against computes](results.svg)\n`;
  writeFileSync(path.join(dir, "results.md"), await formatted(markdown));
  writeFileSync(path.join(dir, "results.svg"), chartOf(config, one));
  const missed = rows.filter((r) => r.pass === false);
  if (missed.length > 0)
    process.stdout.write(`\nMISSED: ${missed.map((r) => `${r.section} ${r.figure}`).join("; ")}\n`);
  return missed.length > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? error.stack : String(error)}\n`);
    process.exit(2);
  },
);
