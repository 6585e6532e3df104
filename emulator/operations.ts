import { randomUUID } from "node:crypto";
import { locked } from "./errors";
import type { Store } from "./store";
import { NEVER, type OperationOutcome, type OperationRecord, type OperationStatus } from "./types";

/** What a rule asks for (domain/): one step of a chain; each step starts after the one before it has ended. */
export interface OperationSpec {
  action: string;
  initial: "running" | "scheduling";
  branchId?: string;
  endpointId?: string;
}

/**
 * A scripted outcome for the next matching operations (`failNext`). `status` is how they end (default `failed`);
 * `retries` failed attempts come first, each shown as `failed` with `failures_count` and a `retry_at` in the
 * future, after which the service tries again (api.md: `failed` "may be retried"). A transient failure is
 * `{status: "failed", retries: n}`: it fails n times, then finishes. `retries: Infinity` retries forever.
 */
export interface OperationRule {
  action?: string;
  times?: number;
  error?: string;
  status?: "failed" | "error" | "cancelled";
  retries?: number;
}

interface ArmedRule {
  action?: string;
  left: number;
  outcome: OperationOutcome;
  error?: string;
  retries: number;
}

/** Retries beyond this are "forever" (a JSON-safe stand-in for Infinity, like NEVER). */
const FOREVER = Number.MAX_SAFE_INTEGER;

function armed(rule: OperationRule, outcome: OperationOutcome | undefined): ArmedRule {
  const retries = rule.retries ?? 0;
  if (!(retries >= 0)) throw new RangeError("retries must be a number ≥ 0 (Infinity: retried forever)");
  const status = outcome ?? rule.status ?? "failed";
  if (!["failed", "error", "cancelled", "skipped"].includes(status)) {
    throw new RangeError(`status ${String(status)} is not a failure; allowed: failed, error, cancelled`);
  }
  // a `failed` the service retries is transient: after its retries the operation finishes
  const ends: OperationOutcome = status === "failed" && retries > 0 ? "finished" : status;
  const error = status === "skipped" ? undefined : (rule.error ?? "operation failed");
  return { action: rule.action, left: rule.times ?? 1, outcome: ends, error, retries: Math.min(retries, FOREVER) };
}

/**
 * Operations that take time: `scheduling` → `running` → `finished` (or another outcome a test scripted), each
 * phase lasting `durationMs` of service time, computed lazily from the clock. Also the one place that answers 423
 * while a project has an unfinished operation, so every compute mutation gets the lock the same way.
 */
export class OperationEngine {
  private readonly outcomeRules: ArmedRule[] = [];
  private readonly stickRules: ArmedRule[] = [];
  private readonly open = new Map<string, OperationRecord[]>();

  constructor(
    private readonly store: Store,
    private readonly durationMs: number,
  ) {
    for (const op of store.operations.values()) this.track(op);
  }

  /** The next matching operation ends as the rule says (default: `failed` with failures_count 1). */
  failNext(rule: OperationRule = {}): void {
    this.outcomeRules.push(armed(rule, undefined));
  }

  /** The next matching operation ends `skipped` (which counts as done). */
  skipNext(rule: Omit<OperationRule, "status" | "error" | "retries"> = {}): void {
    this.outcomeRules.push(armed(rule, "skipped"));
  }

  /** The next matching operation stays `running` forever (and anything chained after it, `scheduling`). */
  stickNext(rule: Omit<OperationRule, "status" | "error" | "retries"> = {}): void {
    this.stickRules.push({ action: rule.action, left: rule.times ?? 1, outcome: "finished", retries: 0 });
  }

  /** Records a chain of operations created at `now`; returns them in order. `scripted`: failNext/stickNext apply. */
  create(projectId: string, now: number, specs: OperationSpec[], scripted = true): OperationRecord[] {
    const out: OperationRecord[] = [];
    let prevEnd = now;
    for (const spec of specs) {
      const earliest = spec.initial === "running" ? now : now + this.durationMs;
      const runAt = prevEnd === NEVER ? NEVER : Math.max(earliest, prevEnd);
      const stuck = scripted && this.take(this.stickRules, spec.action) !== undefined;
      const scriptedEnd = scripted ? this.take(this.outcomeRules, spec.action) : undefined;
      const retries = scriptedEnd?.retries ?? 0;
      const op: OperationRecord = {
        id: randomUUID(),
        seq: this.store.nextSeq(),
        projectId,
        branchId: spec.branchId,
        endpointId: spec.endpointId,
        action: spec.action,
        initialStatus: spec.initial,
        createdAt: now,
        runAt,
        endAt: stuck || runAt === NEVER || retries >= FOREVER ? NEVER : runAt + this.durationMs * (1 + 2 * retries),
        ...(scriptedEnd ? this.scriptedFields(scriptedEnd) : {}),
      };
      this.store.addOperation(op);
      this.track(op);
      out.push(op);
      prevEnd = op.endAt;
    }
    return out;
  }

  /** 423 when the project has an operation that is still scheduling or running at `now`. */
  assertNotBusy(projectId: string, now: number): void {
    const list = this.open.get(projectId);
    if (!list) return;
    const still = list.filter((op) => op.endAt > now);
    if (still.length) {
      this.open.set(projectId, still);
      throw locked();
    }
    this.open.delete(projectId);
  }

  /** Drops what it tracks of a deleted project (its operations went with it). */
  forget(projectId: string): void {
    this.open.delete(projectId);
  }

  private track(op: OperationRecord): void {
    const list = this.open.get(op.projectId);
    if (list) list.push(op);
    else this.open.set(op.projectId, [op]);
  }

  private scriptedFields(rule: ArmedRule): Partial<OperationRecord> {
    const out: Partial<OperationRecord> = { outcome: rule.outcome };
    if (rule.error !== undefined) out.error = rule.error;
    if (rule.retries > 0) Object.assign(out, { retries: rule.retries, attemptMs: this.durationMs });
    return out;
  }

  private take(rules: ArmedRule[], action: string): ArmedRule | undefined {
    const i = rules.findIndex((r) => r.left > 0 && (r.action === undefined || r.action === action));
    if (i < 0) return undefined;
    const rule = rules[i];
    if (--rule.left <= 0) rules.splice(i, 1);
    return rule;
  }
}

/** What an operation shows at one instant. */
interface Phase {
  status: OperationStatus;
  failures: number;
  changedAt: number;
  retryAt?: number;
}

/** How the operation ends: scripted, or `finished` (`failed` for a record that only carries an error). */
export function outcomeOf(op: OperationRecord): OperationOutcome {
  return op.outcome ?? (op.error === undefined ? "finished" : "failed");
}

const FAILURES: OperationOutcome[] = ["failed", "error", "cancelled"];

/**
 * The operation at `now`: scheduling, then attempts of `attemptMs` each; a failed attempt that the service
 * retries shows `failed` (failures_count k, retry_at = when the next attempt starts) until that retry; after the
 * last attempt, its outcome.
 */
export function phaseAt(op: OperationRecord, now: number): Phase {
  if (now < op.runAt) return { status: "scheduling", failures: 0, changedAt: op.createdAt };
  const retries = op.retries ?? 0;
  if (now >= op.endAt) {
    const outcome = outcomeOf(op);
    return { status: outcome, failures: retries + (FAILURES.includes(outcome) ? 1 : 0), changedAt: op.endAt };
  }
  const d = op.attemptMs ?? 0;
  const k = retries > 0 && d > 0 ? Math.floor((now - op.runAt) / (2 * d)) : 0;
  if (k >= retries) return { status: "running", failures: retries, changedAt: op.runAt + 2 * d * retries };
  const attemptAt = op.runAt + 2 * d * k;
  if (now < attemptAt + d) return { status: "running", failures: k, changedAt: attemptAt };
  return { status: "failed", failures: k + 1, changedAt: attemptAt + d, retryAt: attemptAt + 2 * d };
}

/** The status of an operation at `now`. */
export function operationStatus(op: OperationRecord, now: number): OperationStatus {
  return phaseAt(op, now).status;
}

/** True while the operation has not reached its outcome (retried failures included). */
export const isUnfinished = (op: OperationRecord, now: number): boolean => op.endAt > now;

/** True when the operation ended `failed`, `error` or `cancelled`. */
export const hasFailed = (op: OperationRecord, now: number): boolean =>
  op.endAt <= now && FAILURES.includes(outcomeOf(op));

const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * The API shape of an operation. `asCreated` renders it as the mutation's response shows it (status
 * `running` or `scheduling`), even with a zero duration, as the real service answers.
 */
export function renderOperation(op: OperationRecord, now: number, asCreated = false): Record<string, unknown> {
  const phase: Phase = asCreated
    ? { status: op.initialStatus, failures: 0, changedAt: op.createdAt }
    : phaseAt(op, now);
  const ended = now >= op.endAt && !asCreated;
  const out: Record<string, unknown> = {
    id: op.id,
    project_id: op.projectId,
    ...(op.branchId ? { branch_id: op.branchId } : {}),
    ...(op.endpointId ? { endpoint_id: op.endpointId } : {}),
    action: op.action,
    status: phase.status,
    failures_count: phase.failures,
    created_at: iso(op.createdAt),
    updated_at: iso(phase.changedAt),
    total_duration_ms: asCreated ? 0 : Math.max(0, (ended ? op.endAt : now) - op.createdAt),
  };
  if (phase.failures > 0 && op.error !== undefined) out.error = op.error;
  if (phase.retryAt !== undefined) out.retry_at = iso(phase.retryAt);
  return out;
}
