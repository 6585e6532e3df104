/** What one run of a scenario measured: wall time, requests by status, and changes that failed. */
import { Emulator } from "../emulator";

export interface RunResult {
  wallMs: number;
  requests: number;
  byStatus: Record<string, number>;
  /** Changes that did not happen (a baseline that gave up). */
  failed: number;
  /** Changes attempted. */
  changes: number;
  /** Highest number of requests the emulator received in any one real second. */
  peakPerSecond: number;
  /** Wall time of each stage (create, resize, destroy), when measured per stage. */
  stagesMs?: number[];
}

/** Counts the emulator's requests between `start()` and `finish()`. */
export function meter(emulator: Emulator, timeScale: number) {
  const before = emulator.stats();
  const firstIndex = emulator.requests.length;
  const startedAt = performance.now();
  return (failed: number, changes: number): RunResult => {
    const wallMs = performance.now() - startedAt;
    const after = emulator.stats();
    const byStatus: Record<string, number> = {};
    for (const [status, count] of Object.entries(after.byStatus)) {
      const delta = count - (before.byStatus[status] ?? 0);
      if (delta > 0) byStatus[status] = delta;
    }
    const at = emulator.requests.slice(firstIndex).map((r) => r.at / timeScale);
    return { wallMs, requests: after.requests - before.requests, byStatus, failed, changes, peakPerSecond: peak(at) };
  };
}

/** The most timestamps (ms) within any 1000 ms window. */
function peak(times: number[]): number {
  let best = 0;
  let lo = 0;
  for (let hi = 0; hi < times.length; hi++) {
    while (times[hi] - times[lo] >= 1000) lo++;
    best = Math.max(best, hi - lo + 1);
  }
  return best;
}

export const statusCount = (r: RunResult, status: number): number => r.byStatus[String(status)] ?? 0;
