/**
 * A protected branch keeps what is on it through every destroy. A Branch's `protected: true` brings Pulumi's
 * `protect`, which stops a plain `pulumi destroy` in its preview; but `pulumi destroy --exclude-protected` leaves out
 * only the protected resources and what *they* depend on, not what depends on them (pulumi/pulumi
 * pkg/cmd/pulumi/operations/destroy.go, getProtectedExcludes), `--ignore-protect` ignores the option, and `--target` or
 * `--exclude` pick resources one by one. Each deleted the databases and roles on the branch, then Neon refused its
 * compute (api.md, Delete: computes of a protected branch cannot be deleted) and the branch: the branch survived
 * without its data.
 *
 * So in a destroy, a Compute's, Role's or Database's delete first reads its branch, and refuses when Neon protects it,
 * before sending anything: whatever the flags, and for a branch protected outside the program too. A branch already
 * gone protects nothing. Only in a destroy (the process checked no program: runtime.ts): in an `up`, a delete is the
 * program's own (a resource removed or replaced) and acts as before. `destroy --run-program` runs the program, so it
 * is not guarded (docs/resources.md, Deleting a branch).
 */
import { errorKind } from "./errors";
import { client, configuredByProgram } from "./runtime";

type Props = Record<string, unknown>;

/**
 * Resolves when `what` (`compute ep-…`, `role "app"`, …; its state `props` hold `projectId` and `branchId`) may be
 * deleted; throws, having sent nothing, when this is a destroy and its branch is protected on Neon.
 */
export async function refuseDeleteOnProtectedBranch(what: string, props: Props): Promise<void> {
  if (configuredByProgram()) return;
  const [projectId, branchId] = [String(props.projectId), String(props.branchId)];
  let isProtected: boolean;
  try {
    isProtected = (await client().branches.get(projectId, branchId)).branch.protected === true;
  } catch (error) {
    if (errorKind(error) === "not_found") return; // the branch is gone (or out of reach: the delete itself says)
    throw error;
  }
  if (!isProtected) return;
  throw new Error(
    `${what} was not deleted: its branch ${branchId} is protected on Neon, and deleting what is on a protected ` +
      `branch would leave the branch without its data (pulumi destroy --exclude-protected, --ignore-protect, ` +
      `--target and --exclude reach the computes, roles and databases of a protected branch). Nothing on the branch ` +
      `was deleted. To delete them, unprotect branch ${branchId} first (protected: false in the program, then ` +
      `pulumi up), then destroy; to keep them and stop managing them, give them the option retainOnDelete: true, ` +
      `run pulumi up, then destroy. See docs/resources.md#deleting-a-branch`,
  );
}
