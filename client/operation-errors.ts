/**
 * What a wait for operations reports: the error of a failed operation (id, action, status, error), the timeout
 * naming what is still pending, and how one pending operation is described (its failures, next retry and error).
 */
import { NeonError } from "./errors";
import { isRetrying } from "./operation-status";
import { Operation } from "./schemas";

/** Kind `operation_failed`: the operation's id, action, status, failures and error, and the object it concerns. */
export function failedError(op: Operation): NeonError {
  const reason = op.error ? `: ${op.error}` : "";
  const failures = (op.failures_count ?? 0) > 1 ? ` after ${op.failures_count} failures` : "";
  return new NeonError({
    kind: "operation_failed",
    message: `operation ${op.action} ${op.id} ended ${op.status}${failures}${reason}`,
    operation: { id: op.id, action: op.action, status: op.status, error: op.error },
    resourceId: op.endpoint_id ?? op.branch_id,
  });
}

/**
 * `start_compute <id> (running)`; a retried failure with its count, next retry and error; a retry under way with the
 * failures before it (the service shows `running` again, with `failures_count` and the last error).
 */
export function describePending(op: Operation): string {
  const reason = op.error ? `: ${op.error}` : "";
  if (isRetrying(op))
    return `${op.action} ${op.id} (failed ${op.failures_count ?? 1} times, next retry at ${op.retry_at}${reason})`;
  const failures = op.failures_count ?? 0;
  if (failures > 0) return `${op.action} ${op.id} (${op.status} again after ${failures} failures${reason})`;
  return `${op.action} ${op.id} (${op.status})`;
}

/** Kind `wait_timeout` (retryable): the budget spent and every operation still pending, the first one's facts kept. */
export function timeoutError(projectId: string, pending: Operation[], timeoutMs: number): NeonError {
  const list = pending.map(describePending).join(", ");
  const first = pending[0];
  return new NeonError({
    kind: "wait_timeout",
    message: `timed out after ${timeoutMs} ms waiting for operations of project ${projectId}; still pending: ${list}`,
    operation: { id: first.id, action: first.action, status: first.status, error: first.error },
    resourceId: first.endpoint_id ?? first.branch_id,
    retryable: true,
  });
}
