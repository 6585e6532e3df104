import { ApiError, badRequest, unprocessable } from "../errors";
import { connectionUri, hostOf, poolerHostOf } from "../render";
import type { Reply, RequestContext, Route } from "../router";
import type { Branch, EndpointRecord } from "../types";
import { ID_PATTERN } from "../validation";
import { settledProject } from "./gate";

/**
 * GET /projects/{id}/connection_uri (OpenAPI `getConnectionURI`) → `{uri}` (`ConnectionURIResponse`).
 * - `branch_id` "Defaults to your project's default `branch_id`"; `endpoint_id` "Defaults to the read-write
 *   `endpoint_id` associated with the `branch_id`"; `database_name` and `role_name` required; `pooled=true` "to include
 *   the `-pooler` suffix" (the pooled host inserts `-pooler` after the compute id, api.md "Ids").
 * - The URI: `postgresql://role:password@host/database?sslmode=require&channel_binding=require` (Neon docs, Connect).
 * - Unknown role or database: 404 `role not found` / `database not found`. A branch without a read-write compute and no
 *   `endpoint_id`: 404 naming it; an `endpoint_id` without `branch_id` picks the compute's branch; a compute of another
 *   branch than `branch_id`: 400; a role created with `no_login`: 422 (all four **guesses**).
 */
function connectionUriRoute(ctx: RequestContext): Reply {
  const { store } = ctx.state;
  const project = settledProject(ctx);
  const q = ctx.query;
  const branchIdRaw = idParam(q.get("branch_id"), "branch_id");
  const endpointIdRaw = idParam(q.get("endpoint_id"), "endpoint_id");
  const databaseName = required(q.get("database_name"), "database_name");
  const roleName = required(q.get("role_name"), "role_name");
  const pooled = boolParam(q.get("pooled"), "pooled");
  let endpoint: EndpointRecord | undefined = endpointIdRaw ? store.endpoint(project.id, endpointIdRaw) : undefined;
  let branch: Branch;
  if (branchIdRaw) branch = store.branch(project.id, branchIdRaw);
  else if (endpoint) branch = store.branch(project.id, endpoint.branchId);
  else branch = store.branchesOf(project.id).find((b) => b.isDefault) as Branch;
  if (endpoint && endpoint.branchId !== branch.id) {
    throw badRequest(
      `endpoint_id ${endpoint.id} is a compute of branch ${endpoint.branchId}, not of branch_id ${branch.id}`,
    );
  }
  endpoint ??= store.endpointsOf(project.id, branch.id).find((e) => e.type === "read_write");
  if (!endpoint) {
    throw new ApiError(
      404,
      `endpoint not found: branch ${branch.id} has no read_write compute; pass endpoint_id or create one`,
    );
  }
  const db = store.database(branch.id, databaseName);
  const role = store.role(branch.id, roleName);
  if (role.password === undefined)
    throw unprocessable(`role ${role.name} was created with no_login: it cannot connect`);
  const host = pooled ? poolerHostOf(endpoint) : hostOf(endpoint);
  return { status: 200, body: { uri: connectionUri(role.name, role.password, host, db.name) } };
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
