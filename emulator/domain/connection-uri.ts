import { ApiError, badRequest, unprocessable } from "../errors";
import type { Branch, DatabaseRecord, EndpointRecord, Project, RoleRecord } from "../types";
import type { Service } from "./service";

/** What a connection URI names: a compute, a database and a role that can log in. */
export interface ConnectionTarget {
  endpoint: EndpointRecord;
  database: DatabaseRecord;
  role: RoleRecord & { password: string };
}

/**
 * The target of GET /projects/{id}/connection_uri (OpenAPI `getConnectionURI`): `branch_id` "Defaults to your project's
 * default `branch_id`"; `endpoint_id` "Defaults to the read-write `endpoint_id` associated with the `branch_id`".
 * Unknown role or database: 404 `role not found` / `database not found`. A branch without a read-write compute and no
 * `endpoint_id`: 404 naming it; an `endpoint_id` without `branch_id` picks the compute's branch; a compute of another
 * branch than `branch_id`: 400; a role created with `no_login`: 422 (all four **guesses**).
 */
export function connectionTarget(
  svc: Service,
  project: Project,
  q: { branchId?: string; endpointId?: string; databaseName: string; roleName: string },
): ConnectionTarget {
  const { store } = svc;
  let endpoint: EndpointRecord | undefined = q.endpointId ? store.endpoint(project.id, q.endpointId) : undefined;
  let branch: Branch;
  if (q.branchId) branch = store.branch(project.id, q.branchId);
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
  const database = store.database(branch.id, q.databaseName);
  const role = store.role(branch.id, q.roleName);
  if (role.password === undefined)
    throw unprocessable(`role ${role.name} was created with no_login: it cannot connect`);
  return { endpoint, database, role: role as ConnectionTarget["role"] };
}
