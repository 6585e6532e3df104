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
import { sleep } from "./cancellation";

/** What one wait saw, in ms after its start. */
export interface WaitSeen {
  /** The learned time its first poll went at; undefined when the model did not know the kind (or it went later). */
  guessMs?: number;
  /** The last poll that saw something pending (0 when none did). */
  pendingAtMs: number;
  /** The poll that saw everything done. */
  doneAtMs: number;
  /** Polls sent: 1 when the first poll saw the batch done (a hit). */
  polls: number;
}

/**
 * How the first poll time of a known kind moves (a weighted up-down staircase): a first poll that found the batch
 * done (a hit) moves it earlier by `step × (1 − hitRate) / hitRate`, one that came early (a miss) later by `step`,
 * so it settles where `hitRate` of first polls find the batch done. An early poll costs one request and one round
 * trip (the next poll goes at once); a late one costs its lateness: 85% balances the two at a spread of a few ms.
 * The step halves at each reversal (a bisection towards the end) and doubles with each equal outcome from the
 * `widenAfter`-th in a row on (the service got faster or slower), within `minStepMs` and half the guess.
 */
export const STAIRCASE = { hitRate: 0.85, widenAfter: 6, minStepMs: 1 } as const;

interface Kind {
  /** When to send the first poll, ms after the wait starts. */
  at: number;
  step: number;
  /** Bisecting the first wait's bracket, until a first poll is early by less than one poll. */
  searching: boolean;
  lastHit?: boolean;
  /** Equal outcomes in a row. */
  run: number;
}

/**
 * Learned durations, per kind of batch: when a wait's first poll should go. The first wait of a kind (the scout)
 * brackets the end between the last poll that saw the batch pending and the one that saw it done; the next waits
 * bisect that bracket until a first poll is early by less than one poll, then the staircase (`STAIRCASE`) narrows
 * and follows it. Waits that ran side by side report outcomes of the same guess: one that no longer tells anything
 * about the current guess (a hit later than it, a miss earlier) is ignored, so ten projects finishing together
 * move it once, not ten times. Bounded: the oldest kinds are forgotten past `maxKinds`.
 */
export class DurationModel {
  private readonly kinds = new Map<string, Kind>();
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
    if (signal?.aborted) return sleep(0, signal);
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
    return kind && Math.round(kind.at);
  }

  /** A wait ended: learn from when it saw the batch pending and done. */
  observe(shape: string, seen: WaitSeen): void {
    const kind = this.kinds.get(shape);
    if (!kind) return this.remember(shape, seen);
    if (!this.tellsAbout(shape, seen)) return;
    if (kind.searching) search(kind, seen);
    else staircase(kind, seen);
  }

  /**
   * Whether the wait's outcome says anything about the current guess: its first poll went at a guess, and it was a
   * hit at or before the current one, or a miss at or after it (waits side by side report on an older guess).
   */
  private tellsAbout(shape: string, seen: WaitSeen): boolean {
    if (seen.guessMs === undefined) return false;
    const current = this.expectedMs(shape)!;
    return isHit(seen) ? seen.guessMs <= current : seen.guessMs >= current;
  }

  /** The first lesson of a kind: the end lies between the last pending poll and the done one. */
  private remember(shape: string, seen: WaitSeen): void {
    const kind: Kind = { at: 0, step: 0, searching: true, run: 0 };
    bracket(kind, seen, Infinity);
    this.kinds.set(shape, kind);
    if (this.kinds.size > this.maxKinds) this.kinds.delete(this.kinds.keys().next().value!);
  }
}

/** The first poll found the batch done. */
const isHit = (seen: WaitSeen): boolean => seen.polls === 1;

/**
 * Guess the middle of what the wait saw, (last pending, done], and step a quarter of it: a bisection. Never above
 * `capMs`: one slow batch must not make every later wait of the kind sleep long.
 */
function bracket(kind: Kind, seen: WaitSeen, capMs: number): void {
  const done = Math.max(1, seen.doneAtMs);
  const pending = Math.min(isHit(seen) ? 0 : seen.pendingAtMs, done);
  kind.at = Math.min((pending + done) / 2, capMs);
  kind.step = Math.max(STAIRCASE.minStepMs, Math.min((done - pending) / 4, kind.at / 4));
}

/**
 * Bisection after the first lesson: a hit halves the way down, a miss by more than one poll bisects its own
 * bracket (at most doubling the guess); a miss by one poll means the guess is within a round trip of the end: the
 * staircase takes over. `widenAfter` hits in a row mean the end lies below the bracket (the first batch was slow).
 */
function search(kind: Kind, seen: WaitSeen): void {
  if (isHit(seen)) {
    kind.run += 1;
    kind.lastHit = true;
    if (kind.run >= STAIRCASE.widenAfter) return searchBelow(kind);
    kind.at = Math.max(0, kind.at - kind.step);
    kind.step = Math.max(STAIRCASE.minStepMs, kind.step / 2);
  } else if (seen.polls > 2) {
    bracket(kind, seen, kind.at * 2);
    kind.run = 0;
    kind.lastHit = false;
  } else {
    kind.searching = false;
    staircase(kind, seen);
  }
}

/** The end lies below the guess: bisect (0, guess]. */
function searchBelow(kind: Kind): void {
  kind.searching = true;
  kind.at /= 2;
  kind.step = Math.max(STAIRCASE.minStepMs, kind.at / 2);
  kind.run = 0;
}

/**
 * A hit moves the guess earlier by a fraction of the step, a miss later (`STAIRCASE`). Twice `widenAfter` hits in
 * a row, with the step widening all along, happen only when the service got much faster: bisect below.
 */
function staircase(kind: Kind, seen: WaitSeen): void {
  const hit = isHit(seen);
  adjustStep(kind, hit);
  if (hit && kind.run >= 2 * STAIRCASE.widenAfter) searchBelow(kind);
  else if (hit) kind.at = Math.max(0, kind.at - (kind.step * (1 - STAIRCASE.hitRate)) / STAIRCASE.hitRate);
  else moveLater(kind, seen);
}

/**
 * After a miss: later by a step, or by half the way to the last pending poll when that was further (the service
 * got slower), never past the done poll and at most doubling (one slow operation must not make every later wait
 * sleep long); the step grows with a long move, so the way back is as quick if it was a one-off.
 */
function moveLater(kind: Kind, seen: WaitSeen): void {
  const jump = Math.min(Math.max(kind.step, (seen.pendingAtMs - kind.at) / 2), Math.max(kind.at, kind.step));
  kind.at = Math.min(seen.doneAtMs, kind.at + jump);
  kind.step = Math.max(kind.step, Math.min(jump / 2, kind.at / 4));
}

/** Halves the step at a reversal, doubles it (to half the guess) after a run of equal outcomes. */
function adjustStep(kind: Kind, hit: boolean): void {
  if (kind.lastHit === hit) kind.run += 1;
  else {
    if (kind.lastHit !== undefined) kind.step = Math.max(STAIRCASE.minStepMs, kind.step / 2);
    kind.run = 1;
  }
  kind.lastHit = hit;
  if (kind.run >= STAIRCASE.widenAfter) kind.step = Math.max(STAIRCASE.minStepMs, Math.min(kind.step * 2, kind.at / 2));
}

/** The kind of a batch: its operations' actions and statuses, in order ("apply_config:running,..."). */
export function shapeOf(pending: readonly Pick<Operation, "action" | "status">[]): string {
  return pending.map((op) => `${op.action}:${op.status}`).join(",");
}

/** The process-wide model: a `pulumi up` is one plugin process, so what its first changes teach serves the rest. */
export const SHARED_MODEL = new DurationModel();
