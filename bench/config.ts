/**
 * The bench's world, in one place: how long the service's operations take, how slow a request is, and how much
 * service time is compressed, so every figure printed can name the values it was measured under.
 *
 * Service time is compressed by `timeScale` (the emulator's clock runs that many service seconds per real
 * second). The peers' fixed delays and intervals are divided by the same factor, so the ratios between their
 * waiting and the operations stay what they are against the real service.
 *
 * The emulator runs with the real service's behaviours (`service`, the emulator's defaults: deletes that return a
 * running suspend_compute, 429s without Retry-After, ...), and every figure names them.
 */
import { REAL_SERVICE, type ServiceBehaviours } from "../emulator";
export interface BenchConfig {
  /** Service ms an operation spends in each phase (scheduling, then running). */
  operationMs: number;
  /** Service seconds per real second. */
  timeScale: number;
  /** Service ms of a request's round trip; the emulator adds latencyMs / timeScale real ms before each response. */
  latencyMs: number;
  /** Parallel resource steps, as `pulumi up --parallel`. */
  parallel: number;
  /** Repetitions of each timed scenario. */
  runs: number;
  /** Computes of scenario 1, and the counts of the scaling scenario. */
  computes: number;
  scaling: number[];
  /** Projects × computes of scenario 2. */
  projects: number;
  computesPerProject: number;
  /** Resources of the in-process preview measurement, and of the one over gRPC. */
  previewResources: number;
  previewGrpcResources: number;
  /** Plugin starts measured. */
  pluginStarts: number;
  quick: boolean;
  /** The emulated service's behaviours (the real service's unless a run pins others). */
  service: ServiceBehaviours;
}

export const FULL: BenchConfig = {
  operationMs: 1000,
  timeScale: 4,
  latencyMs: 40,
  parallel: 10,
  runs: 3,
  computes: 20,
  scaling: [5, 10, 20, 40],
  projects: 10,
  computesPerProject: 5,
  previewResources: 10_000,
  previewGrpcResources: 500,
  pluginStarts: 5,
  quick: false,
  service: REAL_SERVICE,
};

/** A short run for development: fewer repetitions and resources, same world. */
export const QUICK: BenchConfig = {
  ...FULL,
  runs: 1,
  scaling: [5, 10, 20],
  previewResources: 2_000,
  previewGrpcResources: 100,
  pluginStarts: 3,
  quick: true,
};

/** Real milliseconds of a service-time delay (a peer's fixed 1 s retry becomes 1000 / timeScale ms). */
export function real(config: BenchConfig, serviceMs: number): number {
  return serviceMs / config.timeScale;
}

/** Real ms of one operation phase. */
export function phaseMs(config: BenchConfig): number {
  return real(config, config.operationMs);
}

/**
 * Operation phases of one compute's create, resize and delete: a create starts one operation (start_compute,
 * running: one phase); a resize of a running compute chains apply_config, suspend_compute and start_compute (three
 * phases); a delete starts one suspend_compute (running: one phase) on the real service, none on the specified one.
 */
export function phasesPerCompute(config: BenchConfig): number {
  return 1 + 3 + (config.service.deleteOperations ? 1 : 0);
}

/**
 * The limit of one project: changes in a project run one operation at a time, so the fastest possible run is the
 * sum of the operations' durations.
 */
export function limitMs(config: BenchConfig, computes: number): number {
  return computes * phasesPerCompute(config) * phaseMs(config);
}

/**
 * The fewest requests that can do the work: one write per change, plus one poll per change that starts
 * operations (a change is only done when its operations are seen done: creates, resizes, and deletes when they
 * return an operation).
 */
export function minimumRequests(config: BenchConfig, computes: number): number {
  const changesWithOperations = config.service.deleteOperations ? 3 : 2;
  return computes * 3 + computes * changesWithOperations;
}

export function parseArgs(argv: string[]): BenchConfig {
  const base = argv.includes("--quick") ? QUICK : FULL;
  const num = (name: string): number | undefined => {
    const i = argv.indexOf(`--${name}`);
    const value = i >= 0 ? Number(argv[i + 1]) : NaN;
    return Number.isFinite(value) && value > 0 ? value : undefined;
  };
  return {
    ...base,
    timeScale: num("time-scale") ?? base.timeScale,
    latencyMs: num("latency") ?? base.latencyMs,
    runs: num("runs") ?? base.runs,
  };
}
