import { forbidden, notMember } from "../access";
import { badRequest, notFound } from "../errors";
import { newApiKeySecret } from "../ids";
import { renderKeyCreated, renderKeyListItem } from "../render";
import type { Reply, RequestContext, Route } from "../router";
import type { OrgRole } from "../types";
import { ID_PATTERN, parseOrgKeyCreate } from "../validation";
import { keyToRevoke, revoked } from "./api-keys";

/** The organization of the path and the caller's role in it; 400 for a malformed id, 404 for a non-member. */
function membership(ctx: RequestContext): { orgId: string; role: OrgRole } {
  const orgId = ctx.params.org_id;
  if (!ID_PATTERN.test(orgId)) throw badRequest(`org_id must match ${ID_PATTERN.source}`);
  const role = roleOf(ctx, orgId);
  if (!role) throw notMember(orgId);
  return { orgId, role };
}

/**
 * A personal key acts with its account's role. An organization key (project-scoped keys never get here: access.ts)
 * acts as an admin of its own organization (docs, Manage organizations using the API: organization keys "provide
 * admin-level access to all organization resources") and as a non-member of any other (404: **guess**).
 */
function roleOf(ctx: RequestContext, orgId: string): OrgRole | undefined {
  if (ctx.key.orgId !== undefined) return ctx.key.orgId === orgId ? "admin" : undefined;
  return ctx.state.store.roleIn(orgId, ctx.account.id);
}

/** GET: the organization's keys (organization-wide and project-scoped), never a secret, never a revoked key. */
function list(ctx: RequestContext): Reply {
  const { orgId } = membership(ctx);
  const { store } = ctx.state;
  const items = [];
  for (const k of store.keys.values()) {
    const owner = store.accounts.get(k.accountId);
    if (k.orgId === orgId && !k.revoked && owner) items.push(renderKeyListItem(k, owner));
  }
  return { status: 200, body: items };
}

/**
 * POST `{key_name, project_id?}`: any member may create a key scoped to a project of the organization; only an admin an
 * organization-wide one (docs, Manage API keys). A project outside the organization answers 404 and a member's
 * organization-wide key 403 (both statuses: guess).
 */
function create(ctx: RequestContext): Reply {
  const { orgId, role } = membership(ctx);
  const { name, projectId } = parseOrgKeyCreate(ctx.body);
  if (projectId !== undefined && ctx.state.store.projects.get(projectId)?.orgId !== orgId) throw notFound("project");
  if (projectId === undefined && role !== "admin") {
    throw forbidden(
      `only an admin of organization ${orgId} can create an organization API key; a member can create one scoped ` +
        `to a project of the organization (project_id)`,
    );
  }
  const secret = newApiKeySecret();
  const k = ctx.state.store.addKey(ctx.account.id, name, secret, ctx.now, { orgId, projectId });
  return { status: 200, body: renderKeyCreated(k, secret) };
}

/**
 * DELETE: an admin (or an organization key of the organization) revokes any key of the organization (docs: "Organization
 * API keys can be revoked by organization admins"; the matrix: an organization key may revoke them), a member the keys
 * it created (guess); unknown → 404.
 */
function revoke(ctx: RequestContext): Reply {
  const { orgId, role } = membership(ctx);
  const k = keyToRevoke(ctx, (key) => key.orgId === orgId);
  if (role !== "admin" && k.accountId !== ctx.account.id) {
    throw forbidden(`only an admin of organization ${orgId} can revoke an API key another member created`);
  }
  return revoked(ctx, k);
}

/**
 * Organization API keys (OpenAPI: listOrgApiKeys, createOrgApiKey, revokeOrgApiKey), for members using a personal key
 * and for the organization's own keys, which list and revoke but do not create (access.ts refuses that, and any use of
 * a project-scoped key here).
 */
export const orgApiKeyRoutes: Route[] = [
  { method: "GET", pattern: "/organizations/:org_id/api_keys", handler: list },
  { method: "POST", pattern: "/organizations/:org_id/api_keys", handler: create },
  { method: "DELETE", pattern: "/organizations/:org_id/api_keys/:key_id", handler: revoke },
];
