/**
 * A role's password as the service has it now, read with reveal_password only when it can have changed.
 *
 * A refresh kept the state's password: one reset outside Pulumi (the console, neonctl, a branch reset from its parent)
 * stayed stale in `password` and in every connection string built from it, and the refresh said `same`. A reset moves
 * the role's `updated_at` (OpenAPI `Role.updated_at`), so a refresh reveals the password when it moved, or when the
 * state has none; otherwise it sends nothing more. Reveal waits for the branch's operations (the SDK's
 * `revealPasswordSettled`): a reset's new password may show only once they finish. A refused reveal (a project that
 * stores no passwords: 412) never leaves a password that may be stale: it is dropped, with a warning saying how to
 * get a new one.
 */
import { warn } from "../shared/diagnostics";
import { client } from "../shared/runtime";
import { RESET_ADVICE, RoleAddress } from "./address";
import { cannotLogIn } from "./declaration";

type Props = Record<string, unknown>;

/** The password for a refresh's outputs: `state` is what was recorded, `outs` the role as read now. */
export async function passwordNow(address: RoleAddress, state: Props, outs: Props): Promise<string | undefined> {
  if (cannotLogIn(outs)) return undefined;
  const recorded = typeof state.password === "string" ? state.password : undefined;
  const moved = state.updatedAt !== outs.updatedAt;
  if (recorded !== undefined && !moved) return recorded;
  try {
    return await client().roles.revealPasswordSettled(address.projectId, address.branchId, address.name);
  } catch (error) {
    if (recorded !== undefined) warn(staleDropped(address, error));
    return undefined;
  }
}

function staleDropped(address: RoleAddress, error: unknown): string {
  return (
    `Role ${address.name} of branch ${address.branchId} changed on the service since the state was written, and its ` +
    `password could not be read (${(error as Error).message}), so the password output is now empty rather than ` +
    `perhaps stale: ${RESET_ADVICE}`
  );
}
