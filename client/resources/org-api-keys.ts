/** Organization API keys: organization-wide or limited to one project (`project_id`), created by a member. */
import {
  OrgApiKey,
  OrgApiKeyCreated,
  OrgApiKeyCreateRequest,
  OrgApiKeyList,
  OrgApiKeyRevoked,
} from "../schemas-api-keys";
import { ClientContext, seg } from "./context";

/**
 * Typed calls of `/organizations/{org_id}/api_keys`. A member's personal key may make all three; an organization key
 * of the organization may list and revoke, not create (Neon docs, Manage organizations using the API: Matrix of
 * operations and key types); a project-scoped key none. As for personal keys, a create is never resent after an
 * unknown outcome: a second secret nobody saw.
 */
export class OrgApiKeysApi {
  constructor(private readonly ctx: ClientContext) {}

  /** POST → the new key with its secret (shown only here) and, for a project-scoped key, its `project_id`. */
  create(orgId: string, body: OrgApiKeyCreateRequest): Promise<OrgApiKeyCreated> {
    const path = `/organizations/${seg(orgId)}/api_keys`;
    return this.ctx.transport.request({ method: "POST", path, body, schema: OrgApiKeyCreated });
  }

  /** GET → the organization's keys (a bare array; revoked keys are not listed). */
  list(orgId: string): Promise<OrgApiKey[]> {
    const path = `/organizations/${seg(orgId)}/api_keys`;
    return this.ctx.transport.request({ method: "GET", path, schema: OrgApiKeyList });
  }

  /** DELETE /{key_id} → the revoked key. */
  revoke(orgId: string, id: number): Promise<OrgApiKeyRevoked> {
    const path = `/organizations/${seg(orgId)}/api_keys/${seg(id)}`;
    return this.ctx.transport.request({ method: "DELETE", path, schema: OrgApiKeyRevoked });
  }
}
