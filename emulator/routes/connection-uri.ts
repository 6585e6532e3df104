import { connectionTarget } from "../domain/connection-uri";
import { badRequest } from "../errors";
import { connectionUri, hostOf, poolerHostOf } from "../render";
import type { Reply, RequestContext, Route } from "../router";
import { ID_PATTERN } from "../validation";
import { settledProject } from "./gate";

/**
 * GET /projects/{id}/connection_uri (OpenAPI `getConnectionURI`) → `{uri}` (`ConnectionURIResponse`): `database_name`
 * and `role_name` required; `pooled=true` "to include the `-pooler` suffix" (the pooled host inserts `-pooler` after the
 * compute id, api.md "Ids"); the URI `postgresql://role:password@host/database?sslmode=require&channel_binding=require`
 * (Neon docs, Connect). Which compute, database and role: domain/connection-uri.ts.
 */
function connectionUriRoute(ctx: RequestContext): Reply {
  const project = settledProject(ctx);
  const q = ctx.query;
  const branchId = idParam(q.get("branch_id"), "branch_id");
  const endpointId = idParam(q.get("endpoint_id"), "endpoint_id");
  const databaseName = required(q.get("database_name"), "database_name");
  const roleName = required(q.get("role_name"), "role_name");
  const pooled = boolParam(q.get("pooled"), "pooled");
  const t = connectionTarget(ctx.state, project, { branchId, endpointId, databaseName, roleName });
  const host = pooled ? poolerHostOf(t.endpoint) : hostOf(t.endpoint);
  return { status: 200, body: { uri: connectionUri(t.role.name, t.role.password, host, t.database.name) } };
}

function idParam(raw: string | null, field: string): string | undefined {
  if (raw === null || raw === "") return undefined;
  if (!ID_PATTERN.test(raw)) throw badRequest(`${field} must match ${ID_PATTERN.source}`);
  return raw;
}

function required(raw: string | null, field: string): string {
  if (raw === null || raw === "") throw badRequest(`${field} is required`);
  return raw;
}

function boolParam(raw: string | null, field: string): boolean {
  if (raw === null) return false;
  if (raw !== "true" && raw !== "false") throw badRequest(`${field} must be true or false, got ${JSON.stringify(raw)}`);
  return raw === "true";
}

/** The connection URI of a database, as a role. */
export const connectionUriRoutes: Route[] = [
  { method: "GET", pattern: "/projects/:project_id/connection_uri", handler: connectionUriRoute },
];
