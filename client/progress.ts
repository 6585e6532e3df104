/**
 * Telling the user what a long wait waits for. A `pulumi up` that retries a locked project or waits for a slow
 * operation was silent for minutes and looked hung; one that logged every poll would drown the Pulumi log. So a
 * wait says what it waits for once after `afterMs` (a few seconds: shorter waits say nothing), then every `everyMs`.
 */

/** Where and how often a long wait reports. */
export interface Progress {
  /** Receives one line per report (the provider writes it to the plugin's stderr: the Pulumi log). */
  say: (line: string) => void;
  /** The first report, after the wait started; default 5 s. */
  afterMs?: number;
  /** The reports after it; default 30 s. */
  everyMs?: number;
}

export const PROGRESS_AFTER_MS = 5_000;
export const PROGRESS_EVERY_MS = 30_000;

/**
 * Starts reporting a wait that began at `startedAt` (`Date.now()` time): `describe(elapsedMs)` is asked for the
 * line at each report, so it tells the state of the wait at that moment. Returns the function that stops it. The
 * timers never keep the process alive, and a `say` that throws stops nothing but itself.
 */
export function reportProgress(
  progress: Progress | undefined,
  startedAt: number,
  describe: (elapsedMs: number) => string,
): () => void {
  if (!progress) return () => undefined;
  const after = progress.afterMs ?? PROGRESS_AFTER_MS;
  const every = Math.max(1, progress.everyMs ?? PROGRESS_EVERY_MS);
  let timer: NodeJS.Timeout | undefined;
  const schedule = (dueAt: number) => {
    timer = setTimeout(
      () => {
        const now = Date.now();
        try {
          progress.say(describe(now - startedAt));
        } catch {
          // a broken sink must not break the wait
        }
        schedule(Math.max(dueAt + every, now + 1));
      },
      Math.max(0, dueAt - Date.now()),
    );
    timer.unref?.();
  };
  schedule(startedAt + after);
  return () => clearTimeout(timer);
}

/** Seconds as a user reads them in a progress line: `7 s`. */
export function seconds(ms: number): string {
  return `${Math.round(ms / 1000)} s`;
}
