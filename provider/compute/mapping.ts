/**
 * Translation between the API's compute record (snake_case) and the resource's inputs and outputs
 * (camelCase). The field list is data: one row per property, read by the create body, the PATCH body and
 * the outputs, so that a property cannot be sent under one name and read back under another.
 */
import type { EndpointCreateRequest, EndpointUpdateRequest } from "../../sdk";
import { declaredIn, declaredOf as declaredOfInputs } from "../shared/declared";
import { maxConnectionsFor } from "./sizes";

/** Input property → field of the API's endpoint object. pgSettings lives in settings.pg_settings. */
const INPUT_FIELDS: ReadonlyArray<readonly [string, string]> = [
  ["branchId", "branch_id"],
  ["type", "type"],
  ["regionId", "region_id"],
  ["autoscalingLimitMinCu", "autoscaling_limit_min_cu"],
  ["autoscalingLimitMaxCu", "autoscaling_limit_max_cu"],
  ["suspendTimeoutSeconds", "suspend_timeout_seconds"],
  ["poolerEnabled", "pooler_enabled"],
  ["poolerMode", "pooler_mode"],
  ["disabled", "disabled"],
  ["passwordlessAccess", "passwordless_access"],
  ["provisioner", "provisioner"],
  ["name", "name"],
];

/** Output-only fields of the record, reported as they are. */
const OUTPUT_FIELDS: ReadonlyArray<readonly [string, string]> = [
  ["endpointId", "id"],
  ["projectId", "project_id"],
  ["host", "host"],
  ["proxyHost", "proxy_host"],
  ["currentState", "current_state"],
  ["pendingState", "pending_state"],
  ["creationSource", "creation_source"],
  ["lastActive", "last_active"],
  ["startedAt", "started_at"],
  ["suspendedAt", "suspended_at"],
  ["createdAt", "created_at"],
  ["updatedAt", "updated_at"],
  ["computeReleaseVersion", "compute_release_version"],
];

/**
 * Inputs whose field the service may not report: the deprecated pooler fields (api.md, Pooler fields: removal
 * scheduled for 2026-06-20) and the fields the client does not require because the provider only copies them
 * (sdk/schemas.ts). When the record lacks one, the output keeps what the program asked for, so that the next diff has
 * something to compare with instead of seeing a change on every `up` (and no value is recorded as overridden by
 * `undefined`). `pgSettings` is kept the same way when the record has no `settings`. Not `name`: a compute without a
 * name is reported without one, and that absence is a difference to apply.
 */
const MAYBE_UNREPORTED = ["poolerEnabled", "poolerMode", "disabled", "passwordlessAccess", "provisioner"];

/** Inputs the provider keeps in outputs as given (the service knows nothing of them). */
const CARRIED_INPUTS = ["restartTriggers", "resourceName", "ownerTag", "adoptId"];

/**
 * The provider's own records among the outputs: `declared`, the inputs the program set (so that a refresh hands
 * back those, and not every field of the record); `overridden`, values the service answered differently than asked.
 */
const RECORDS = ["declared", "overridden"];

export type ApiEndpoint = Record<string, unknown> & { id: string; host: string };
type Props = Record<string, unknown>;

/** The body of POST /projects/{id}/endpoints for these inputs: only what the user set. */
export function toCreateBody(inputs: Props): EndpointCreateRequest {
  const endpoint = pick(inputs, [...INPUT_FIELDS.map(([input]) => input), "pgSettings"]);
  if (inputs.type === undefined) endpoint.type = "read_write";
  return { endpoint } as EndpointCreateRequest; // check() validated every field against the same rules
}

/** The body of PATCH .../endpoints/{id} carrying only the given properties. */
export function toPatchBody(inputs: Props, properties: string[]): EndpointUpdateRequest {
  return { endpoint: pick(inputs, properties) } as EndpointUpdateRequest;
}

function pick(inputs: Props, properties: string[]): Props {
  const body: Props = {};
  for (const [input, field] of INPUT_FIELDS) {
    if (properties.includes(input) && inputs[input] !== undefined) body[field] = inputs[input];
  }
  if (properties.includes("pgSettings") && inputs.pgSettings !== undefined) {
    body.settings = { pg_settings: inputs.pgSettings };
  }
  return body;
}

/** Every output of a Compute: the whole record in camelCase, the pooled host and max_connections. */
export function toOutputs(endpoint: ApiEndpoint, inputs: Props): Props {
  const outputs: Props = {};
  for (const [name, field] of [...INPUT_FIELDS, ...OUTPUT_FIELDS]) {
    if (endpoint[field] !== undefined && endpoint[field] !== null) outputs[name] = endpoint[field];
  }
  const settings = endpoint.settings as { pg_settings?: Props } | undefined;
  outputs.pgSettings = settings ? (settings.pg_settings ?? {}) : (inputs.pgSettings ?? {});
  outputs.poolerHost = poolerHost(endpoint.id, endpoint.host);
  outputs.maxConnections = maxConnectionsFor(Number(endpoint.autoscaling_limit_min_cu));
  for (const name of [...CARRIED_INPUTS, ...RECORDS]) if (inputs[name] !== undefined) outputs[name] = inputs[name];
  for (const name of MAYBE_UNREPORTED)
    if (outputs[name] === undefined && inputs[name] !== undefined) outputs[name] = inputs[name];
  return outputs;
}

/**
 * The outputs of an update that sends nothing (only carried inputs changed: a removed `adoptId` or restart trigger, a
 * new resource name): the compute as last read, with the carried inputs and `declared` taken from the new inputs.
 */
export function recordedOutputs(olds: Props, news: Props): Props {
  const outputs: Props = { ...olds, declared: declaredOf(news) };
  for (const name of CARRIED_INPUTS) {
    if (news[name] === undefined) delete outputs[name];
    else outputs[name] = news[name];
  }
  return outputs;
}

/** The inputs the program set, as recorded in `declared`. */
export const declaredOf = (inputs: Props): string[] => declaredOfInputs(inputs, RECORDS);

/** The pooled connection host: "-pooler" inserted after the compute id (api.md). */
export function poolerHost(id: string, host: string): string {
  return host.startsWith(`${id}.`) ? `${id}-pooler${host.slice(id.length)}` : host;
}

/**
 * The declared inputs as they stand on the service: what `read` hands back, so that a refresh records drift in the
 * inputs the program set, and only in those (a state written before `declared` existed gets every input field).
 */
export function inputsFromOutputs(outputs: Props): Props {
  const all = ["projectId", ...INPUT_FIELDS.map(([name]) => name), "pgSettings", ...CARRIED_INPUTS];
  const declared = declaredIn(outputs) ?? all;
  const inputs: Props = {};
  for (const name of declared) if (outputs[name] !== undefined) inputs[name] = outputs[name];
  return inputs;
}
