import type { BranchRestoreInput } from "../branch-input";
import { childrenOf, clearRolesAndDatabases, contentsOf, copyRolesAndDatabases, putContents } from "../branching";
import { badRequest, unprocessable } from "../errors";
import { newBranchId } from "../ids";
import type { Store } from "../store";
import { pointInTime, syntheticLsn } from "../timestamps";
import type { Branch, OperationRecord, Project } from "../types";
import { assertNameFree } from "./branches";
import { takeLock, type Service } from "./service";

/**
 * POST …/restore (OpenAPI `restoreProjectBranch`, `BranchRestoreRequest`). The branch takes its source's roles and
 * databases (at `source_timestamp` when given; an LSN cannot be placed in time here, so with `source_lsn` the source's
 * present ones: **guess**), keeps its id, name and computes (Neon docs, Branch restore: "your connection details do not
 * change"), and its running computes restart (Lifecycle.restored).
 * - `source_branch_id` equal to the branch needs `source_lsn` or `source_timestamp`, and `preserve_under_name`; a branch
 *   with children needs `preserve_under_name` (the document; 400 naming the field, status a **guess**).
 * - `preserve_under_name` keeps the old state as a new branch of that name, which "becomes the parent of your original
 *   branch", and the children move to it (docs, Branch restore; the document).
 * - A reset from the parent (its head) is refused on a protected branch (docs, Protected branches: "cannot be reset";
 *   422 a **guess**), and sets `expires_at` to now plus the branch's TTL (docs, Branch expiration).
 */
export function restoreBranch(
  svc: Service,
  project: Project,
  branch: Branch,
  input: BranchRestoreInput,
  now: number,
): OperationRecord[] {
  const { store, lifecycle } = svc;
  const source = store.branch(project.id, input.sourceBranchId);
  const toSelf = source.id === branch.id;
  const atHead = input.sourceLsn === undefined && input.sourceTimestampRaw === undefined;
  const children = childrenOf(store, branch);
  refuseRestore(branch, input, { toSelf, atHead, children });
  const fromParent = source.id === branch.parentId; // before a backup takes the parent's place
  const reset = fromParent && atHead;
  if (reset && branch.protected) {
    throw unprocessable(
      `branch ${branch.name} (${branch.id}) is protected: a protected branch cannot be reset from its parent`,
    );
  }
  const asOf =
    input.sourceTimestampRaw === undefined
      ? undefined
      : pointInTime("source_timestamp", input.sourceTimestampRaw, now, source);
  if (input.preserveUnderName !== undefined) assertNameFree(store, project.id, input.preserveUnderName);
  takeLock(svc, project.id, now);
  const contents = contentsOf(store, source, asOf); // read first: a restore to its own history reads what it replaces
  if (input.preserveUnderName !== undefined) preserve(store, branch, input.preserveUnderName, children, now);
  clearRolesAndDatabases(store, branch);
  putContents(store, contents, branch, now);
  if (input.preserveUnderName !== undefined || fromParent) {
    // the branching point on its (new) parent: the backup's own history, or the parent's (**guess** for another source)
    const onParent = input.preserveUnderName !== undefined ? toSelf : fromParent;
    branch.parentLsn = (onParent ? input.sourceLsn : undefined) ?? syntheticLsn(store.nextSeq());
    if (onParent && asOf !== undefined) branch.parentTimestamp = asOf;
    else delete branch.parentTimestamp;
  }
  if (reset && branch.ttlSeconds !== undefined) branch.expiresAt = now + branch.ttlSeconds * 1000;
  const { ops, timelineEnd } = lifecycle.restored(branch, now);
  branch.lastResetAt = now;
  branch.resettingUntil = timelineEnd;
  branch.updatedAt = now;
  store.dirty = true;
  return ops;
}

/** The 400s of a restore the request itself contradicts (the document's rules above). */
function refuseRestore(
  branch: Branch,
  input: BranchRestoreInput,
  facts: { toSelf: boolean; atHead: boolean; children: Branch[] },
): void {
  const { toSelf, atHead, children } = facts;
  if (toSelf && atHead) {
    throw badRequest("source_lsn or source_timestamp is required when source_branch_id is the branch itself");
  }
  if (toSelf && !input.preserveUnderName) {
    throw badRequest(
      "preserve_under_name is required when source_branch_id is the branch itself (it keeps the present state)",
    );
  }
  if (children.length && !input.preserveUnderName) {
    throw badRequest(
      `preserve_under_name is required: branch ${branch.name} has child branches (${children.map((c) => c.name).join(", ")}), ` +
        `which move to the preserved branch`,
    );
  }
}

/**
 * The backup of a restore: a new branch named `name` holding the branch's present roles and databases, in the branch's
 * place in the tree; the branch and its children become its children.
 */
function preserve(store: Store, branch: Branch, name: string, children: Branch[], now: number): void {
  const backup: Branch = {
    id: newBranchId(),
    projectId: branch.projectId,
    name,
    ...(branch.parentId ? { parentId: branch.parentId, parentLsn: branch.parentLsn } : {}),
    ...(branch.parentTimestamp !== undefined ? { parentTimestamp: branch.parentTimestamp } : {}),
    ...(branch.initSource ? { initSource: branch.initSource } : {}),
    isDefault: false,
    createdAt: now,
    updatedAt: now,
    seq: store.nextSeq(),
  };
  store.addBranch(backup);
  copyRolesAndDatabases(store, branch, backup, now);
  for (const c of children) {
    c.parentId = backup.id;
    c.updatedAt = now;
  }
  branch.parentId = backup.id;
  delete branch.initSource; // GUESS: now a child of its backup, a schema-only branch becomes an ordinary child
}
