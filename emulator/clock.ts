/**
 * The emulator's service clock. All time-driven behaviour (autosuspend, operation progress, rate-limit refill)
 * reads this clock lazily on each request, so a manual `advance(7 days)` is instant and no timer runs in the
 * background. Prevents tests that sleep for minutes, and drift between state and wall time under a time scale.
 */
export interface Clock {
  /** Service time in epoch milliseconds. */
  now(): number;
  /** Moves a manual clock forward; throws on a real clock (time there moves by itself). */
  advance(ms: number): void;
  readonly manual: boolean;
}

export interface ClockOptions {
  manual?: boolean;
  /** Service seconds per real second (real clock only); default 1. */
  timeScale?: number;
  /** Service time to start from (a reloaded state continues its own timeline); default Date.now(). */
  startAt?: number;
  /** Wall clock, injectable for tests. */
  wallNow?: () => number;
}

/** A real clock (optionally scaled) or a manual one, both starting at `startAt`. */
export function createClock(options: ClockOptions = {}): Clock {
  const wallNow = options.wallNow ?? Date.now;
  const startWall = wallNow();
  const startAt = Math.max(options.startAt ?? startWall, 0);
  if (options.manual) {
    let t = startAt;
    return {
      manual: true,
      now: () => t,
      advance(ms: number) {
        if (!Number.isFinite(ms) || ms < 0) throw new RangeError("advance(ms) needs a finite, non-negative number");
        t += ms;
      },
    };
  }
  const scale = options.timeScale ?? 1;
  if (!Number.isFinite(scale) || scale <= 0) throw new RangeError("timeScale must be a positive number");
  return {
    manual: false,
    now: () => Math.floor(startAt + (wallNow() - startWall) * scale),
    advance() {
      throw new Error("clock.advance() needs the emulator started with manualClock: true");
    },
  };
}
