import { badRequest, notFound } from "../errors";
import { newApiKeySecret } from "../ids";
import { renderKeyCreated, renderKeyListItem, renderKeyRevoked } from "../render";
import type { Reply, RequestContext, Route } from "../router";
import type { KeyRecord } from "../types";
import { parseKeyCreate } from "../validation";

/**
 * Account (personal) API keys: create (the secret shown once), list (never a secret, never a revoked key), revoke.
 * Organization keys live under /organizations/{org_id}/api_keys (org-api-keys.ts): never listed or revoked here.
 */
export const apiKeyRoutes: Route[] = [
  {
    method: "GET",
    pattern: "/api_keys",
    handler: ({ state, account }) => {
      const items = [];
      for (const k of state.store.keys.values()) {
        if (k.accountId === account.id && !k.revoked && k.orgId === undefined)
          items.push(renderKeyListItem(k, account));
      }
      return { status: 200, body: items };
    },
  },
  {
    method: "POST",
    pattern: "/api_keys",
    handler: ({ state, account, body, now }) => {
      const name = parseKeyCreate(body);
      const secret = newApiKeySecret();
      const k = state.store.addKey(account.id, name, secret, now);
      return { status: 200, body: renderKeyCreated(k, secret) };
    },
  },
  {
    method: "DELETE",
    pattern: "/api_keys/:key_id",
    handler: (ctx: RequestContext) =>
      revoked(
        ctx,
        keyToRevoke(ctx, (k) => k.accountId === ctx.account.id && k.orgId === undefined),
      ),
  },
];

/** The live key `key_id` names, when `belongs` to the route's owner: 400 for a malformed id, else 404. */
export function keyToRevoke(ctx: RequestContext, belongs: (k: KeyRecord) => boolean): KeyRecord {
  const raw = ctx.params.key_id;
  if (!/^\d{1,15}$/.test(raw)) throw badRequest("key_id must be an integer");
  const k = ctx.state.store.keys.get(Number(raw));
  if (!k || k.revoked || !belongs(k)) throw notFound("API key");
  return k;
}

/** Revokes the key (effective on its next request) and answers the revoke response. */
export function revoked(ctx: RequestContext, k: KeyRecord): Reply {
  k.revoked = true;
  ctx.state.store.dirty = true;
  return { status: 200, body: renderKeyRevoked(k) };
}
