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

const reported = new WeakSet<object>();
let onFailure: ((error: unknown) => void) | undefined;
let listening = false;

/** Watches for the program's unhandled errors during one run; `failed` hears each. */
export function watchFailures(failed: (error: unknown) => void): FailureWatch {
  const proc = realProcess();
  if (!listening) {
    proc.on("unhandledRejection", onRejection);
    listening = true;
  }
  const onException = (error: unknown) => {
    remember(error);
    failed(error);
  };
  proc.on("uncaughtException", onException);
  onFailure = failed;
  return {
    caught: remember,
    stop: () => {
      proc.off("uncaughtException", onException);
      if (onFailure === failed) onFailure = undefined;
    },
  };
}

function onRejection(reason: unknown, promise: Promise<unknown>): void {
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
  if (isObject(error)) reported.add(error);
}

function isObject(value: unknown): value is object {
  return (typeof value === "object" && value !== null) || typeof value === "function";
}

/** The process of the main context (jest gives each test file's context a copy of it). */
function realProcess(): NodeJS.Process {
  return vm.runInThisContext("process") as NodeJS.Process;
}
