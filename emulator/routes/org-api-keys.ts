import {
  createOrganizationKey,
  membership,
  organizationKeys,
  revokeOrganizationKey,
  type Caller,
} from "../domain/api-keys";
import { badRequest } from "../errors";
import { renderKeyCreated, renderKeyListItem, renderKeyRevoked } from "../render";
import type { Reply, RequestContext, Route } from "../router";
import type { OrgRole } from "../types";
import { ID_PATTERN, parseOrgKeyCreate } from "../validation";

const callerOf = (ctx: RequestContext): Caller => ({ key: ctx.key, account: ctx.account });

/** The organization of the path and the caller's role in it; 400 for a malformed id, 404 for a non-member. */
function org(ctx: RequestContext): { id: string; role: OrgRole } {
  const id = ctx.params.org_id;
  if (!ID_PATTERN.test(id)) throw badRequest(`org_id must match ${ID_PATTERN.source}`);
  return { id, role: membership(ctx.state.store, callerOf(ctx), id) };
}

/** GET: the organization's keys (organization-wide and project-scoped), never a secret, never a revoked key. */
function list(ctx: RequestContext): Reply {
  const { id } = org(ctx);
  const items = organizationKeys(ctx.state.store, id).map(({ key, owner }) => renderKeyListItem(key, owner));
  return { status: 200, body: items };
}

/** POST `{key_name, project_id?}` → the key with its secret, shown once. */
function create(ctx: RequestContext): Reply {
  const o = org(ctx);
  const input = parseOrgKeyCreate(ctx.body);
  const { key, secret } = createOrganizationKey(ctx.state.store, callerOf(ctx), o, input, ctx.now);
  return { status: 200, body: renderKeyCreated(key, secret) };
}

/** DELETE: the revoked key. */
function revoke(ctx: RequestContext): Reply {
  const k = revokeOrganizationKey(ctx.state.store, callerOf(ctx), org(ctx), ctx.params.key_id);
  return { status: 200, body: renderKeyRevoked(k) };
}

/**
 * Organization API keys (OpenAPI: listOrgApiKeys, createOrgApiKey, revokeOrgApiKey; rules in domain/api-keys.ts), for
 * members using a personal key and for the organization's own keys, which list and revoke but do not create (access.ts
 * refuses that, and any use of a project-scoped key here).
 */
export const orgApiKeyRoutes: Route[] = [
  { method: "GET", pattern: "/organizations/:org_id/api_keys", handler: list },
  { method: "POST", pattern: "/organizations/:org_id/api_keys", handler: create },
  { method: "DELETE", pattern: "/organizations/:org_id/api_keys/:key_id", handler: revoke },
];
