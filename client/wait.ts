/**
 * Waiting for operations, with explicit budgets and cancellation. Prevents the peers' failures: not waiting at all
 * ("project locked" in CI), polling every 100 ms forever with no timeout, and reporting a failed operation as
 * success.
 *
 * Since changes of one project run one after another, every millisecond between an operation's end and the poll
 * that sees it is added to the whole `pulumi up`, and every extra poll spends the account's request budget. So the
 * wait learns, per kind of batch (its actions), how long such a batch takes in this process, sleeps until then,
 * and polls again at once when it was early (see `DurationModel`). A batch of several operations is read with one
 * list request when the reader can list.
 */
import { sleep, throwIfAborted } from "./cancellation";
import { describePending, failedError, timeoutError } from "./operation-errors";
import { isDone, isFailed } from "./operation-status";
import { definedOnly } from "./options";
import { Progress, reportProgress, seconds } from "./progress";
import { Operation } from "./schemas";
import { DurationModel, SHARED_MODEL, shapeOf, WaitSeen } from "./durations";

export { DurationModel, SHARED_MODEL, shapeOf, WaitSeen } from "./durations";

/** How long and how often to poll. */
export interface WaitPolicy {
  /** Total budget of one wait. */
  timeoutMs: number;
  /** First poll interval of a kind of batch never seen finish; short, since most take a second or two. */
  initialIntervalMs: number;
  /** Cap of the growing interval. */
  maxIntervalMs: number;
  /** Growth factor of the interval per poll round. */
  factor: number;
  /** The sleep before the third poll when a learned first poll came too early (then growing by `factor`). */
  minIntervalMs: number;
}

/** 100 ms growing by 1.5 to 2 s; 5 minutes in all (Neon's SDK default). */
export const DEFAULT_WAIT_POLICY: WaitPolicy = {
  timeoutMs: 300_000,
  initialIntervalMs: 100,
  maxIntervalMs: 2_000,
  factor: 1.5,
  minIntervalMs: 5,
};

export interface WaitOptions extends Partial<WaitPolicy> {
  signal?: AbortSignal;
  /** Where a wait that lasts says what it still waits for (progress.ts: after ~5 s, then every ~30 s). */
  progress?: Progress;
  /** Where durations are learned; default one model per process (shared by every client, as the project lock). */
  model?: DurationModel;
}

/** Anything that can read one operation (a NeonClient); with `list`, a batch is read in one request. */
export interface OperationReader {
  operations: {
    get(projectId: string, operationId: string): Promise<Operation>;
    /** The project's most recent operations, newest first. */
    list?(projectId: string): Promise<Operation[]>;
  };
}

/** The next poll interval: grows by `factor` up to the cap. */
export function nextIntervalMs(current: number, policy: WaitPolicy): number {
  return Math.min(policy.maxIntervalMs, Math.max(1, Math.round(current * policy.factor)));
}

/** The least growth of the intervals this module shortens itself (after an early poll, a scout's): never a tight loop. */
const LEAST_GROWTH = { afterEarlyPoll: 1.5, scout: 1.1 };

/**
 * The sleeps before each poll. Unknown kind of batch: `initialIntervalMs` growing by `factor` to the cap. Known:
 * first the learned time; if that was early, the next poll goes at once (the batch most likely ended while the
 * early answer travelled back), then `minIntervalMs` growing by `factor` (at least 1.5), so an early first poll
 * costs one request and one round trip, and a stuck operation is not polled in a tight loop.
 */
export class PollSchedule {
  private polls = 0;
  private interval: number;
  private factor: number;

  constructor(
    private readonly policy: WaitPolicy,
    private readonly expectedMs?: number,
  ) {
    this.interval = policy.initialIntervalMs;
    this.factor = policy.factor;
  }

  /** How long to sleep before the next poll. */
  next(): number {
    const n = this.polls++;
    if (n === 0) return this.expectedMs ?? this.interval;
    if (n === 1 && this.expectedMs !== undefined) {
      this.interval = this.policy.minIntervalMs;
      this.factor = Math.max(this.factor, LEAST_GROWTH.afterEarlyPoll);
      return 0;
    }
    return (this.interval = nextIntervalMs(this.interval, { ...this.policy, factor: this.factor }));
  }
}

/**
 * Polls until every operation is `finished` or `skipped`, and resolves with their final records. An `error` or
 * `cancelled` one, or a `failed` one without a retry ahead, rejects at once with kind `operation_failed` (id,
 * action, status, error); a `failed` one the service will retry is waited through. Running out of time rejects
 * with kind `wait_timeout` naming what is still pending (a retried `failed` with its failures and error).
 */
export async function waitForOperations(
  client: OperationReader,
  projectId: string,
  operations: readonly Operation[],
  options: WaitOptions = {},
): Promise<Operation[]> {
  const { signal, model = SHARED_MODEL, progress, ...overrides } = options;
  const policy: WaitPolicy = { ...DEFAULT_WAIT_POLICY, ...definedOnly(overrides) };
  const started = performance.now();
  const latest = new Map(operations.map((op) => [op.id, op]));
  const shape = shapeOf(settle(latest));
  const scout = model.expectedMs(shape) === undefined && model.claimScout(shape);
  const pending = () => [...latest.values()].filter((op) => !isDone(op));
  const stopReporting = reportProgress(progress, Date.now(), (ms) => waitingLine(projectId, pending(), ms, policy));
  try {
    if (!scout) await model.followScout(shape, Math.min(policy.maxIntervalMs, policy.timeoutMs), signal);
    const expected = model.expectedMs(shape);
    const elapsed = performance.now() - started;
    const firstPollIn = expected === undefined ? undefined : Math.max(0, expected - elapsed);
    // a follower woken after the learned time polls at once: its outcome says nothing about the guess
    const guessMs = expected !== undefined && expected >= elapsed ? expected : undefined;
    const schedule = new PollSchedule(scout ? scoutPolicy(policy) : policy, firstPollIn);
    const seen = await pollUntilDone(client, projectId, latest, schedule, { policy, started, signal });
    if (seen.doneAtMs > 0) model.observe(shape, { ...seen, guessMs });
    return [...latest.values()];
  } finally {
    stopReporting();
    if (scout) model.releaseScout(shape);
  }
}

/** `waiting for operations of project p to finish: start_compute … (running); 6 s so far, at most 300 s`. */
export function waitingLine(projectId: string, pending: Operation[], elapsedMs: number, policy: WaitPolicy): string {
  const list = pending.length > 0 ? pending.map(describePending).join(", ") : "their final status";
  return (
    `waiting for operations of project ${projectId} to finish: ${list}; ${seconds(elapsedMs)} so far, at most ` +
    `${seconds(policy.timeoutMs)}`
  );
}

/** A scout learns a kind for the waits that follow it: it polls more densely than a lone wait would. */
function scoutPolicy(policy: WaitPolicy): WaitPolicy {
  return {
    ...policy,
    factor: Math.max(LEAST_GROWTH.scout, Math.min(policy.factor, 1.15)),
    initialIntervalMs: Math.max(1, policy.initialIntervalMs / 2),
  };
}

/** The poll loop: sleeps as `schedule` says, reads the pending operations, until none is pending or time is up. */
async function pollUntilDone(
  client: OperationReader,
  projectId: string,
  latest: Map<string, Operation>,
  schedule: PollSchedule,
  options: { policy: WaitPolicy; started: number; signal?: AbortSignal },
): Promise<Omit<WaitSeen, "guessMs">> {
  const { policy, started, signal } = options;
  const deadline = started + policy.timeoutMs;
  const seen = { pendingAtMs: 0, doneAtMs: 0, polls: 0 };
  for (let pending = settle(latest); pending.length > 0; pending = settle(latest)) {
    const remaining = deadline - performance.now();
    if (remaining <= 0) throw timeoutError(projectId, pending, policy.timeoutMs);
    await sleep(Math.min(schedule.next(), remaining), signal);
    if (seen.doneAtMs > 0) seen.pendingAtMs = seen.doneAtMs;
    seen.doneAtMs = performance.now() - started;
    seen.polls += 1;
    await pollOnce(client, projectId, pending, latest, signal);
  }
  return seen;
}

/** Reads the pending operations: one list request for a batch when possible, else one get each. */
async function pollOnce(
  client: OperationReader,
  projectId: string,
  pending: Operation[],
  latest: Map<string, Operation>,
  signal?: AbortSignal,
): Promise<void> {
  let missing = pending;
  const list = client.operations.list;
  if (pending.length > 1 && list) {
    throwIfAborted(signal);
    const byId = new Map((await list.call(client.operations, projectId)).map((op) => [op.id, op]));
    for (const op of pending) if (byId.has(op.id)) latest.set(op.id, byId.get(op.id)!);
    missing = pending.filter((op) => !byId.has(op.id));
  }
  for (const op of missing) {
    throwIfAborted(signal);
    latest.set(op.id, await client.operations.get(projectId, op.id));
    if (isFailed(latest.get(op.id)!)) break;
  }
}

/** The operations still to wait for; throws on the first failed one. */
function settle(latest: Map<string, Operation>): Operation[] {
  const failed = [...latest.values()].find(isFailed);
  if (failed) throw failedError(failed);
  return [...latest.values()].filter((op) => !isDone(op));
}
