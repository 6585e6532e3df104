import { childrenOf } from "./branching";
import { ComputeLifecycle } from "./compute-lifecycle";
import type { OperationSpec } from "./operations";
import type { Branch, OperationRecord } from "./types";

/**
 * The compute lifecycle (compute-lifecycle.ts) with what branch-wide events do to a branch's computes: a project settled
 * (its expired branches deleted), a branch deleted, a role or database change applied, a restore's restarts.
 */
export class Lifecycle extends ComputeLifecycle {
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
}
