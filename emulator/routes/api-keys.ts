import { createPersonalKey, personalKeys, revokePersonalKey } from "../domain/api-keys";
import { renderKeyCreated, renderKeyListItem, renderKeyRevoked } from "../render";
import type { Route } from "../router";
import { parseKeyCreate } from "../validation";

/**
 * Account (personal) API keys: create (the secret shown once), list (never a secret, never a revoked key), revoke
 * (domain/api-keys.ts). Organization keys live under /organizations/{org_id}/api_keys (org-api-keys.ts): never listed
 * or revoked here.
 */
export const apiKeyRoutes: Route[] = [
  {
    method: "GET",
    pattern: "/api_keys",
    handler: ({ state, account }) => ({
      status: 200,
      body: personalKeys(state.store, account).map((k) => renderKeyListItem(k, account)),
    }),
  },
  {
    method: "POST",
    pattern: "/api_keys",
    handler: ({ state, account, body, now }) => {
      const { key, secret } = createPersonalKey(state.store, account, parseKeyCreate(body), now);
      return { status: 200, body: renderKeyCreated(key, secret) };
    },
  },
  {
    method: "DELETE",
    pattern: "/api_keys/:key_id",
    handler: ({ state, account, params }) => ({
      status: 200,
      body: renderKeyRevoked(revokePersonalKey(state.store, account, params.key_id)),
    }),
  },
];
