/**
 * Waiting for operations, with explicit budgets and cancellation. Prevents the peers' failures: not waiting at all
 * ("project locked" in CI), polling every 100 ms forever with no timeout, and reporting a failed operation as
 * success.
 */
import { NeonError } from "./errors";
import { sleep, throwIfAborted } from "./retry";
import { DONE_STATUSES, FAILED_STATUSES, Operation } from "./schemas";

/** How long and how often to poll. */
export interface WaitPolicy {
  /** Total budget of one wait. */
  timeoutMs: number;
  /** First poll interval; short, since most operations take a second or two. */
  initialIntervalMs: number;
  /** Cap of the growing interval. */
  maxIntervalMs: number;
  /** Growth factor of the interval per poll round. */
  factor: number;
}

/** 100 ms growing by 1.5 to 2 s; 5 minutes in all (Neon's SDK default). */
export const DEFAULT_WAIT_POLICY: WaitPolicy = {
  timeoutMs: 300_000,
  initialIntervalMs: 100,
  maxIntervalMs: 2_000,
  factor: 1.5,
};

export interface WaitOptions extends Partial<WaitPolicy> {
  signal?: AbortSignal;
}

/** Anything that can read one operation (a NeonClient). */
export interface OperationReader {
  operations: { get(projectId: string, operationId: string): Promise<Operation> };
}

/** True when the operation will not change any more and did its job. */
export function isDone(operation: Pick<Operation, "status">): boolean {
  return DONE_STATUSES.includes(operation.status);
}

/** True when the operation ended without doing its job. Unknown statuses are neither: keep waiting. */
export function isFailed(operation: Pick<Operation, "status">): boolean {
  return FAILED_STATUSES.includes(operation.status);
}

/** The next poll interval: grows by `factor` up to the cap. */
export function nextIntervalMs(current: number, policy: WaitPolicy): number {
  return Math.min(policy.maxIntervalMs, Math.max(1, Math.round(current * policy.factor)));
}

/**
 * Polls until every operation is `finished` or `skipped`, and resolves with their final records. A `failed`,
 * `error` or `cancelled` one rejects with kind `operation_failed` (id, action, status, error); running out of time
 * rejects with kind `wait_timeout` naming what is still pending.
 */
export async function waitForOperations(
  client: OperationReader,
  projectId: string,
  operations: readonly Operation[],
  options: WaitOptions = {},
): Promise<Operation[]> {
  const policy: WaitPolicy = { ...DEFAULT_WAIT_POLICY, ...definedOnly(options) };
  const deadline = Date.now() + policy.timeoutMs;
  const latest = new Map(operations.map((op) => [op.id, op]));
  let interval = policy.initialIntervalMs;
  for (let pending = settle(latest); pending.length > 0; pending = settle(latest)) {
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw timeoutError(projectId, pending, policy.timeoutMs);
    await sleep(Math.min(interval, remaining), options.signal);
    interval = nextIntervalMs(interval, policy);
    for (const op of pending) {
      throwIfAborted(options.signal);
      latest.set(op.id, await client.operations.get(projectId, op.id));
      if (isFailed(latest.get(op.id)!)) break;
    }
  }
  return [...latest.values()];
}

/** The operations still to wait for; throws on the first failed one. */
function settle(latest: Map<string, Operation>): Operation[] {
  const failed = [...latest.values()].find(isFailed);
  if (failed) throw failedError(failed);
  return [...latest.values()].filter((op) => !isDone(op));
}

function failedError(op: Operation): NeonError {
  const reason = op.error ? `: ${op.error}` : "";
  return new NeonError({
    kind: "operation_failed",
    message: `operation ${op.action} ${op.id} ended ${op.status}${reason}`,
    operation: { id: op.id, action: op.action, status: op.status, error: op.error },
    resourceId: op.endpoint_id ?? op.branch_id,
  });
}

function timeoutError(projectId: string, pending: Operation[], timeoutMs: number): NeonError {
  const list = pending.map((op) => `${op.action} ${op.id} (${op.status})`).join(", ");
  const first = pending[0];
  return new NeonError({
    kind: "wait_timeout",
    message: `timed out after ${timeoutMs} ms waiting for operations of project ${projectId}; still pending: ${list}`,
    operation: { id: first.id, action: first.action, status: first.status, error: first.error },
    resourceId: first.endpoint_id ?? first.branch_id,
    retryable: true,
  });
}

function definedOnly(options: WaitOptions): Partial<WaitPolicy> {
  const out: Partial<WaitPolicy> = {};
  for (const key of ["timeoutMs", "initialIntervalMs", "maxIntervalMs", "factor"] as const) {
    if (options[key] !== undefined) out[key] = options[key];
  }
  return out;
}
