/**
 * ApiKey's provider implementation, loaded by the serialized provider at call time (see api-key.ts).
 *
 * The secret exists only in the create response. A create whose response was lost cannot be settled by reading:
 * a key carries nothing unique to one attempt (its name is the user's, shared by other stacks and people), so a key
 * of that name that appeared meanwhile may be someone else's working key. Such keys are never revoked: the create is
 * sent again, and the ids of the keys that may be unused are reported for the user to check and revoke.
 */
import type * as pulumi from "@pulumi/pulumi";
import { checkApiKeyInputs, planApiKeyChange } from "./api-key-check";
import { warn } from "./diagnostics";
import { errorKind, resendWhileUnknown, withHints } from "./errors";
import { client, configure as configureRuntime } from "./runtime";

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

/** Creates the key; after lost responses, sends again and names the keys that may have been made unseen. */
export const create = withHints(async (inputs: Props): Promise<pulumi.dynamic.CreateResult> => {
  const keyName = String(inputs.keyName);
  const lostSince: number[] = [];
  for (let attempt = 1; ; attempt++) {
    const sentAt = Date.now();
    try {
      const created = await client().apiKeys.create({ key_name: keyName });
      if (lostSince.length > 0) await reportUnseenKeys(keyName, lostSince[0], created.id);
      const outs = {
        keyId: created.id,
        key: created.key,
        keyName,
        createdAt: created.created_at,
        lastUsedAt: null,
        lastUsedFromAddr: null,
      };
      return { id: String(created.id), outs };
    } catch (error) {
      if (errorKind(error) !== "ambiguous" || attempt >= CREATE_ATTEMPTS) throw error;
      lostSince.push(sentAt);
    }
  }
});

/**
 * Warns with the ids of keys named `keyName` created since the first lost attempt, other than the one handed out:
 * one of them may be the key a lost response carried (its secret was never seen), or another stack's key.
 */
async function reportUnseenKeys(keyName: string, since: number, keptId: number): Promise<void> {
  const keys = await client()
    .apiKeys.list()
    .catch(() => undefined);
  const suspects = keys?.filter(
    (key) => key.name === keyName && key.id !== keptId && Date.parse(key.created_at) >= since - CLOCK_SKEW_MS,
  );
  const which = suspects === undefined ? "(the key list could not be read)" : suspects.map((k) => k.id).join(", ");
  if (suspects?.length === 0) return;
  warn(
    `API key ${keptId} was created after an earlier attempt lost its response, so the service may hold an unused ` +
      `key of the same name whose secret nobody saw. Keys of that name created since then: ${which}. None was ` +
      `revoked: if no stack or person of yours uses one of them, revoke it in the Neon console.`,
  );
}

/** Refresh: reads the key back by id (never by name); a revoked or vanished key leaves state. */
export const read = withHints(async (id: string, props: Props): Promise<pulumi.dynamic.ReadResult> => {
  const key = (await client().apiKeys.list()).find((candidate) => String(candidate.id) === id);
  if (!key) return { id: "", props: {} };
  const outs = {
    ...props,
    keyId: key.id,
    keyName: key.name,
    createdAt: key.created_at,
    lastUsedAt: key.last_used_at ?? null,
    lastUsedFromAddr: key.last_used_from_addr ?? null,
  };
  return { id, props: outs, inputs: { keyName: key.name } };
});

/** Nothing of a key changes in place (a new name replaces it); keeps the outputs as they are. */
export async function update(_id: string, olds: Props): Promise<pulumi.dynamic.UpdateResult> {
  return { outs: olds };
}

/** Revokes the key; a key already revoked or gone is fine. */
export const deleteKey = withHints(async (id: string): Promise<void> => {
  await revokeKey(Number(id));
});

/**
 * Revokes a key; one already revoked or gone is fine. A revoke whose outcome is unknown is read back (the key
 * still listed → sent again), a few times, so that a run of lost responses neither fails the step nor leaves a
 * key nobody holds.
 */
async function revokeKey(id: number): Promise<void> {
  const revoke = async () => {
    try {
      await client().apiKeys.revoke(id);
    } catch (error) {
      if (errorKind(error) !== "not_found") throw error;
    }
  };
  await resendWhileUnknown(revoke, async () => !(await client().apiKeys.list()).some((key) => key.id === id));
}
