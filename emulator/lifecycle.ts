import { childrenOf } from "./branching";
import type { OperationEngine, OperationSpec } from "./operations";
import { hasFailed } from "./operations";
import type { Store } from "./store";
import type { Branch, ComputeState, EndpointConfig, EndpointRecord, OperationRecord } from "./types";

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
export class Lifecycle {
  constructor(
    private readonly store: Store,
    private readonly ops: OperationEngine,
  ) {}

  /**
   * Settles a project: branches whose `expires_at` passed are deleted, then every compute is settled (autosuspends
   * become operations that lists and the 423 check see).
   */
  settleProject(projectId: string, now: number): void {
    this.expireBranches(projectId, now);
    for (const e of this.store.endpointsOf(projectId)) this.settle(e, now);
  }

  /**
   * Deletes each branch of the project whose `expires_at` is past, with its computes, roles and databases, as of its
   * expiry: OpenAPI `Branch.expires_at` ("scheduled to expire and be automatically deleted … by a background job");
   * Neon docs, Branch expiration ("all associated compute endpoints are also deleted"). Its operations are those of a
   * delete (`branchDeleted`), created at the expiry. The job's delay ("may not occur exactly at the specified time") is not
   * modelled: the branch is gone once the clock passes the time. A branch with children is left (**guess**; the API
   * lets no expiring branch have any: docs, "Restrictions").
   */
  private expireBranches(projectId: string, now: number): void {
    const due = this.store
      .branchesOf(projectId)
      .filter((b) => b.expiresAt !== undefined && b.expiresAt <= now)
      .sort((a, b) => (a.expiresAt as number) - (b.expiresAt as number));
    for (const b of due) {
      if (childrenOf(this.store, b).length > 0 || b.isDefault) continue;
      const at = b.expiresAt as number;
      for (const e of this.store.endpointsOf(projectId, b.id)) this.settle(e, at); // its autosuspends before it went
      this.branchDeleted(b, at, false);
    }
  }

  /**
   * A branch delete: each compute's `suspend_compute` (running), then `delete_timeline` (scheduling), as the OpenAPI
   * example of `deleteProjectBranch` and Neon docs (Manage branches, "Delete a branch with the API") show; without
   * computes a lone `delete_timeline`, running (**guess**). The branch, its computes, roles and databases are removed at
   * once (**guess**, as for a compute: what reads show while the operations run is not documented).
   */
  branchDeleted(branch: Branch, now: number, scripted = true): OperationRecord[] {
    const computes = this.store.endpointsOf(branch.projectId, branch.id).sort((a, b) => a.seq - b.seq);
    const specs: OperationSpec[] = computes.map((e) => this.spec(e, "suspend_compute", "running"));
    specs.push({ action: "delete_timeline", initial: computes.length ? "scheduling" : "running", branchId: branch.id });
    const ops = this.ops.create(branch.projectId, now, specs, scripted);
    this.store.removeBranch(branch.id);
    return ops;
  }

  /**
   * A role or database change reaching a branch's computes. OpenAPI examples (`createProjectBranchRole`,
   * `createProjectBranchDatabase`, `updateProjectBranchDatabase`, `deleteProjectBranchDatabase`,
   * `deleteProjectBranchRole`, `resetProjectBranchRolePassword`) and the role docs: a running compute gets
   * `apply_config` (running) and its "connections … will be dropped"; an idle one "becomes active for a short period of
   * time and is suspended afterward": `apply_config` (running) then `suspend_compute` (scheduling). A disabled compute is
   * left alone (**guess**: it "cannot be enabled by a connection or console action"), and a branch without computes
   * answers no operations (**guess**: nothing runs to apply the change to).
   */
  configApplied(branch: Branch, now: number): OperationRecord[] {
    const out: OperationRecord[] = [];
    for (const e of this.store.endpointsOf(branch.projectId, branch.id).sort((a, b) => a.seq - b.seq)) {
      if (e.config.disabled) continue;
      const apply = this.spec(e, "apply_config", "running");
      const running = e.currentState === "active" || e.pendingState === "active";
      if (running) out.push(...this.ops.create(e.projectId, now, [apply]));
      else out.push(...this.move(e, now, "idle", [apply, this.spec(e, "suspend_compute", "scheduling")]));
      e.updatedAt = now;
    }
    return out;
  }

  /**
   * A restore (or reset from parent): `create_timeline` (running) builds the new state (Neon docs, Branch restore,
   * technical details: "Neon builds a new point-in-time branch"), then each running compute restarts on it,
   * `suspend_compute` and `start_compute` (scheduling), since "Existing connections to the selected branch are
   * temporarily interrupted" (docs, Branch restore; Reset from parent). The action names, and that an idle compute is
   * left idle (it holds no connection; its next start sees the new data), are a **guess**. Returns the operations and
   * when `create_timeline` ends (the branch is `resetting` until then).
   */
  restored(branch: Branch, now: number): { ops: OperationRecord[]; timelineEnd: number } {
    const running = this.store
      .endpointsOf(branch.projectId, branch.id)
      .filter((e) => !e.config.disabled && (e.currentState === "active" || e.pendingState === "active"))
      .sort((a, b) => a.seq - b.seq);
    const specs: OperationSpec[] = [{ action: "create_timeline", initial: "running", branchId: branch.id }];
    for (const e of running) {
      specs.push(this.spec(e, "suspend_compute", "scheduling"), this.spec(e, "start_compute", "scheduling"));
    }
    const ops = this.ops.create(branch.projectId, now, specs);
    running.forEach((e, i) => {
      e.pendingState = "active";
      e.pendingOpId = ops[2 + 2 * i].id;
      e.updatedAt = now;
    });
    this.store.dirty = true;
    return { ops, timelineEnd: ops[0].endAt };
  }

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

  private move(e: EndpointRecord, now: number, to: ComputeState, specs: OperationSpec[]): OperationRecord[] {
    const ops = this.ops.create(e.projectId, now, specs);
    e.pendingState = to;
    e.pendingOpId = ops[ops.length - 1].id;
    e.updatedAt = now;
    this.store.dirty = true;
    return ops;
  }

  private spec(e: EndpointRecord, action: string, initial: "running" | "scheduling"): OperationSpec {
    return { action, initial, ...this.target(e) };
  }

  private target(e: EndpointRecord): { branchId: string; endpointId: string } {
    return { branchId: e.branchId, endpointId: e.id };
  }
}
