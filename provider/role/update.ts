/**
 * Updating a role in place: the one change a role takes is a password reset (new passwordTriggers); anything else
 * replaces it (diff.ts). The new password is recorded from the reset's answer.
 *
 * - A reset whose answer was lost (kind `ambiguous`) is settled by reading the password (reveal_password) once the
 *   branch's operations are done (before, the service may still show the old one): one that differs from the
 *   recorded one means the reset was applied, and it is the new password; the same one means it was not, and the
 *   reset is sent again (a few times). A reset is never resent blindly.
 * - A reset applied whose operations failed or timed out is kept in state (ResourceInitError) with the password as the
 *   service now reveals it and the OLD triggers, so that the next `up` resets again rather than seeing no change.
 */
import { errorKind, OUTCOME_UNKNOWN, ResourceInitError } from "../shared/errors";
import { client } from "../shared/runtime";
import { RoleAddress, roleAddressOf, recordedOutputs } from "./address";
import { planRoleChange, toOutputs } from "./declaration";

type Props = Record<string, unknown>;

/** Resets whose answers were lost (each read back first) before the step fails. */
const RESET_ATTEMPTS = 3;

/** Applies `news` to the role whose outputs are `olds`; returns the new outputs. */
export async function updateRole(id: string, olds: Props, news: Props): Promise<Props> {
  const plan = planRoleChange(olds, news);
  if (!plan.reset) return recordedOutputs(olds, news);
  const address = roleAddressOf(olds, id);
  const carried = { ...news, projectId: address.projectId };
  for (let attempt = 1; ; attempt++) {
    try {
      const { role } = await client().roles.resetPassword(address.projectId, address.branchId, address.name);
      return toOutputs(role, carried, role.password);
    } catch (error) {
      const kind = errorKind(error);
      if (kind === "ambiguous") {
        const now = await revealed(address);
        if (now !== undefined && now !== olds.password) return outputsWith(address, carried, now, olds);
        if (now !== undefined && attempt < RESET_ATTEMPTS) continue;
      }
      if (kind !== undefined && OUTCOME_UNKNOWN.has(kind))
        throw await keptAfterFailedReset(id, address, olds, error, news);
      throw error;
    }
  }
}

/**
 * The role's password as the service reveals it once the branch's operations are done (a reset's new password may
 * show only then: the SDK's revealPasswordSettled); undefined when it does not reveal it.
 */
async function revealed(address: RoleAddress): Promise<string | undefined> {
  try {
    return await client().roles.revealPasswordSettled(address.projectId, address.branchId, address.name);
  } catch {
    return undefined;
  }
}

/** The outputs after a reset that was applied though its answer was lost: the role read back, the revealed password. */
async function outputsWith(address: RoleAddress, carried: Props, password: string, olds: Props): Promise<Props> {
  try {
    const role = await client().roles.get(address.projectId, address.branchId, address.name);
    return toOutputs(role, carried, password);
  } catch {
    return { ...recordedOutputs(olds, carried), password };
  }
}

/**
 * A reset that may have been applied (its operations failed, timed out, or its answer was lost and the password could
 * not be read): the role is kept in state with its old triggers, and with the password the service reveals now
 * (none when it does not: the next refresh or `up` reads it), so that the next `up` resets it again.
 */
async function keptAfterFailedReset(
  id: string,
  address: RoleAddress,
  olds: Props,
  error: unknown,
  news: Props,
): Promise<ResourceInitError> {
  const password = await revealed(address);
  const outputs: Props = { ...olds };
  delete outputs.password;
  if (password !== undefined) outputs.password = password;
  const reason = error instanceof Error ? error.message : String(error);
  const message = `the password reset of role ${address.name} of branch ${address.branchId} may not be in force: ${reason}`;
  return new ResourceInitError(id, outputs, error, news, message);
}
