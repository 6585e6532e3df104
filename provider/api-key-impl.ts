/**
 * ApiKey's provider implementation, loaded by the serialized provider at call time (see api-key.ts). Personal,
 * organization and project-scoped keys differ only in the list and routes they live in (api-key-routes.ts).
 *
 * The secret exists only in the create response. A create whose response was lost cannot be settled by reading:
 * a key carries nothing unique to one attempt (its name is the user's, shared by other stacks and people), so a key
 * of that name that appeared meanwhile may be someone else's working key. Such keys are never revoked: the create is
 * sent again, and the ids of the keys that may be unused are reported for the user to check and revoke.
 */
import type * as pulumi from "@pulumi/pulumi";
import { checkApiKeyInputs, planApiKeyChange } from "./api-key-check";
import { CreatedKey, declaredInputs, KeyRoutes, KeyScope, keyRoutes, scopeOf } from "./api-key-routes";
import { warn } from "./diagnostics";
import { errorKind, resendWhileUnknown, withHints } from "./errors";
import { configure as configureRuntime } from "./runtime";

type Props = Record<string, unknown>;

/** How far the service's clock may lag ours when listing keys a lost create may have made. */
const CLOCK_SKEW_MS = 30_000;
/** Creates sent for one key whose responses were lost, before the step fails. */
const CREATE_ATTEMPTS = 3;

export async function configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
  configureRuntime(req.config);
}

export async function check(_olds: Props, news: Props): Promise<pulumi.dynamic.CheckResult> {
  return { inputs: news, failures: checkApiKeyInputs(news) };
}

export async function diff(_id: string, olds: Props, news: Props): Promise<pulumi.dynamic.DiffResult> {
  return planApiKeyChange(olds, news);
}

/** Creates the key in its list; after lost responses, sends again and names the keys that may have been made unseen. */
export const create = withHints(async (inputs: Props): Promise<pulumi.dynamic.CreateResult> => {
  const keyName = String(inputs.keyName);
  const scope = scopeOf(inputs);
  const routes = keyRoutes(scope);
  const lostSince: number[] = [];
  for (let attempt = 1; ; attempt++) {
    const sentAt = Date.now();
    try {
      const created = await routes.create(keyName);
      if (lostSince.length > 0) await reportUnseenKeys(routes, scope, keyName, lostSince[0], created.id);
      return { id: String(created.id), outs: createdOutputs(keyName, scope, created) };
    } catch (error) {
      if (errorKind(error) !== "ambiguous" || attempt >= CREATE_ATTEMPTS) throw error;
      lostSince.push(sentAt);
    }
  }
});

/** The outputs of a new key: `projectId` as the service answered (else as asked), null when not limited to one. */
function createdOutputs(keyName: string, scope: KeyScope, created: CreatedKey): Props {
  return {
    ...declaredInputs(keyName, scope),
    keyId: created.id,
    key: created.key,
    createdAt: created.created_at,
    lastUsedAt: null,
    lastUsedFromAddr: null,
    projectId: created.project_id ?? scope.projectId ?? null,
  };
}

/**
 * Warns with the ids of keys named `keyName`, of the same scope, created since the first lost attempt, other than the
 * one handed out: one of them may be the key a lost response carried (its secret was never seen), or another stack's.
 */
async function reportUnseenKeys(
  routes: KeyRoutes,
  scope: KeyScope,
  keyName: string,
  since: number,
  keptId: number,
): Promise<void> {
  const keys = await routes.list().catch(() => undefined);
  const suspects = keys?.filter(
    (key) =>
      key.name === keyName &&
      key.id !== keptId &&
      (key.project_id ?? undefined) === scope.projectId &&
      Date.parse(key.created_at) >= since - CLOCK_SKEW_MS,
  );
  const which = suspects === undefined ? "(the key list could not be read)" : suspects.map((k) => k.id).join(", ");
  if (suspects?.length === 0) return;
  const where = scope.orgId === undefined ? "" : ` of organization ${scope.orgId}`;
  warn(
    `API key ${keptId} was created after an earlier attempt lost its response, so the service may hold an unused ` +
      `key of the same name whose secret nobody saw. Keys${where} of that name created since then: ${which}. None ` +
      `was revoked: if no stack or person of yours uses one of them, revoke it in the Neon console.`,
  );
}

/** Refresh: reads the key back by id (never by name) in its own list; a revoked or vanished key leaves state. */
export const read = withHints(async (id: string, props: Props): Promise<pulumi.dynamic.ReadResult> => {
  const scope = scopeOf(props);
  const key = (await keyRoutes(scope).list()).find((candidate) => String(candidate.id) === id);
  if (!key) return { id: "", props: {} };
  const outs = {
    ...props,
    keyId: key.id,
    keyName: key.name,
    createdAt: key.created_at,
    lastUsedAt: key.last_used_at ?? null,
    lastUsedFromAddr: key.last_used_from_addr ?? null,
    projectId: key.project_id ?? scope.projectId ?? null,
  };
  return { id, props: outs, inputs: declaredInputs(key.name, scope) };
});

/** Nothing of a key changes in place (a new name or scope replaces it); keeps the outputs as they are. */
export async function update(_id: string, olds: Props): Promise<pulumi.dynamic.UpdateResult> {
  return { outs: olds };
}

/** Revokes the key in its own list; a key already revoked or gone is fine. (No props: state of an older version.) */
export const deleteKey = withHints(async (id: string, props: Props = {}): Promise<void> => {
  await revokeKey(keyRoutes(scopeOf(props)), Number(id));
});

/**
 * A revoke answered 404 means the key is gone only if the key's list still answers: an organization answers 404 to an
 * account that is not (or no longer) its member, and taking that for "revoked" would report as destroyed a key that
 * still works.
 */
async function confirmGone(routes: KeyRoutes, id: number, refusal: unknown): Promise<void> {
  try {
    await routes.list();
  } catch (error) {
    if (errorKind(error) !== "not_found") throw error;
    throw new Error(
      `API key ${id} could not be revoked: ${(refusal as Error).message}; its list answers 404 too, so neon:apiKey ` +
        `does not reach it (an account that is not a member of the key's organization, or the organization is ` +
        `gone). Nothing was changed: revoke it with a member's personal key, or in the Neon console.`,
      { cause: error },
    );
  }
}

/**
 * Revokes a key; one already revoked or gone is fine. A revoke whose outcome is unknown is read back (the key
 * still listed → sent again), a few times, so that a run of lost responses neither fails the step nor leaves a
 * key nobody holds.
 */
async function revokeKey(routes: KeyRoutes, id: number): Promise<void> {
  const revoke = async () => {
    try {
      await routes.revoke(id);
    } catch (error) {
      if (errorKind(error) !== "not_found") throw error;
      await confirmGone(routes, id, error);
    }
  };
  await resendWhileUnknown(revoke, async () => !(await routes.list()).some((key) => key.id === id));
}
