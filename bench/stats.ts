/** Median and spread of repeated measurements, and their rendering in the table. */
export interface Summary {
  median: number;
  min: number;
  max: number;
  n: number;
}

export function summarize(values: number[]): Summary {
  const sorted = [...values].sort((a, b) => a - b);
  const n = sorted.length;
  if (n === 0) return { median: NaN, min: NaN, max: NaN, n: 0 };
  const median = n % 2 === 1 ? sorted[(n - 1) / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  return { median, min: sorted[0], max: sorted[n - 1], n };
}

/** "1.07 (1.05–1.09, n=3)": the median, then the range over the runs. */
export function show(s: Summary, digits = 2, unit = ""): string {
  const f = (v: number) => `${v.toFixed(digits)}${unit}`;
  if (s.n <= 1) return `${f(s.median)} (n=${s.n})`;
  return `${f(s.median)} (${f(s.min)}–${f(s.max)}, n=${s.n})`;
}

/** Runs `tasks` with at most `parallel` in flight, in order (the peers' parallelism, as `terraform -parallelism`). */
export async function pool<T>(parallel: number, tasks: (() => Promise<T>)[]): Promise<PromiseSettledResult<T>[]> {
  const results: PromiseSettledResult<T>[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      try {
        results[i] = { status: "fulfilled", value: await tasks[i]() };
      } catch (reason) {
        results[i] = { status: "rejected", reason };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(parallel, tasks.length) }, worker));
  return results;
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
