import type { PoolerRule } from "./behaviours";
import { badRequest } from "./errors";
import type { EndpointConfig, EndpointType } from "./types";
import { branchId, configFields, oneOf, requireObject, show } from "./validation";

/**
 * The bodies of the compute routes (OpenAPI `EndpointCreateRequest`, `EndpointUpdateRequest`): the branch, the type
 * and the config fields (validation.ts checks each); sizes are resolved against the compute's by domain/endpoints.ts.
 */

const TYPES = ["read_write", "read_only"];

export interface EndpointCreate {
  branchId: string;
  type: EndpointType;
  config: Partial<EndpointConfig>;
}

/** POST /projects/{id}/endpoints body: `{endpoint: {branch_id, type, ...}}`; region must be the project's. */
export function parseEndpointCreate(
  body: unknown,
  projectRegion: string,
  pooler: PoolerRule = "applied",
): EndpointCreate {
  const ep = requireObject(requireObject(body).endpoint, "endpoint");
  if (ep.branch_id === undefined) throw badRequest("endpoint.branch_id is required");
  if (ep.type === undefined) throw badRequest("endpoint.type is required; allowed values: read_write, read_only");
  const type = oneOf("endpoint.type", ep.type, TYPES) as EndpointType;
  if (ep.region_id !== undefined && ep.region_id !== projectRegion) {
    throw badRequest(`endpoint.region_id: ${show(ep.region_id)} is not allowed; only the project's ${projectRegion}`);
  }
  const config = configFields(ep, "endpoint", pooler);
  return { branchId: branchId("endpoint.branch_id", ep.branch_id), type, config };
}

export interface EndpointUpdate {
  branchId?: string;
  config: Partial<EndpointConfig>;
}

/** PATCH body: `{endpoint: {...}}`, every field optional; type and region_id cannot change. */
export function parseEndpointUpdate(
  body: unknown,
  current: { type: string; regionId: string },
  pooler: PoolerRule = "applied",
): EndpointUpdate {
  const ep = requireObject(requireObject(body).endpoint, "endpoint");
  if (ep.type !== undefined && ep.type !== current.type) throw badRequest("endpoint.type cannot be changed");
  if (ep.region_id !== undefined && ep.region_id !== current.regionId) {
    throw badRequest("endpoint.region_id cannot be changed");
  }
  const out: EndpointUpdate = { config: configFields(ep, "endpoint", pooler) };
  if (ep.branch_id !== undefined) out.branchId = branchId("endpoint.branch_id", ep.branch_id);
  return out;
}
