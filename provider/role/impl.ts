/**
 * Role's provider implementation, loaded by the serialized provider at call time (resource.ts), so that roles already
 * in state run the installed version of this code. Every change goes through the client's project lock (the SDK
 * serializes a project's changes and waits for their operations), shared with every other resource of the process.
 *
 * The preview's warnings of a Role's planned change (the plan: declaration.ts): what a replacement, a reset and a
 * create drop. Pure: no API call, no credentials.
 */
import type * as pulumi from "@pulumi/pulumi";
import { RoleAddress, roleAddressOf, planRoleChange, ROLE, toOutputs, RolePlan } from "./declaration";
import { adoptionWarnings, createRole, keptOnDelete, passwordNow, updateRole } from "./changes";
import { checkOf } from "../shared/check";
import { databasesStillOwned, explainDeleteRefused, ownsDatabases, ownsKeptDatabases } from "./refusal";
import { wasKeptDatabase } from "../shared/adoption";
import { errorKind } from "../shared/errors";
import { Situation, withHints } from "../shared/hints";
import { nameToWrite, readOurs, recordedIn, Target } from "../shared/identity";
import { deleteUnlessGone, explainGone, ProjectObject, projectAnswers, readOrGone } from "../shared/lifecycle";
import { refuseDeleteOnProtectedBranch } from "../shared/protected-branch";
import { client, CheckedInputs } from "../shared/runtime";
import { warn } from "../shared/diagnostics";
import type { DiffAnswer } from "../shared/diff-answer";
import { branchConnectionsDrop, isNewBranch, shown } from "../shared/connections";

type Props = Record<string, unknown>;

/** The inputs this process checked: only a Diff of checked inputs warns (shared/runtime.ts). */
const checked = new CheckedInputs();

export { configureProvider as configure } from "../shared/runtime";

/**
 * A create (no old inputs) warns that the branch's connections drop, unless the branch is new (`createWarning`). The
 * engine checks a replacement's inputs once more with no old inputs (step_generator.go: "we need to recompute the
 * default values"); this process has checked those inputs already and its Diff has warned of the replacement, so that
 * check warns of nothing.
 */
export const check = checkOf(ROLE, checked, {
  warnings: (olds, news, first) =>
    first ? [...adoptionWarnings(olds, news), Object.keys(olds).length === 0 ? createWarning(news) : undefined] : [],
});

/** Pure: replace or reset, from the old outputs and the new inputs; warns of what a planned change drops. */
export async function diff(id: string, olds: Props, news: Props): Promise<DiffAnswer> {
  const plan = planRoleChange(olds, news);
  if (checked.has(news)) {
    if (plan.replaces.length > 0 && typeof olds.adoptId === "string" && olds.adoptId === news.adoptId)
      throw adoptedNotReplaced(id, olds, plan);
    // A replacement that deletes first says that connections drop in its own warning.
    const created =
      plan.replaces.length > 0 && !plan.deleteBeforeReplace ? createWarning(news, { id, plan }) : undefined;
    for (const warning of [resetWarning(id, olds, plan), deleteFirstWarning(id, olds, plan), created])
      if (warning) warn(warning);
  }
  const { changes, replaces, deleteBeforeReplace, changed: diffs } = plan;
  return { changes, replaces, deleteBeforeReplace, diffs };
}

/**
 * A replacement of an adopted role (its noLogin changed: Check keeps its address equal to adoptId) would adopt the same
 * role again, whose login cannot change: refused at preview, before the delete-first step is planned.
 */
function adoptedNotReplaced(id: string, olds: Props, plan: RolePlan): Error {
  return new Error(
    `Role ${String(olds.name)} (${id}) is adopted (adoptId): ${plan.replaces.join(", ")} changed, which replaces a ` +
      `role, and the replacement would adopt this same role again, whose login cannot change. Nothing was changed. ` +
      `Set ${plan.replaces.join(", ")} back; for a role that logs in otherwise, declare a new Role with another name.`,
  );
}

/** What a refusal's advice depends on: the role's project and branch. */
const inInputs = (inputs: Props): Situation => ({
  op: "role",
  projectId: String(inputs.projectId),
  branchId: String(inputs.branchId),
});
const inState = (id: string, props: Props, ..._news: unknown[]): Situation => {
  const { projectId, branchId } = roleAddressOf(props, id);
  return { op: "role", projectId, branchId };
};

/** How the lifecycle's messages name a role (shared/lifecycle.ts). */
const roleOf = ({ projectId, branchId, name }: RoleAddress): ProjectObject => ({
  kind: "role",
  label: `Role ${name}`,
  projectId,
  branchId,
  docs: ROLE.docs,
});

/** The role as its state records it, for the identity check before a write (shared/identity.ts): no id, its creation time. */
function roleTarget(id: string, props: Props): Target<"role"> {
  const { projectId, branchId, name } = roleAddressOf(props, id);
  return { kind: "role", label: `Role ${name}`, address: { projectId, branchId }, name, recorded: recordedIn(props) };
}

export const create = withHints(inInputs, async (inputs: Props): Promise<pulumi.dynamic.CreateResult> =>
  createRole(inputs),
);

/**
 * Refresh: the role as it is now; one deleted outside Pulumi (its project answering) leaves the state. The password
 * (read with reveal_password) when it can have changed: the state has none, or the role's updated_at moved (a reset
 * outside Pulumi, a branch reset); else kept from state, with no request (passwords.ts). No inputs are returned: a
 * role has nothing that can change on the service but its existence and its password.
 */
export const read = withHints(inState, (id: string, props: Props): Promise<pulumi.dynamic.ReadResult> =>
  readOrGone(async () => {
    const address = roleAddressOf(props, id);
    const role = await readOurs(roleTarget(id, props)); // undefined: gone, its project answering
    if (role === undefined) return undefined;
    const outs = toOutputs(role, { ...props, projectId: address.projectId }, undefined);
    const password = await passwordNow(address, props, outs);
    if (password !== undefined) outs.password = password;
    return { id, props: outs };
  }),
);

export const update = withHints(
  inState,
  async (id: string, olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult> => {
    if (planRoleChange(olds, news).reset) await nameToWrite(roleTarget(id, olds), "change");
    try {
      return { outs: await updateRole(id, olds, news) };
    } catch (error) {
      throw await explainGone(error, roleOf(roleAddressOf(olds, id)));
    }
  },
);

/**
 * Deletes and waits, unless the state's adoptId names the role (left, with a warning: shared/adoption.ts); a role
 * already gone is fine (once its project answers). A delete whose outcome is unknown is read
 * back by the client and only then sent again. Refused because the role owns a database: when that database is being
 * deleted (by this `up`, in parallel: a Database whose ownerName is a plain string), the delete waits for it and is
 * sent again (owned.ts); else the refusal names the databases.
 */
export const deleteRole = withHints(inState, async (id: string, props: Props): Promise<void> => {
  const kept = keptOnDelete(id, props);
  if (kept) return warn(kept);
  const address = roleAddressOf(props, id);
  await refuseDeleteOnProtectedBranch(`role ${address.name}`, props);
  if ((await nameToWrite(roleTarget(id, props), "delete")) === undefined) return;
  try {
    await sendDelete(address);
  } catch (error) {
    if (!refused(error)) throw error;
    const owned = await databasesStillOwned(address);
    if (owned === undefined) throw error;
    if (owned.length > 0 && owned.every((name) => wasKeptDatabase(address.projectId, address.branchId, name)))
      return warn(ownsKeptDatabases(address, owned));
    if (owned.length > 0) throw ownsDatabases(address, owned, error);
    try {
      await sendDelete(address);
    } catch (again) {
      if (!refused(again)) throw again;
      throw (await explainDeleteRefused(address, again)) ?? again;
    }
  }
});

/** A refusal by the role's state (Neon: it owns a database): the DELETE was not applied, so it may be sent again. */
const refused = (error: unknown): boolean => ["validation", "conflict"].includes(errorKind(error) ?? "");

/** One DELETE (resent only once read back as not applied); a role not there is fine once its project answers. */
function sendDelete(address: RoleAddress): Promise<void> {
  const { projectId, branchId, name } = address;
  const remove = async () => (await client().roles.delete(projectId, branchId, name)).role !== undefined;
  return deleteUnlessGone(remove, () => projectAnswers(roleOf(address)));
}

/**
 * The preview's warning for a replacement that deletes the old role first (only `noLogin` changed: the new role takes
 * its name): its connections drop, and Neon refuses to delete a role that owns a database, which the plugin cannot see
 * offline. Undefined for any other plan.
 */
export function deleteFirstWarning(id: string, olds: Record<string, unknown>, plan: RolePlan): string | undefined {
  if (!plan.deleteBeforeReplace) return undefined;
  return (
    `Role ${String(olds.name)} of branch ${String(olds.branchId)} (${id}) will be replaced (${plan.replaces.join(", ")} ` +
    `changed), the old role deleted first since the new one takes its name: its connections drop, and a role that ` +
    `owns a database cannot be deleted (Neon refuses): give such a database another owner (its ownerName) first.`
  );
}

/**
 * The preview's warning for a password reset, undefined when there is none. It names the property, never a value
 * (the plugin cannot know which values were secrets), and says what breaks: the branch's open connections (OpenAPI
 * `resetProjectBranchRolePassword`), and whoever still uses the old password.
 */
export function resetWarning(id: string, olds: Record<string, unknown>, plan: RolePlan): string | undefined {
  if (!plan.reset) return undefined;
  return branchConnectionsDrop(
    `Role ${String(olds.name)} of branch ${String(olds.branchId)} (${id}) will get a new password (passwordTriggers changed)`,
    olds.branchId,
    `; clients still using the old password fail once the reset is in force: give them the new password output`,
  );
}

/**
 * The preview's warning for a role to be created (a create, or a replacement's new role: `replaced` names the old one
 * and the plan): creating a role drops the branch's open connections (OpenAPI `createProjectBranchRole`). None for a
 * branch this update creates: its id is unknown in the preview, and nothing is connected to it yet (connections.ts).
 */
export function createWarning(
  news: Record<string, unknown>,
  replaced?: { id: string; plan: RolePlan },
): string | undefined {
  if (isNewBranch(news.branchId) || typeof news.adoptId === "string") return undefined; // an adoption creates nothing
  const replacing = replaced ? ` (replacing ${replaced.id}: ${replaced.plan.replaces.join(", ")} changed)` : "";
  return branchConnectionsDrop(
    `Role ${shown(news.name)} of branch ${shown(news.branchId)} will be created${replacing}`,
    news.branchId,
  );
}
