/**
 * Creating an ApiKey: never a key left behind that nobody can account for.
 *
 * - The secret exists only in the create response. A create whose response was lost cannot be settled by reading: a
 *   key carries nothing unique to one attempt (its name is the user's, shared by other stacks and people), so a key
 *   of that name that appeared meanwhile may be someone else's working key. Such keys are never revoked: the create is
 *   sent again (shared/lifecycle.ts createSettled, with nothing to find), and the ids of the keys that may be unused
 *   are named, in a warning when an attempt succeeded, in the error when none did.
 * - A project-scoped key is checked against what the service answered (as Neon's CLI does with the keys it mints): one
 *   the service says is limited to another scope (another project, or none) is revoked at once and the create fails,
 *   so that no key reaching more than the program asked for is left behind. The `projectId` output is the service's
 *   answer; the declared one is recorded apart (declaration.ts, DECLARED_PROJECT_ID).
 */
import { DECLARED_PROJECT_ID } from "./declaration";
import { CreatedKey, declaredInputs, KeyRoutes, KeyScope, keyRoutes, revokeKey, scopeOf } from "./routes";
import { warn } from "../shared/diagnostics";
import { errorKind } from "../shared/errors";
import { createSettled } from "../shared/lifecycle";

type Props = Record<string, unknown>;

/** How far the service's clock may lag ours when listing keys a lost create may have made. */
const CLOCK_SKEW_MS = 30_000;

/** Creates the key in its list and checks its scope; returns its id and outputs. */
export async function createKey(inputs: Props): Promise<{ id: string; outs: Props }> {
  const keyName = String(inputs.keyName);
  const scope = scopeOf(inputs);
  const routes = keyRoutes(scope);
  const { created, lostSince } = await sendCreate(routes, scope, keyName);
  if (lostSince !== undefined) await reportUnseenKeys(routes, scope, keyName, lostSince, created.id);
  const projectId = await confirmScope(routes, scope, created);
  return { id: String(created.id), outs: createdOutputs(keyName, scope, created, projectId) };
}

/** Sends the create, again after a lost response; a failure after lost responses names the keys they may have made. */
async function sendCreate(
  routes: KeyRoutes,
  scope: KeyScope,
  keyName: string,
): Promise<{ created: CreatedKey; lostSince?: number }> {
  let lostSince: number | undefined;
  const send = async () => {
    const sentAt = Date.now();
    return routes.create(keyName).catch((error: unknown) => {
      if (errorKind(error) === "ambiguous") lostSince ??= sentAt;
      throw error;
    });
  };
  try {
    return { created: await createSettled(send), lostSince };
  } catch (error) {
    if (lostSince === undefined) throw error;
    const unseen = await unseenKeys(routes, scope, keyName, lostSince);
    throw new Error(`${(error as Error).message}. ${unseenSentence(scope, unseen, "error")}`, { cause: error });
  }
}

/** The outputs of a new key: `projectId` as the service answered, the declared one recorded apart. */
function createdOutputs(keyName: string, scope: KeyScope, created: CreatedKey, projectId: string | null): Props {
  return {
    ...declaredInputs(keyName, scope),
    keyId: created.id,
    key: created.key,
    createdAt: created.created_at,
    lastUsedAt: null,
    lastUsedFromAddr: null,
    projectId,
    [DECLARED_PROJECT_ID]: scope.projectId ?? null,
  };
}

/**
 * Ids of the keys named `keyName` of this scope created since `since` (other than `keptId`); undefined when the list
 * cannot be read. A key whose listing does not say its project counts: it may be of this scope.
 */
async function unseenKeys(
  routes: KeyRoutes,
  scope: KeyScope,
  keyName: string,
  since: number,
  keptId?: number,
): Promise<number[] | undefined> {
  const keys = await routes.list().catch(() => undefined);
  return keys
    ?.filter(
      (key) =>
        key.name === keyName &&
        key.id !== keptId &&
        (key.project_id === undefined || (key.project_id ?? undefined) === scope.projectId) &&
        Date.parse(key.created_at) >= since - CLOCK_SKEW_MS,
    )
    .map((key) => key.id);
}

/** What the user should know of keys an attempt whose response was lost may have made: a warning, or an error's end. */
function unseenSentence(scope: KeyScope, ids: number[] | undefined, as: "warning" | "error"): string {
  const where = scope.orgId === undefined ? "" : ` of organization ${scope.orgId}`;
  const which = ids === undefined ? "(the key list could not be read)" : ids.join(", ") || "none";
  const lost =
    as === "error"
      ? `Every attempt of this create lost its response, so the service may hold unused keys`
      : `An earlier attempt of this create lost its response, so the service may hold an unused key`;
  return (
    `${lost} of the same name whose secret nobody saw. Keys${where} of that name created since the first attempt: ` +
    `${which}. None was revoked: if no stack or person of yours uses one of them, revoke it in the Neon console.`
  );
}

/** Warns with the ids of keys an earlier, lost attempt may have made, other than the one handed out. */
async function reportUnseenKeys(
  routes: KeyRoutes,
  scope: KeyScope,
  keyName: string,
  since: number,
  keptId: number,
): Promise<void> {
  const ids = await unseenKeys(routes, scope, keyName, since, keptId);
  if (ids?.length === 0) return;
  warn(`API key ${keptId} was created. ${unseenSentence(scope, ids, "warning")}`);
}

/**
 * The project the service says the new key is limited to (null: none). For a project-scoped key: the create
 * response's `project_id`; when the response leaves it out (the contract makes it optional), the key's list's; when
 * neither says, null with a warning. A key the service says is limited to another scope is revoked (refuseScope).
 */
async function confirmScope(routes: KeyRoutes, scope: KeyScope, created: CreatedKey): Promise<string | null> {
  if (scope.projectId === undefined) return created.project_id ?? null;
  const answered = created.project_id !== undefined ? created.project_id : await listedScope(routes, created.id);
  if (answered === undefined) {
    warn(unconfirmedScope(scope, created.id));
    return null;
  }
  if (answered !== scope.projectId) await refuseScope(routes, scope, created.id, answered);
  return answered;
}

/** The key's `project_id` as its list shows it; undefined when the list does not say (or cannot be read). */
async function listedScope(routes: KeyRoutes, id: number): Promise<string | null | undefined> {
  const keys = await routes.list().catch(() => undefined);
  return keys?.find((key) => key.id === id)?.project_id;
}

function unconfirmedScope(scope: KeyScope, id: number): string {
  return (
    `API key ${id} was created for project ${scope.projectId} of organization ${scope.orgId}, but the service did ` +
    `not say which project it is limited to (no project_id in the create response nor in the key list), so its ` +
    `projectId output is null. Check it in the Neon console (organization settings, API keys): if it is not limited ` +
    `to that project, it reaches every project of the organization; revoke it there, then run pulumi refresh and ` +
    `pulumi up to make a new one.`
  );
}

/** Revokes a new key the service says is limited to another scope than asked, and fails naming what it answered. */
async function refuseScope(routes: KeyRoutes, scope: KeyScope, id: number, answered: string | null): Promise<never> {
  const said = answered === null ? "not limited to a project (project_id null)" : `limited to project ${answered}`;
  const what =
    `API key ${id} was created for project ${scope.projectId} of organization ${scope.orgId}, but the service ` +
    `answered that it is ${said}`;
  try {
    await revokeKey(routes, id);
  } catch (error) {
    throw new Error(
      `${what}. It could NOT be revoked (${(error as Error).message}) and may reach more than asked: revoke key ` +
        `${id} of organization ${scope.orgId} in the Neon console.`,
      { cause: error },
    );
  }
  throw new Error(
    `${what}. It was revoked at once, so that no key reaching more than asked is left behind; nothing was kept. ` +
      `Check that project ${scope.projectId} belongs to organization ${scope.orgId}; if the service answers so ` +
      `again, create the key in the Neon console.`,
  );
}
