import { randomUUID } from "node:crypto";
import { locked } from "./errors";
import type { Store } from "./store";
import { NEVER, type OperationRecord, type OperationStatus } from "./types";

/** What a route asks for: one step of a chain; each step starts after the one before it has ended. */
export interface OperationSpec {
  action: string;
  initial: "running" | "scheduling";
  branchId?: string;
  endpointId?: string;
}

export interface OperationRule {
  action?: string;
  times?: number;
  error?: string;
}

interface ArmedRule {
  action?: string;
  left: number;
  error: string;
}

/**
 * Operations that take time: `scheduling` → `running` → `finished` (or `failed`), each phase lasting
 * `durationMs` of service time, computed lazily from the clock. Also the one place that answers 423 while a
 * project has an unfinished operation, so every compute mutation gets the lock the same way.
 */
export class OperationEngine {
  private readonly failRules: ArmedRule[] = [];
  private readonly stickRules: ArmedRule[] = [];
  private readonly open = new Map<string, OperationRecord[]>();

  constructor(
    private readonly store: Store,
    private readonly durationMs: number,
  ) {
    for (const op of store.operations.values()) this.track(op);
  }

  /** The next matching operation ends `failed` with `error` and failures_count 1. */
  failNext(rule: OperationRule = {}): void {
    this.failRules.push({ action: rule.action, left: rule.times ?? 1, error: rule.error ?? "operation failed" });
  }

  /** The next matching operation stays `running` forever (and anything chained after it, `scheduling`). */
  stickNext(rule: OperationRule = {}): void {
    this.stickRules.push({ action: rule.action, left: rule.times ?? 1, error: "" });
  }

  /** Records a chain of operations created at `now`; returns them in order. `scripted`: failNext/stickNext apply. */
  create(projectId: string, now: number, specs: OperationSpec[], scripted = true): OperationRecord[] {
    const out: OperationRecord[] = [];
    let prevEnd = now;
    for (const spec of specs) {
      const earliest = spec.initial === "running" ? now : now + this.durationMs;
      const runAt = prevEnd === NEVER ? NEVER : Math.max(earliest, prevEnd);
      const stuck = scripted && this.take(this.stickRules, spec.action) !== undefined;
      const failure = scripted ? this.take(this.failRules, spec.action) : undefined;
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
        endAt: stuck || runAt === NEVER ? NEVER : runAt + this.durationMs,
        ...(failure ? { error: failure.error } : {}),
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

  private track(op: OperationRecord): void {
    const list = this.open.get(op.projectId);
    if (list) list.push(op);
    else this.open.set(op.projectId, [op]);
  }

  private take(rules: ArmedRule[], action: string): ArmedRule | undefined {
    const i = rules.findIndex((r) => r.left > 0 && (r.action === undefined || r.action === action));
    if (i < 0) return undefined;
    const rule = rules[i];
    if (--rule.left <= 0) rules.splice(i, 1);
    return rule;
  }
}

/** The status of an operation at `now`. */
export function operationStatus(op: OperationRecord, now: number): OperationStatus {
  if (now < op.runAt) return "scheduling";
  if (now < op.endAt) return "running";
  return op.error === undefined ? "finished" : "failed";
}

/** True while the operation neither finished nor failed. */
export const isUnfinished = (op: OperationRecord, now: number): boolean => op.endAt > now;

/** True when the operation ended `failed`. */
export const hasFailed = (op: OperationRecord, now: number): boolean => op.endAt <= now && op.error !== undefined;

const iso = (ms: number): string => new Date(ms).toISOString();

/**
 * The API shape of an operation. `asCreated` renders it as the mutation's response shows it (status
 * `running` or `scheduling`), even with a zero duration, as the real service answers.
 */
export function renderOperation(op: OperationRecord, now: number, asCreated = false): Record<string, unknown> {
  const status = asCreated ? op.initialStatus : operationStatus(op, now);
  const changedAt = status === "scheduling" ? op.createdAt : status === "running" ? op.runAt : op.endAt;
  const done = status === "finished" || status === "failed";
  const out: Record<string, unknown> = {
    id: op.id,
    project_id: op.projectId,
    ...(op.branchId ? { branch_id: op.branchId } : {}),
    ...(op.endpointId ? { endpoint_id: op.endpointId } : {}),
    action: op.action,
    status,
    failures_count: status === "failed" ? 1 : 0,
    created_at: iso(op.createdAt),
    updated_at: iso(asCreated ? op.createdAt : changedAt),
    total_duration_ms: asCreated ? 0 : Math.max(0, (done ? op.endAt : now) - op.createdAt),
  };
  if (status === "failed") out.error = op.error;
  return out;
}
