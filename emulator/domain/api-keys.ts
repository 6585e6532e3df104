import { forbidden, notMember } from "../access";
import { badRequest, notFound } from "../errors";
import { newApiKeySecret } from "../ids";
import type { Store } from "../store";
import type { Account, KeyRecord, OrgRole } from "../types";

/**
 * The rules of API keys: an account's personal keys (create, list, revoke) and an organization's keys (OpenAPI
 * `listOrgApiKeys`, `createOrgApiKey`, `revokeOrgApiKey`), who may create and revoke which (docs, Manage API keys;
 * Manage organizations using the API). A secret exists only in the reply to its create; the store keeps its hash.
 */

/** A new key and its secret, shown once. */
export interface NewKey {
  key: KeyRecord;
  secret: string;
}

/** The account's live personal keys (never a revoked key, never an organization key). */
export function personalKeys(store: Store, account: Account): KeyRecord[] {
  return [...store.keys.values()].filter((k) => k.accountId === account.id && !k.revoked && k.orgId === undefined);
}

export function createPersonalKey(store: Store, account: Account, name: string, now: number): NewKey {
  const secret = newApiKeySecret();
  return { key: store.addKey(account.id, name, secret, now), secret };
}

/** Revokes the personal key `rawId` names (effective on its next request): 400 for a malformed id, else 404. */
export function revokePersonalKey(store: Store, account: Account, rawId: string): KeyRecord {
  return revoke(
    store,
    keyToRevoke(store, rawId, (k) => k.accountId === account.id && k.orgId === undefined),
  );
}

/** The live key `rawId` names, when `belongs` to the route's owner: 400 for a malformed id, else 404. */
function keyToRevoke(store: Store, rawId: string, belongs: (k: KeyRecord) => boolean): KeyRecord {
  if (!/^\d{1,15}$/.test(rawId)) throw badRequest("key_id must be an integer");
  const k = store.keys.get(Number(rawId));
  if (!k || k.revoked || !belongs(k)) throw notFound("API key");
  return k;
}

function revoke(store: Store, k: KeyRecord): KeyRecord {
  k.revoked = true;
  store.dirty = true;
  return k;
}

/** The caller of an organization route: the key it presented and that key's account. */
export interface Caller {
  key: KeyRecord;
  account: Account;
}

/** The caller's role in the organization `orgId`; 404 for a non-member (or an unknown organization). */
export function membership(store: Store, caller: Caller, orgId: string): OrgRole {
  const role = roleOf(store, caller, orgId);
  if (!role) throw notMember(orgId);
  return role;
}

/**
 * A personal key acts with its account's role. An organization key (project-scoped keys never get here: access.ts)
 * acts as an admin of its own organization (docs, Manage organizations using the API: organization keys "provide
 * admin-level access to all organization resources") and as a non-member of any other (404: **guess**).
 */
function roleOf(store: Store, caller: Caller, orgId: string): OrgRole | undefined {
  if (caller.key.orgId !== undefined) return caller.key.orgId === orgId ? "admin" : undefined;
  return store.roleIn(orgId, caller.account.id);
}

/** The organization's live keys (organization-wide and project-scoped) with the member who created each. */
export function organizationKeys(store: Store, orgId: string): { key: KeyRecord; owner: Account }[] {
  const out: { key: KeyRecord; owner: Account }[] = [];
  for (const key of store.keys.values()) {
    const owner = store.accounts.get(key.accountId);
    if (key.orgId === orgId && !key.revoked && owner) out.push({ key, owner });
  }
  return out;
}

/**
 * Any member may create a key scoped to a project of the organization; only an admin an organization-wide one (docs,
 * Manage API keys). A project outside the organization answers 404 and a member's organization-wide key 403 (both
 * statuses: guess).
 */
export function createOrganizationKey(
  store: Store,
  caller: Caller,
  org: { id: string; role: OrgRole },
  input: { name: string; projectId?: string },
  now: number,
): NewKey {
  const { name, projectId } = input;
  if (projectId !== undefined && store.projects.get(projectId)?.orgId !== org.id) throw notFound("project");
  if (projectId === undefined && org.role !== "admin") {
    throw forbidden(
      `only an admin of organization ${org.id} can create an organization API key; a member can create one scoped ` +
        `to a project of the organization (project_id)`,
    );
  }
  const secret = newApiKeySecret();
  return { key: store.addKey(caller.account.id, name, secret, now, { orgId: org.id, projectId }), secret };
}

/**
 * An admin (or an organization key of the organization) revokes any key of the organization (docs: "Organization API
 * keys can be revoked by organization admins"; the matrix: an organization key may revoke them), a member the keys it
 * created (guess); unknown → 404.
 */
export function revokeOrganizationKey(
  store: Store,
  caller: Caller,
  org: { id: string; role: OrgRole },
  rawId: string,
): KeyRecord {
  const k = keyToRevoke(store, rawId, (key) => key.orgId === org.id);
  if (org.role !== "admin" && k.accountId !== caller.account.id) {
    throw forbidden(`only an admin of organization ${org.id} can revoke an API key another member created`);
  }
  return revoke(store, k);
}
