/**
 * Deleting a branch: read it first, and refuse (sending no DELETE) what Neon refuses, naming the branch, the reason
 * and what to do: the default branch or the project's root branch ("You cannot delete a project's root or default
 * branch, or a branch that has a child branch": OpenAPI `deleteProjectBranch`), a protected branch (Neon docs,
 * Protected branches), a branch with children. One read serves all: the project's branch list (the branch and its
 * children). A branch already gone is fine: the list answered, so the project is reachable and the branch is gone (a
 * 404 of the branch alone might be the key's reach: shared/lifecycle.ts).
 *
 * Neon deletes a branch's computes, roles and databases with it. Pulumi deletes what depends on the branch first, so
 * what is left is not managed by this stack (or does not declare its dependency): it is named in a warning.
 */
import type { Branch } from "../../client";
import { warn } from "../shared/diagnostics";
import { errorKind } from "../shared/errors";
import { alreadyProven, deleteUnlessGone } from "../shared/lifecycle";
import { client } from "../shared/runtime";
import { labelOf } from "./plan";

type Props = Record<string, unknown>;

/**
 * What a refusal left: the branch, which the provider did not ask Neon to delete. Not "nothing": Pulumi deletes what
 * depends on a branch before it asks for the branch, so this stack's resources on it may be gone already.
 */
const NOT_DELETED =
  "The branch was not deleted (Pulumi deletes what depends on a branch before the branch itself: this stack's " +
  "computes, roles and databases on it may be deleted already).";

/** How to stop managing a branch without deleting it. */
const LET_GO =
  "To stop managing it without deleting it, remove it from the state (pulumi state delete <its URN>), or give the " +
  "resource the option retainOnDelete: true, run pulumi up, then remove it from the program.";

/** Deletes the branch `id`, or refuses before sending anything; see the module's doc. */
export async function deleteBranchNow(id: string, props: Props): Promise<void> {
  const projectId = String(props.projectId);
  const branches = await client().branches.list(projectId);
  const branch = branches.find((b) => b.id === id);
  if (!branch) return; // gone already: its project answered, so the branch is not merely out of the key's reach
  const refusal = refusalOf(branch, branches, props);
  if (refusal) throw new Error(refusal);
  await warnOfComputes(projectId, branch, props);
  const remove = async () => (await client().branches.delete(projectId, id)).branch !== undefined;
  try {
    await deleteUnlessGone(remove, alreadyProven); // the list just answered: a 404 now is a branch just deleted
  } catch (error) {
    if (errorKind(error) !== "validation") throw error;
    throw new Error(
      `Neon refused to delete ${describeBranch(branch, props)} (${(error as Error).message}). ${NOT_DELETED} ` + LET_GO,
      { cause: error },
    );
  }
}

/** Why Neon would refuse to delete `branch` (of the project's `branches`), with what to do; undefined if it would not. */
export function refusalOf(branch: Branch, branches: Branch[], props: Props): string | undefined {
  const which = describeBranch(branch, props);
  if (branch.default) {
    return (
      `${which} is the project's default branch, and Neon does not delete a default branch. ${NOT_DELETED} ` +
      `${LET_GO} (Only if this branch's data is truly to go: make another branch the default in the Neon console, ` +
      `then delete it.)`
    );
  }
  if (!branch.parent_id && branch.init_source !== "schema-only") {
    return `${which} is the project's root branch, and Neon does not delete a root branch. ${NOT_DELETED} ${LET_GO}`;
  }
  if (branch.protected) {
    return (
      `${which} is protected, and Neon does not delete a protected branch. ${NOT_DELETED} Set protected: ` +
      `false and run pulumi up, then delete it (pulumi destroy, or remove it from the program). ${LET_GO}`
    );
  }
  const children = branches.filter((b) => b.parent_id === branch.id);
  if (children.length === 0) return undefined;
  const named = children.map((c) => `${JSON.stringify(c.name)} (${c.id})`).join(", ");
  return (
    `${which} has child branches ${named}, and Neon does not delete a branch that has children. ${NOT_DELETED} ` +
    `Delete the child branches first (a Branch resource whose parentId is this branch's branchId is ` +
    `deleted before it), then delete this one. ${LET_GO}`
  );
}

function describeBranch(branch: Branch, props: Props): string {
  return `${labelOf(branch.id, props)} named ${JSON.stringify(branch.name)}`;
}

/** Computes still on the branch are deleted with it: say which (they are not this stack's, or declare no dependency). */
async function warnOfComputes(projectId: string, branch: Branch, props: Props): Promise<void> {
  let computes: { id: string }[];
  try {
    computes = await client().endpoints.listForBranch(projectId, branch.id);
  } catch {
    return;
  }
  if (computes.length === 0) return;
  warn(
    `${labelOf(branch.id, props)} is being deleted with the computes still on it (${computes.map((c) => c.id).join(", ")}): ` +
      `Neon deletes a branch's computes, roles and databases with it.`,
  );
}
