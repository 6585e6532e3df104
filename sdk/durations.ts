/**
 * Learned operation durations, per kind of batch, shared by every wait of the process: a `pulumi up` is one plugin
 * process, so what its first changes teach serves the rest. Prevents both slow waits (polling long after the
 * operations ended holds the project lock, and every change of the project queues behind it) and wasted polls.
 *
 * Scouting: while nothing is known of a kind, the first wait of that kind (the scout) polls densely and the other
 * waits of the kind, started at about the same time, sleep until the scout has learned, then poll once near the
 * learned end. Many projects changed at once thus pay the cold start once, not once per project.
 */
import { Operation } from "./schemas";
import { sleep } from "./retry";

/** What one wait saw, in ms after its start: the last poll that found the batch pending, and the one that found it done. */
export interface WaitSeen {
  /** When the first poll was sent because the model expected the batch done then; undefined when it knew nothing. */
  expectedMs?: number;
  /** The last poll that saw something pending (0 when none did). */
  pendingAtMs: number;
  /** The poll that saw everything done. */
  doneAtMs: number;
}

/**
 * Learned durations, per kind of batch: how long after the start of a wait its operations are done, kept as a
 * bracket: `lo` (a poll then saw them pending) and `hi` (a poll then saw them done). The first poll goes at `hi`
 * once the bracket is narrow (within 3%), else at its middle (a bisection, so a cold start converges in a few
 * waits); a poll that came early is followed by one at `hi`. Evidence against the bracket moves it (a done batch
 * below `lo`, a pending one above `hi`), `hi` at most doubling at once (one stuck operation must not make every
 * later wait sleep long), and `lo` sinks by 0.25% a wait, so a service that got faster is noticed. Bounded: the
 * oldest kinds are forgotten past `maxKinds`.
 */
export class DurationModel {
  private readonly kinds = new Map<string, { lo: number; hi: number }>();
  private readonly scouts = new Map<string, () => void>();
  private readonly lessons = new Map<string, Promise<void>>();

  constructor(private readonly maxKinds = 64) {}

  /** Claims the scouting of an unknown kind; false when another wait already scouts it. */
  claimScout(shape: string): boolean {
    if (this.scouts.has(shape)) return false;
    let resolve!: () => void;
    this.lessons.set(shape, new Promise<void>((done) => (resolve = done)));
    this.scouts.set(shape, resolve);
    return true;
  }

  /** Ends a scouting, learned or not: the waits that follow it wake. */
  releaseScout(shape: string): void {
    const wake = this.scouts.get(shape);
    this.scouts.delete(shape);
    this.lessons.delete(shape);
    wake?.();
  }

  /** Sleeps until the scout of `shape` ends, or at most `maxMs`. */
  async followScout(shape: string, maxMs: number, signal?: AbortSignal): Promise<void> {
    const lesson = this.lessons.get(shape);
    if (!lesson) return;
    const timer = new AbortController();
    const onAbort = () => timer.abort();
    signal?.addEventListener("abort", onAbort);
    try {
      await Promise.race([lesson, sleep(maxMs, timer.signal).catch(() => undefined)]);
    } finally {
      timer.abort();
      signal?.removeEventListener("abort", onAbort);
    }
    if (signal?.aborted) await sleep(0, signal);
  }

  /** When to poll first (ms after the wait starts); undefined for a kind never seen finish. */
  expectedMs(shape: string): number | undefined {
    const kind = this.kinds.get(shape);
    if (!kind) return undefined;
    return kind.hi - kind.lo <= Math.max(2, kind.hi * 0.03) ? kind.hi : Math.round((kind.lo + kind.hi) / 2);
  }

  /** When the batch is known done (ms after the wait starts): where a poll goes after an early first one. */
  knownDoneMs(shape: string): number | undefined {
    return this.kinds.get(shape)?.hi;
  }

  /** A wait ended: learn from when it saw the batch pending and done. */
  observe(shape: string, seen: WaitSeen): void {
    const kind = this.kinds.get(shape);
    if (!kind || seen.expectedMs === undefined) return this.remember(shape, seen.pendingAtMs, seen.doneAtMs);
    const done = Math.max(1, Math.min(seen.doneAtMs, kind.hi * 2));
    kind.hi = seen.pendingAtMs >= kind.hi ? done : Math.min(kind.hi, done);
    kind.lo = Math.min(Math.max(kind.lo, seen.pendingAtMs), kind.hi * 0.99);
    kind.lo = Math.max(0, kind.lo - kind.hi * 0.0025);
  }

  private remember(shape: string, pendingAtMs: number, doneAtMs: number): void {
    const hi = Math.max(1, doneAtMs);
    this.kinds.delete(shape);
    this.kinds.set(shape, { lo: Math.min(pendingAtMs, hi * 0.99), hi });
    if (this.kinds.size > this.maxKinds) this.kinds.delete(this.kinds.keys().next().value!);
  }
}

/** The kind of a batch: its operations' actions and statuses, in order ("apply_config:running,..."). */
export function shapeOf(pending: readonly Pick<Operation, "action" | "status">[]): string {
  return pending.map((op) => `${op.action}:${op.status}`).join(",");
}

/** The process-wide model: a `pulumi up` is one plugin process, so what its first changes teach serves the rest. */
export const SHARED_MODEL = new DurationModel();
