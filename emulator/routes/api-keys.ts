import { badRequest, notFound } from "../errors";
import { newApiKeySecret } from "../ids";
import { renderKeyListItem, renderKeyRevoked } from "../render";
import type { RequestContext, Route } from "../router";
import { parseKeyCreate } from "../validation";

/** Account API keys: create (the secret shown once), list (never a secret, never a revoked key), revoke. */
export const apiKeyRoutes: Route[] = [
  {
    method: "GET",
    pattern: "/api_keys",
    handler: ({ state, account }) => {
      const items = [];
      for (const k of state.store.keys.values()) {
        if (k.accountId === account.id && !k.revoked) items.push(renderKeyListItem(k, account));
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
      const created = { id: k.id, key: secret, name: k.name, created_at: new Date(now).toISOString() };
      return { status: 200, body: { ...created, created_by: account.id } };
    },
  },
  {
    method: "DELETE",
    pattern: "/api_keys/:key_id",
    handler: (ctx: RequestContext) => {
      const raw = ctx.params.key_id;
      if (!/^\d{1,15}$/.test(raw)) throw badRequest("key_id must be an integer");
      const k = ctx.state.store.keys.get(Number(raw));
      if (!k || k.accountId !== ctx.account.id || k.revoked) throw notFound("API key");
      k.revoked = true;
      ctx.state.store.dirty = true;
      return { status: 200, body: renderKeyRevoked(k) };
    },
  },
];
