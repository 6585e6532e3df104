/** The six measurements of issue 5, each adding its rows to the table. */
import { BASELINES, runBaseline, Strategy } from "./baselines";
import { BenchConfig, limitMs, minimumRequests, phaseMs } from "./config";
import { Face } from "./faces";
import { RunResult, statusCount } from "./measure";
import { runOurs } from "./ours";
import { pluginStartMs } from "./plugin-start";
import { previewGrpc, previewInProcess, requestsDuring } from "./preview";
import { Row } from "./report";
import { measureStateSize } from "./state-size";
import { show, summarize } from "./stats";
import { Captured, emulatorFor, pluginFor } from "./world";

/** Each run gets a fresh emulator, so no run spends another's rate-limit budget or sees its operations. */
async function fresh<T>(
  config: BenchConfig,
  projects: number,
  fn: (e: Awaited<ReturnType<typeof emulatorFor>>) => Promise<T>,
) {
  const emulator = await emulatorFor(config, projects);
  try {
    return await fn(emulator);
  } finally {
    await emulator.close();
  }
}

export async function repeat(n: number, fn: () => Promise<RunResult>): Promise<RunResult[]> {
  const out: RunResult[] = [];
  for (let i = 0; i < n; i++) out.push(await fn());
  return out;
}

export const oursRuns = (config: BenchConfig, face: Face, computes: number, runs: number) =>
  repeat(runs, () =>
    fresh(config, 1, (e) => runOurs(e, face, config, { projects: 1, perProject: computes, parallel: config.parallel })),
  );

export const baselineRuns = (config: BenchConfig, strategy: Strategy, computes: number, runs: number) =>
  repeat(runs, () => fresh(config, 1, (e) => runBaseline(e, strategy, config, computes)));

const med = (runs: RunResult[], f: (r: RunResult) => number) => summarize(runs.map(f)).median;

/**
 * Section 1: our provider and the peers on 20 computes of one project; `native`, the same through the native plugin,
 * held to the same targets.
 */
export function oneProjectRows(
  config: BenchConfig,
  ours: RunResult[],
  baselines: Map<Strategy, RunResult[]>,
  native?: { name: string; runs: RunResult[] },
): Row[] {
  const rows = targetRows(config, "ours", ours);
  if (native) {
    rows.push(...targetRows(config, native.name, native.runs));
    const ratio = med(native.runs, (r) => r.wallMs) / med(ours, (r) => r.wallMs);
    rows.push({ section: "1", figure: `${native.name} ÷ ours: wall time`, value: ratio.toFixed(3), target: "" });
  }
  for (const [strategy, runs] of baselines) rows.push(...baselineRows(config, strategy, runs, ours, config.computes));
  return rows;
}

/** One plugin's figures of section 1 and their targets: wall ÷ limit ≤ 1.15, requests ÷ minimum ≤ 1.3, no 423. */
function targetRows(config: BenchConfig, who: string, runs: RunResult[]): Row[] {
  const n = config.computes;
  const limit = limitMs(config, n);
  const wall = summarize(runs.map((r) => r.wallMs / limit));
  return [
    {
      section: "1",
      figure: `${who}: wall time ÷ limit (limit ${(limit / 1000).toFixed(1)} s real)`,
      value: show(wall),
      target: "≤ 1.15",
      pass: wall.median <= 1.15,
    },
    rowRequests(config, who, runs, n, true),
    row423(who, runs, true),
    {
      section: "1",
      figure: `${who}: peak requests in one real second`,
      value: show(summarize(runs.map((r) => r.peakPerSecond)), 0),
      target: "client limiter: 600/min, 35/s per route",
    },
  ];
}

function rowRequests(config: BenchConfig, who: string, runs: RunResult[], n: number, target: boolean): Row {
  const minimum = minimumRequests(config, n);
  const s = summarize(runs.map((r) => r.requests / minimum));
  const value = `${show(s)} (${med(runs, (r) => r.requests)} requests, minimum ${minimum})`;
  return {
    section: "1",
    figure: `${who}: requests ÷ minimum`,
    value,
    target: target ? "≤ 1.3" : "",
    pass: target ? s.median <= 1.3 : undefined,
  };
}

function row423(who: string, runs: RunResult[], target: boolean): Row {
  const value = `${show(summarize(runs.map((r) => statusCount(r, 423))), 0)} / ${show(summarize(runs.map((r) => statusCount(r, 429))), 0)}`;
  const zero = runs.every((r) => statusCount(r, 423) === 0);
  return {
    section: "1",
    figure: `${who}: 423 / 429 responses`,
    value,
    target: target ? "0 423s" : "",
    pass: target ? zero : undefined,
  };
}

function baselineRows(config: BenchConfig, strategy: Strategy, runs: RunResult[], ours: RunResult[], n: number): Row[] {
  const limit = limitMs(config, n);
  const wall = summarize(runs.map((r) => r.wallMs / limit));
  const failed = summarize(runs.map((r) => r.failed));
  const oursWall = med(ours, (r) => r.wallMs);
  const completed = failed.max === 0;
  const verdict = completed
    ? {
        value: `${show(wall)}; ours ÷ it: ${(oursWall / med(runs, (r) => r.wallMs)).toFixed(3)}`,
        pass: oursWall < med(runs, (r) => r.wallMs),
      }
    : { value: `${show(wall)} but **${show(failed, 0)} of ${n * 3} changes failed** (not the same work)`, pass: true };
  return [
    {
      section: "1",
      figure: `${strategy.name}: wall time ÷ limit`,
      value: verdict.value,
      target: "ours faster",
      pass: verdict.pass,
    },
    rowRequests(config, strategy.name, runs, n, false),
    row423(strategy.name, runs, false),
  ];
}

/** Section 2: many projects in parallel; the limit is one project's (they run side by side). */
export async function manyProjects(config: BenchConfig, face: Face): Promise<Row[]> {
  const { projects, computesPerProject: per } = config;
  const parallel = projects * per;
  const runs = await repeat(config.runs, () =>
    fresh(config, projects, (e) => runOurs(e, face, config, { projects, perProject: per, parallel })),
  );
  const limit = limitMs(config, per);
  const wall = summarize(runs.map((r) => r.wallMs / limit));
  return [
    {
      section: "2",
      figure: `${projects} projects × ${per} computes, all in parallel: wall ÷ one project's limit (${(limit / 1000).toFixed(1)} s)`,
      value: show(wall),
      target: "≤ 1.2",
      pass: wall.median <= 1.2,
    },
    {
      section: "2",
      figure: "same: sum of the projects' limits ÷ wall (projects overlapping)",
      value: show(summarize(runs.map((r) => (limit * projects) / r.wallMs))),
      target: "",
    },
    {
      section: "2",
      figure: "same: requests; 423 / 429",
      value: `${med(runs, (r) => r.requests)}; ${med(runs, (r) => statusCount(r, 423))} / ${med(runs, (r) => statusCount(r, 429))}`,
      target: "",
    },
  ];
}

/** Sections 3 to 5: state size, preview cost (the dynamic plugin's), plugin start (each face's). */
export async function staticFigures(config: BenchConfig, captured: Captured, faces: Face[]): Promise<Row[]> {
  return fresh(config, 1, async (emulator) => {
    const plugin = await pluginFor(emulator);
    const rows: Row[] = [];
    try {
      for (const s of await measureStateSize(plugin, captured)) {
        rows.push({
          section: "3",
          figure: `${s.type}: bytes of __provider`,
          value: String(s.providerBytes),
          target: "≤ 4096",
          pass: s.providerBytes <= 4096,
        });
        rows.push({
          section: "3",
          figure: `${s.type}: bytes of the state entry (inputs + outputs)`,
          value: String(s.entryBytes),
          target: "",
        });
      }
      rows.push(...(await previewRows(config, captured, emulator, plugin)));
    } finally {
      await plugin.close();
    }
    for (const face of faces) {
      const starts: number[] = [];
      for (let i = 0; i < config.pluginStarts; i++) starts.push(await pluginStartMs(emulator, face));
      const figure = `${face.name}: plugin start → first finished Create (ms; includes one create, ${phaseMs(config).toFixed(0)} ms real)`;
      rows.push({ section: "5", figure, value: show(summarize(starts), 0), target: "" });
    }
    return rows;
  });
}

async function previewRows(
  config: BenchConfig,
  captured: Captured,
  emulator: Parameters<typeof requestsDuring>[0],
  plugin: Awaited<ReturnType<typeof pluginFor>>,
): Promise<Row[]> {
  const inProcess: number[] = [];
  const grpc: number[] = [];
  let requests = 0;
  for (let i = 0; i < config.runs; i++) {
    requests += await requestsDuring(emulator, async () =>
      inProcess.push(await previewInProcess(captured, config.previewResources)),
    );
    requests += await requestsDuring(emulator, async () =>
      grpc.push(await previewGrpc(plugin, captured, config.previewGrpcResources)),
    );
  }
  return [
    {
      section: "4",
      figure: `check + diff per resource, in-process, ${config.previewResources} resources (µs)`,
      value: show(summarize(inProcess), 1),
      target: "",
    },
    {
      section: "4",
      figure: `Check + Diff per resource over gRPC, ${config.previewGrpcResources} resources (µs)`,
      value: show(summarize(grpc), 0),
      target: "",
    },
    {
      section: "4",
      figure: "requests to the emulator during preview",
      value: String(requests),
      target: "0",
      pass: requests === 0,
    },
  ];
}

/** Section 6: per-compute time at each size; linear when the largest/smallest per-compute time stays ≤ 1.2. */
export function scalingRows(config: BenchConfig, bySize: Map<number, RunResult[]>): Row[] {
  const rows: Row[] = [];
  const perCompute: number[] = [];
  for (const [n, runs] of bySize) {
    const per = summarize(runs.map((r) => r.wallMs / n));
    perCompute.push(per.median);
    rows.push({
      section: "6",
      figure: `${n} computes: wall ms per compute (limit ${limitMs(config, 1).toFixed(0)})`,
      value: `${show(per, 0)}; ÷ limit ${(per.median / limitMs(config, 1)).toFixed(2)}`,
      target: "",
    });
  }
  const ratio = perCompute[perCompute.length - 1] / perCompute[0];
  rows.push({
    section: "6",
    figure: "per-compute time, largest ÷ smallest size",
    value: ratio.toFixed(2),
    target: "≤ 1.2 (linear)",
    pass: ratio <= 1.2,
  });
  return rows;
}

export { BASELINES };
