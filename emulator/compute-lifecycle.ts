import type { OperationEngine, OperationSpec } from "./operations";
import { hasFailed } from "./operations";
import type { Store } from "./store";
import type { ComputeState, EndpointConfig, EndpointRecord, OperationRecord } from "./types";

/** Autosuspend delay in ms: 0 = the 300 s default, -1 = never (undefined). */
export function suspendDelayMs(timeoutSeconds: number): number | undefined {
  if (timeoutSeconds < 0) return undefined;
  return (timeoutSeconds === 0 ? 300 : timeoutSeconds) * 1000;
}

/**
 * Fields whose change restarts a running compute; others apply live. Sizes: spec "What restarts" 1–2, api.md "What
 * restarts". Postgres settings and the provisioner: **guess** (no source says; many Postgres settings need a restart,
 * and the provider warns that such a change may drop connections rather than rely on either answer).
 */
const RESTARTING: (keyof EndpointConfig)[] = [
  "autoscaling_limit_min_cu",
  "autoscaling_limit_max_cu",
  "provisioner",
  "settings",
];

/**
 * The compute lifecycle of the spec: init/active/idle with pending_state, autosuspend, wake on activity,
 * restart, start, suspend, and what an update does to a running or an idle compute. State is settled lazily
 * from the clock on every read, so no timer runs and a manual clock jump of days is instant.
 */
export class ComputeLifecycle {
  constructor(
    protected readonly store: Store,
    protected readonly ops: OperationEngine,
  ) {}

  /**
   * Brings a compute up to `now`: ends a finished pending move, then applies autosuspend (to a disabled compute too:
   * nothing wakes it again, and one left active, from a fixture say, must not run forever).
   */
  settle(e: EndpointRecord, now: number): void {
    if (e.pendingState !== undefined && e.pendingOpId !== undefined) this.settlePending(e, now);
    if (e.currentState !== "active" || e.pendingState !== undefined) return;
    const delay = suspendDelayMs(e.config.suspend_timeout_seconds);
    if (delay === undefined) return;
    const at = (e.lastActiveAt ?? e.createdAt) + delay;
    if (now < at) return;
    e.currentState = "idle";
    e.suspendedAt = at;
    e.updatedAt = at;
    this.ops.create(e.projectId, at, [{ action: "suspend_compute", initial: "running", ...this.target(e) }], false);
    this.store.dirty = true;
  }

  private settlePending(e: EndpointRecord, now: number): void {
    const op = this.store.operations.get(e.pendingOpId as string);
    if (op && op.endAt > now) return;
    const at = op ? op.endAt : now;
    if (op && hasFailed(op, now)) {
      if (e.currentState === "init") e.currentState = "idle";
    } else {
      e.currentState = e.pendingState as ComputeState;
      if (e.currentState === "active") e.lastActiveAt = e.startedAt = at;
      else e.suspendedAt = at;
    }
    e.pendingState = e.pendingOpId = undefined;
    e.updatedAt = at;
    this.store.dirty = true;
  }

  /**
   * A connection or a query: wakes an idle compute (start_compute) and resets the autosuspend timer. A disabled
   * compute is neither woken nor kept awake: it "cannot be enabled by a connection" (OpenAPI,
   * EndpointUpdateRequest.disabled).
   */
  activity(e: EndpointRecord, now: number): OperationRecord[] {
    this.settle(e, now);
    if (e.config.disabled) return [];
    this.store.dirty = true;
    if (e.currentState === "idle" && e.pendingState === undefined) {
      const ops = this.ops.create(e.projectId, now, [this.spec(e, "start_compute", "running")], false);
      e.currentState = "active";
      e.lastActiveAt = e.startedAt = e.updatedAt = now;
      return ops;
    }
    if (e.currentState === "active") e.lastActiveAt = now;
    return [];
  }

  /** A new compute: init, pending active, one start_compute (running). */
  created(e: EndpointRecord, now: number): OperationRecord[] {
    return this.move(e, now, "active", [this.spec(e, "start_compute", "running")]);
  }

  /** Restart: suspend_compute then start_compute; the compute is active again after both. */
  restart(e: EndpointRecord, now: number): OperationRecord[] {
    const specs = [this.spec(e, "suspend_compute", "running"), this.spec(e, "start_compute", "scheduling")];
    return this.move(e, now, "active", specs);
  }

  /**
   * A delete with `deleteOperations`: one suspend_compute (running), as the official spec's example shows (also
   * for an idle compute, as in that example); domain/endpoints.ts removes the compute at once.
   */
  deleted(e: EndpointRecord, now: number): OperationRecord[] {
    return this.ops.create(e.projectId, now, [this.spec(e, "suspend_compute", "running")]);
  }

  start(e: EndpointRecord, now: number): OperationRecord[] {
    return this.move(e, now, "active", [this.spec(e, "start_compute", "running")]);
  }

  suspend(e: EndpointRecord, now: number): OperationRecord[] {
    return this.move(e, now, "idle", [this.spec(e, "suspend_compute", "running")]);
  }

  /**
   * Applies a validated update. Idle compute: apply_config (running) + suspend_compute (scheduling), stays idle (the
   * spec gives this for a branch move; api.md "What restarts" for any change). Running compute: a size change
   * restarts it (api.md), an autosuspend change does not; a settings or provisioner change and a branch move restart
   * it too: **guesses** (the spec covers only an idle compute's move; a connection cannot continue on another
   * branch's data, api.md "Branch move").
   */
  updated(e: EndpointRecord, next: EndpointConfig, branchId: string, now: number): OperationRecord[] {
    const restart = RESTARTING.some((k) => JSON.stringify(e.config[k]) !== JSON.stringify(next[k]));
    const moved = branchId !== e.branchId;
    const changed = moved || JSON.stringify(e.config) !== JSON.stringify(next);
    const disabling = next.disabled && !e.config.disabled;
    e.config = next;
    e.branchId = branchId;
    e.updatedAt = now;
    this.store.dirty = true;
    if (!changed) return [];
    const apply = this.spec(e, "apply_config", "running");
    const running = e.currentState === "active" || e.pendingState === "active";
    if (!running || disabling) return this.move(e, now, "idle", [apply, this.spec(e, "suspend_compute", "scheduling")]);
    if (!restart && !moved) return this.ops.create(e.projectId, now, [apply]);
    const specs = [apply, this.spec(e, "suspend_compute", "scheduling"), this.spec(e, "start_compute", "scheduling")];
    return this.move(e, now, "active", specs);
  }

  protected move(e: EndpointRecord, now: number, to: ComputeState, specs: OperationSpec[]): OperationRecord[] {
    const ops = this.ops.create(e.projectId, now, specs);
    e.pendingState = to;
    e.pendingOpId = ops[ops.length - 1].id;
    e.updatedAt = now;
    this.store.dirty = true;
    return ops;
  }

  protected spec(e: EndpointRecord, action: string, initial: "running" | "scheduling"): OperationSpec {
    return { action, initial, ...this.target(e) };
  }

  private target(e: EndpointRecord): { branchId: string; endpointId: string } {
    return { branchId: e.branchId, endpointId: e.id };
  }
}
