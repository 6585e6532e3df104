/**
 * ApiKey's provider implementation, loaded by the serialized provider at call time (resource.ts). Personal,
 * organization and project-scoped keys differ only in the list and routes they live in (routes.ts); creating
 * one, with lost responses and answers of another scope, is create.ts.
 */
import type * as pulumi from "@pulumi/pulumi";
import { API_KEY, DECLARED_PROJECT_ID, planApiKeyChange } from "./declaration";
import { createKey } from "./create";
import { declaredInputs, KeyScope, keyRoutes, ListedKey, revokeKey, scopeOf } from "./routes";
import { checkOf } from "../shared/check";
import { warn } from "../shared/diagnostics";
import type { DiffAnswer } from "../shared/diff-answer";
import { Situation, withHints } from "../shared/hints";
import { readOrGone } from "../shared/lifecycle";

type Props = Record<string, unknown>;

export { configureProvider as configure } from "../shared/runtime";

export const check = checkOf(API_KEY, undefined);

export async function diff(_id: string, olds: Props, news: Props): Promise<DiffAnswer> {
  const plan = planApiKeyChange(olds, news);
  return { ...plan, diffs: plan.replaces }; // only a change of scope or name is a change: each replaces the key
}

/** What a refusal's advice depends on: the request (create, list, revoke) and the key's scope. */
const creating = (inputs: Props): Situation => ({ op: "key-create", ...scopeOf(inputs) });
const listing = (_id: string, props: Props): Situation => ({ op: "key-list", orgId: scopeOf(props).orgId });
const revoking = (_id: string, props: Props = {}): Situation => ({ op: "key-revoke", orgId: scopeOf(props).orgId });

/** Creates the key in its list (create.ts: lost responses, a scope other than asked). */
export const create = withHints(creating, async (inputs: Props): Promise<pulumi.dynamic.CreateResult> =>
  createKey(inputs),
);

/** Refresh: reads the key back by id (never by name) in its own list; a revoked or vanished key leaves state. */
export const read = withHints(listing, (id: string, props: Props): Promise<pulumi.dynamic.ReadResult> =>
  readOrGone(async () => {
    const scope = scopeOf(props);
    const key = (await keyRoutes(scope).list()).find((candidate) => String(candidate.id) === id);
    if (!key) return undefined; // its list answered without it: revoked
    const drift = scopeDrift(key, scope);
    if (drift) warn(drift);
    const outs = {
      ...props,
      keyId: key.id,
      keyName: key.name,
      createdAt: key.created_at,
      lastUsedAt: key.last_used_at ?? null,
      lastUsedFromAddr: key.last_used_from_addr ?? null,
      projectId: key.project_id ?? null,
      [DECLARED_PROJECT_ID]: scope.projectId ?? null,
    };
    return { id, props: outs, inputs: declaredInputs(key.name, scope) };
  }),
);

/**
 * A key declared for one project that its list shows limited to another scope (another project, or none: `project_id`
 * null; a list that leaves the field out says nothing). Refresh records the answer in the `projectId` output and does
 * not replace the key by itself: this says so, and how.
 */
function scopeDrift(key: ListedKey, scope: KeyScope): string | undefined {
  if (scope.projectId === undefined || key.project_id === undefined || key.project_id === scope.projectId) return;
  const said = key.project_id === null ? "not limited to a project" : `limited to project ${key.project_id}`;
  return (
    `API key ${key.id} was created for project ${scope.projectId}, but the service now lists it as ${said}. If it ` +
    `reaches more than that project, replace it: pulumi up --replace <the key's URN>.`
  );
}

/** Nothing of a key changes in place (a new name or scope replaces it); keeps the outputs as they are. */
export async function update(_id: string, olds: Props): Promise<pulumi.dynamic.UpdateResult> {
  return { outs: olds };
}

/** Revokes the key in its own list; a key already revoked or gone is fine. (No props: state of an older version.) */
export const deleteKey = withHints(revoking, async (id: string, props: Props = {}): Promise<void> => {
  await revokeKey(keyRoutes(scopeOf(props)), Number(id));
});
