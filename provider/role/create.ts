/**
 * Creating a role without duplicates, without taking anyone's role, and without losing its password.
 *
 * - The branch is read first: a role of that name already there (inherited from the parent, made outside Pulumi) is
 *   refused before anything is sent (refusal.ts); a 409 from a create that raced another client says the same.
 * - A name is unique in its branch, and it was free just before: a create whose response was lost (kind `ambiguous`)
 *   is settled by reading the role back, inside the project lock (the client's `recover`, which then waits for the
 *   branch's operations). Found: it is this create's, and its password, which only the lost answer carried, is read
 *   with reveal_password. Not found: the create is sent again (a few times: shared/lifecycle.ts createSettled).
 * - A role that exists but whose operations failed or timed out is reported with its id (ResourceInitError), with
 *   its password read back, so the engine keeps it in state and nothing is orphaned.
 */
import { warn } from "../shared/diagnostics";
import { createdIdOf, errorKind, found, OUTCOME_UNKNOWN } from "../shared/errors";
import { createSettled, recordedAsItIs } from "../shared/lifecycle";

import { client } from "../shared/runtime";
import { RESET_ADVICE, RoleAddress, roleAddressOf, roleId } from "./address";
import { cannotLogIn, toCreateBody, toOutputs } from "./declaration";
import { alreadyOnBranch } from "./refusal";

type Props = Record<string, unknown>;

export async function createRole(inputs: Props): Promise<{ id: string; outs: Props }> {
  const address = roleAddressOf(inputs);
  const { projectId, branchId, name } = address;
  const existing = await client().roles.list(projectId, branchId);
  if (existing.some((role) => role.name === name)) throw alreadyOnBranch(address);
  const recover = () => found(() => client().roles.get(projectId, branchId, name));
  try {
    const send = () => client().roles.create(projectId, branchId, toCreateBody(inputs), { recover });
    const { role } = await createSettled(send);
    // A role found after a lost answer comes without the password that only the answer carried.
    const password = role.password ?? (await recoverPassword(address, inputs));
    return { id: roleId(address), outs: toOutputs(role, inputs, password) };
  } catch (error) {
    const kind = errorKind(error);
    if (kind === "conflict") throw alreadyOnBranch(address, error);
    if (kind !== undefined && OUTCOME_UNKNOWN.has(kind) && createdIdOf(error) !== undefined)
      throw await madeButNotReady(address, inputs, error);
    throw error;
  }
}

/**
 * The password of a role whose create answer was lost, read with reveal_password; undefined (with a warning saying
 * how to get one) when the service does not reveal it.
 */
export async function recoverPassword(address: RoleAddress, inputs: Props): Promise<string | undefined> {
  if (cannotLogIn(inputs)) return undefined;
  try {
    return await client().roles.revealPassword(address.projectId, address.branchId, address.name);
  } catch (error) {
    warn(
      `role ${address.name} of branch ${address.branchId} was created, but its password could not be read back ` +
        `(${(error as Error).message}), so the password output is empty: ${RESET_ADVICE}`,
    );
    return undefined;
  }
}

/**
 * The role exists but its operations failed or timed out: kept in state with what can be read of it (the inputs, when
 * it cannot be read; a role that turns out not to be there keeps the error as it is).
 */
function madeButNotReady(address: RoleAddress, inputs: Props, error: unknown): Promise<unknown> {
  return recordedAsItIs(roleId(address), inputs, error, {
    read: async () => {
      const role = await found(() => client().roles.get(address.projectId, address.branchId, address.name));
      return role && toOutputs(role, inputs, await recoverPassword(address, inputs));
    },
    unread: { ...inputs, noLogin: inputs.noLogin === true },
  });
}
