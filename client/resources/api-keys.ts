/** Account API keys: create (the secret is returned once), list, revoke. */
import { ApiKey, ApiKeyCreated, ApiKeyCreateRequest, ApiKeyList, ApiKeyRevoked } from "../schemas-api-keys";
import { ClientContext, seg } from "./context";

/** Typed calls of `/api_keys`. A create is never resent after an unknown outcome (a second secret nobody saw). */
export class ApiKeysApi {
  constructor(private readonly ctx: ClientContext) {}

  /** POST /api_keys → the new key with its secret (shown only here). */
  create(body: ApiKeyCreateRequest): Promise<ApiKeyCreated> {
    return this.ctx.transport.request({ method: "POST", path: "/api_keys", body, schema: ApiKeyCreated });
  }

  /** GET /api_keys → the account's keys (a bare array; revoked keys are not listed). */
  list(): Promise<ApiKey[]> {
    return this.ctx.transport.request({ method: "GET", path: "/api_keys", schema: ApiKeyList });
  }

  /** DELETE /api_keys/{id} → the revoked key. */
  revoke(id: number): Promise<ApiKeyRevoked> {
    return this.ctx.transport.request({ method: "DELETE", path: `/api_keys/${seg(id)}`, schema: ApiKeyRevoked });
  }
}
