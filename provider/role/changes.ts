/**
 * Role's changes: creating one, resetting its password, and reading the password when it can have changed.
 *
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
 *
 * Updating a role in place: the one change a role takes is a password reset (new passwordTriggers); anything else
 * replaces it (the plan: declaration.ts). The new password is recorded from the reset's answer.
 *
 * - A reset whose answer was lost (kind `ambiguous`) is settled by reading the password (reveal_password) once the
 *   branch's operations are done (before, the service may still show the old one): one that differs from the
 *   recorded one means the reset was applied, and it is the new password; the same one means it was not, and the
 *   reset is sent again (a few times). A reset is never resent blindly.
 * - A reset applied whose operations failed or timed out is kept in state (ResourceInitError) with the password as the
 *   service now reveals it and the OLD triggers, so that the next `up` resets again rather than seeing no change.
 *
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
import * as adoption from "../shared/adoption";
import { warn } from "../shared/diagnostics";
import { createdIdOf, errorKind, found, OUTCOME_UNKNOWN, ResourceInitError } from "../shared/errors";
import { createSettled, recordedAsItIs } from "../shared/lifecycle";
import { client } from "../shared/runtime";
import {
  RESET_ADVICE,
  RoleAddress,
  roleAddressOf,
  roleId,
  cannotLogIn,
  toCreateBody,
  toOutputs,
  recordedOutputs,
  planRoleChange,
} from "./declaration";
import { alreadyOnBranch } from "./refusal";

type Props = Record<string, unknown>;

export async function createRole(inputs: Props): Promise<{ id: string; outs: Props }> {
  if (typeof inputs.adoptId === "string") return adoptRole(inputs);
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

/** How adoption's messages speak of a role (shared/adoption.ts). */
const ADOPTABLE: adoption.Adoptable = {
  type: "Role",
  kind: "role",
  adopting: () =>
    "nothing is created or changed: its password is read back (a role that cannot log in, or a noLogin that differs " +
    "from the program's, is refused)",
};

/**
 * Takes the branch's role `inputs.adoptId` (its id: Check made sure it is this Role's own address) under management:
 * nothing is sent but reads; its password is read back. A role whose `noLogin` differs cannot change in place.
 */
async function adoptRole(inputs: Props): Promise<{ id: string; outs: Props }> {
  const address = roleAddressOf(inputs);
  const { projectId, branchId, name } = address;
  const id = roleId(address);
  const read = () => client().roles.get(projectId, branchId, name);
  const role = await adoption.readForAdoption(ADOPTABLE, projectId, id, read);
  const noLogin = role.authentication_method === "no_login";
  if (role.authentication_method !== undefined && noLogin !== (inputs.noLogin === true)) {
    const why = `noLogin is ${String(noLogin)} on the service`;
    throw adoption.cannotAdopt(ADOPTABLE, id, why, "a role's login cannot change in place; set noLogin to match");
  }
  return { id, outs: toOutputs(role, inputs, await recoverPassword(address, inputs)) };
}

/** What Check says about `adoptId` (shared/adoption.ts). */
export const adoptionWarnings = (olds: Props, news: Props): string[] =>
  adoption.adoptionWarnings(ADOPTABLE, olds, news);

/** Why Delete leaves the role `id` on the service, or undefined to delete it (shared/adoption.ts). */
export const keptOnDelete = (id: string, props: Props): string | undefined =>
  adoption.keptAdopted(ADOPTABLE, id, `Role ${String(props.name)}`, props);

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
