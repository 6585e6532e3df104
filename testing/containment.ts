/**
 * A program's failures, contained as the Node.js language host contains them (pulumi/pulumi
 * `sdk/nodejs/cmd/run/run.ts`): it installs `uncaughtException` and `unhandledRejection` handlers, reports the first
 * error as the program's failure and its echoes once (the SDK rejects every promise it chained on a failed
 * registration with the same error), and the process ends with the program. Here the program runs in the test's
 * process, which goes on, so:
 *
 * - the handlers go on the real `process`: under jest, the `process` a test file sees is a copy whose events never
 *   fire, while jest's own handlers on the real one fail the test for each unhandled rejection;
 * - a rejection left unhandled during a run is the program's: it fails the run, and whoever listens for
 *   `rejectionHandled` (jest, which fails a test for each unhandled rejection it is not told was handled later) is
 *   told it was handled;
 * - after the run, a rejection carrying an error the run reported is one of its late echoes, handled the same way.
 *   Any other is not ours: thrown as Node does by default when no other handler exists, else left to that handler
 *   (a test runner's).
 */
import * as vm from "vm";

export interface FailureWatch {
  /** An error the run caught itself (the program's own throw): its echoes are contained too. */
  caught(error: unknown): void;
  /** The run is over: its handlers go; late echoes of its errors stay contained. */
  stop(): void;
}

/**
 * What the handlers share, kept on the real process under a global symbol: jest loads this module once per test file
 * into the same worker process, and each copy must not add a listener of its own (they piled up past Node's limit of
 * ten listeners an event, and each copy kept its module alive).
 */
interface Containment {
  reported: WeakSet<object>;
  onFailure?: (error: unknown) => void;
  /**
   * The one `unhandledRejection` listener. A test runner may take the process's listeners off around each test file
   * and put back those it saw (jest-circus injectGlobalErrorHandlers / restoreGlobalErrorHandlers), so it is on the
   * process only around runs: added once at a run's start, taken off a little after the last run stops (late echoes
   * of a run's errors come within a few turns of the event loop). Left on, each file's restore added another copy.
   */
  listener: (reason: unknown, promise: Promise<unknown>) => void;
  /** Runs under way. */
  runs: number;
}

/** How long after the last run stops its late echoes are still contained. */
const ECHO_WINDOW_MS = 250;

const CONTAINMENT = Symbol.for("pulumi-neon-dynamic/testing/containment");

function containment(): Containment {
  const proc = realProcess() as NodeJS.Process & { [CONTAINMENT]?: Containment };
  const shared = (proc[CONTAINMENT] ??= { reported: new WeakSet(), listener: onRejection, runs: 0 });
  return shared;
}

/** Exactly one copy of the shared listener on the process, or none. */
function listen(proc: NodeJS.Process, shared: Containment, on: boolean): void {
  while (proc.listeners("unhandledRejection").includes(shared.listener)) {
    proc.removeListener("unhandledRejection", shared.listener);
  }
  if (on) proc.on("unhandledRejection", shared.listener);
}

/** Watches for the program's unhandled errors during one run; `failed` hears each. */
export function watchFailures(failed: (error: unknown) => void): FailureWatch {
  const proc = realProcess();
  const shared = containment();
  shared.runs++;
  listen(proc, shared, true);
  const onException = (error: unknown) => {
    remember(error);
    failed(error);
  };
  proc.on("uncaughtException", onException);
  shared.onFailure = failed;
  return {
    caught: remember,
    stop: () => {
      proc.off("uncaughtException", onException);
      if (shared.onFailure === failed) shared.onFailure = undefined;
      shared.runs--;
      setTimeout(() => shared.runs === 0 && listen(proc, shared, false), ECHO_WINDOW_MS).unref();
    },
  };
}

function onRejection(reason: unknown, promise: Promise<unknown>): void {
  const { reported, onFailure } = containment();
  const echo = isObject(reason) && reported.has(reason);
  if (onFailure || echo) {
    // A handler attached now makes Node emit `rejectionHandled` (or, with no listener for it, print a warning).
    if (realProcess().listenerCount("rejectionHandled") > 0) promise.catch(() => undefined);
    remember(reason);
    if (!echo) onFailure?.(reason);
    return;
  }
  if (realProcess().listenerCount("unhandledRejection") === 1) throw reason;
}

function remember(error: unknown): void {
  if (isObject(error)) containment().reported.add(error);
}

function isObject(value: unknown): value is object {
  return (typeof value === "object" && value !== null) || typeof value === "function";
}

/** The process of the main context (jest gives each test file's context a copy of it). */
function realProcess(): NodeJS.Process {
  return vm.runInThisContext("process") as NodeJS.Process;
}
