/**
 * What an operation's status means for a wait: done, failed, or failed with a retry the service has scheduled (still
 * waited for). The statuses themselves: schemas.ts `DONE_STATUSES`, `FAILED_STATUSES`.
 */
import { DONE_STATUSES, FAILED_STATUSES, Operation } from "./schemas";

/** True when the operation will not change any more and did its job. */
export function isDone(operation: Pick<Operation, "status">): boolean {
  return DONE_STATUSES.includes(operation.status);
}

/**
 * True while a `failed` operation has a retry scheduled: a `retry_at` later than its failure (`updated_at`). The
 * documentation calls `failed` retryable ("may be retried", with `failures_count` and `retry_at`; api.md,
 * "Operations"), the official SDK calls it terminal: both hold if a `failed` with a retry ahead is waited for
 * (within the wait's budget) and one without is terminal.
 */
export function isRetrying(
  operation: Pick<Operation, "status"> & Partial<Pick<Operation, "retry_at" | "updated_at">>,
): boolean {
  if (operation.status !== "failed" || !operation.retry_at) return false;
  const retryAt = Date.parse(operation.retry_at);
  const failedAt = operation.updated_at ? Date.parse(operation.updated_at) : NaN;
  return !Number.isNaN(retryAt) && (Number.isNaN(failedAt) || retryAt > failedAt);
}

/**
 * True when the operation ended without doing its job: `error`, `cancelled`, or a `failed` that no retry follows
 * (see `isRetrying`). Unknown statuses are neither done nor failed: keep waiting.
 */
export function isFailed(
  operation: Pick<Operation, "status"> & Partial<Pick<Operation, "retry_at" | "updated_at">>,
): boolean {
  return FAILED_STATUSES.includes(operation.status) && !isRetrying(operation);
}
