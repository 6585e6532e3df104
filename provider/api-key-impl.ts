/**
 * ApiKey's provider implementation, loaded by the serialized provider at call time (see api-key.ts).
 *
 * The secret exists only in the create response. So a create whose response was lost is resolved by
 * reading: keys of that name made since we sent are revoked (nobody saw their secret) before a new one is
 * made. Key creation is serialized within the process so that this never touches another resource's key.
 */
import type * as pulumi from "@pulumi/pulumi";
import { checkApiKeyInputs, planApiKeyChange } from "./api-key-check";
import { errorKind, resendWhileUnknown } from "./errors";
import { client, configure as configureRuntime } from "./runtime";

type Props = Record<string, unknown>;
const CLOCK_SKEW_MS = 30_000;

/** Key ids this process created: never revoked as someone's lost create. */
const claimed = new Set<number>();
let creating: Promise<unknown> = Promise.resolve();

export async function configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
  configureRuntime(req.config);
}

export async function check(_olds: Props, news: Props): Promise<pulumi.dynamic.CheckResult> {
  return { inputs: news, failures: checkApiKeyInputs(news) };
}

export async function diff(_id: string, olds: Props, news: Props): Promise<pulumi.dynamic.DiffResult> {
  return planApiKeyChange(olds, news);
}

/** Creates the key; one at a time per process (see the module comment). */
export function create(inputs: Props): Promise<pulumi.dynamic.CreateResult> {
  const result = creating.then(() => createKey(String(inputs.keyName)));
  creating = result.catch(() => undefined);
  return result;
}

async function createKey(keyName: string, attempt = 1): Promise<pulumi.dynamic.CreateResult> {
  const sentAt = Date.now();
  try {
    const created = await client().apiKeys.create({ key_name: keyName });
    claimed.add(created.id);
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
    if (errorKind(error) !== "ambiguous" || attempt >= 3) throw error;
    await revokeUnseenKeys(keyName, sentAt);
    return createKey(keyName, attempt + 1);
  }
}

/** Revokes keys named `keyName` created since `sentAt` that this process never handed out. */
async function revokeUnseenKeys(keyName: string, sentAt: number): Promise<void> {
  const keys = await client().apiKeys.list();
  const unseen = keys.filter(
    (key) => key.name === keyName && !claimed.has(key.id) && Date.parse(key.created_at) >= sentAt - CLOCK_SKEW_MS,
  );
  for (const key of unseen) await revokeKey(key.id);
}

/** Refresh: reads the key back by id (never by name); a revoked or vanished key leaves state. */
export async function read(id: string, props: Props): Promise<pulumi.dynamic.ReadResult> {
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
}

/** Nothing of a key changes in place (a new name replaces it); keeps the outputs as they are. */
export async function update(_id: string, olds: Props): Promise<pulumi.dynamic.UpdateResult> {
  return { outs: olds };
}

/** Revokes the key; a key already revoked or gone is fine. */
export async function deleteKey(id: string): Promise<void> {
  await revokeKey(Number(id));
}

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
