/**
 * Translation between the API's branch record (snake_case) and the Branch resource's inputs and outputs (camelCase).
 * The field lists are data, read by the create body, the PATCH body, the outputs and the refresh, so that a property
 * cannot be sent under one name and read back under another.
 *
 * Two kinds of input: what a branch is made from (its project, parent, point in time, init source: fixed at creation,
 * a change replaces it) and what an update changes (name, protection, expiry, annotations). The first kind is compared
 * with what the branch was created from, recorded in `origin`, not with the service's record: a reset from the parent
 * moves the branch's `parent_lsn` (and drops its `parent_timestamp`), and a schema-only branch has no `parent_id`, yet
 * neither is a change of the program (a diff against the record would replace the branch after every reset).
 */
import type { Branch, BranchCreateRequest } from "../../sdk";
import { declaredIn, declaredOf as declaredOfInputs } from "../shared/declared";

type Props = Record<string, unknown>;

/** Inputs fixed at creation → their field in the create's `branch` object. */
export const ORIGIN_FIELDS: ReadonlyArray<readonly [string, string]> = [
  ["parentId", "parent_id"],
  ["parentLsn", "parent_lsn"],
  ["parentTimestamp", "parent_timestamp"],
  ["initSource", "init_source"],
];

/** Inputs an update changes (besides `annotations`) → their field in the create and PATCH `branch` objects. */
export const UPDATABLE_FIELDS: ReadonlyArray<readonly [string, string]> = [
  ["name", "name"],
  ["protected", "protected"],
  ["expiresAt", "expires_at"],
];

/** The record's fields reported as outputs, as they are (the service's values). */
const RECORD_FIELDS: ReadonlyArray<readonly [string, string]> = [
  ["branchId", "id"],
  ["projectId", "project_id"],
  ["parentId", "parent_id"],
  ["parentLsn", "parent_lsn"],
  ["parentTimestamp", "parent_timestamp"],
  ["name", "name"],
  ["initSource", "init_source"],
  ["protected", "protected"],
  ["expiresAt", "expires_at"],
  ["default", "default"],
  ["currentState", "current_state"],
  ["pendingState", "pending_state"],
  ["stateChangedAt", "state_changed_at"],
  ["logicalSize", "logical_size"],
  ["creationSource", "creation_source"],
  ["computeTimeSeconds", "compute_time_seconds"],
  ["activeTimeSeconds", "active_time_seconds"],
  ["writtenDataBytes", "written_data_bytes"],
  ["dataTransferBytes", "data_transfer_bytes"],
  ["createdAt", "created_at"],
  ["updatedAt", "updated_at"],
  ["ttlIntervalSeconds", "ttl_interval_seconds"],
  ["lastResetAt", "last_reset_at"],
];

/** Inputs the provider keeps in the outputs as given (the service knows nothing of them). */
export const CARRIED_INPUTS = ["resetTriggers", "adoptId", "resourceName"];

/**
 * The provider's own records among the outputs: `declared`, the inputs the program set (a refresh hands back those,
 * and only those); `origin`, what the branch was made from (see the module's doc).
 */
const RECORDS = ["declared", "origin"];

/** What a branch was made from: its parent (resolved when the program left it out), point and init source. */
export interface Origin {
  parentId?: string;
  parentLsn?: string;
  parentTimestamp?: string;
  initSource?: string;
}

/** The body of POST /projects/{p}/branches for these inputs (parent resolved): only what the program set. */
export function toCreateBody(inputs: Props, parentId: string | undefined): BranchCreateRequest {
  const branch: Props = {};
  for (const [input, field] of [...ORIGIN_FIELDS, ...UPDATABLE_FIELDS]) {
    if (inputs[input] !== undefined) branch[field] = inputs[input];
  }
  if (parentId !== undefined) branch.parent_id = parentId;
  const body: Props = { branch };
  if (inputs.annotations !== undefined) body.annotation_value = inputs.annotations;
  return body as BranchCreateRequest; // check() validated every field
}

/**
 * The `branch` object of a PATCH carrying only `properties` (of UPDATABLE_FIELDS). A removed `expiresAt` is sent as
 * `null`, which removes the expiration (OpenAPI `BranchUpdateRequest.expires_at`).
 */
export function toPatchFields(news: Props, properties: readonly string[]): Props {
  const branch: Props = {};
  for (const [input, field] of UPDATABLE_FIELDS) {
    if (!properties.includes(input)) continue;
    if (news[input] !== undefined) branch[field] = news[input];
    else if (input === "expiresAt") branch[field] = null;
    else if (input === "protected") branch[field] = false;
  }
  return branch;
}

/**
 * Every output of a Branch: the record in camelCase, its annotations (`annotation`: the service's, when the answer
 * carried them; else those last known), and the provider's carried inputs and records taken from `inputs`.
 */
export function toOutputs(branch: Branch, annotation: Record<string, string> | undefined, inputs: Props): Props {
  const record = branch as unknown as Props;
  const outputs: Props = {};
  for (const [name, field] of RECORD_FIELDS) {
    if (record[field] !== undefined && record[field] !== null) outputs[name] = record[field];
  }
  const annotations = annotation ?? (inputs.annotations as Record<string, string> | undefined);
  if (annotations !== undefined) outputs.annotations = annotations;
  for (const name of [...CARRIED_INPUTS, ...RECORDS]) if (inputs[name] !== undefined) outputs[name] = inputs[name];
  return outputs;
}

/** The origin of a new branch: what the program asked for, with the parent the create resolved. */
export function originOf(inputs: Props, parentId: string | undefined): Origin {
  const origin: Origin = {};
  if (parentId !== undefined) origin.parentId = parentId;
  for (const name of ["parentLsn", "parentTimestamp", "initSource"] as const) {
    if (typeof inputs[name] === "string") origin[name] = inputs[name] as string;
  }
  return origin;
}

/** The origin of an existing branch (adopted): what its record says it was made from. */
export function originOfRecord(branch: Branch): Origin {
  const origin: Origin = {};
  if (branch.parent_id) origin.parentId = branch.parent_id;
  if (branch.parent_lsn) origin.parentLsn = branch.parent_lsn;
  if (branch.parent_timestamp) origin.parentTimestamp = branch.parent_timestamp;
  if (branch.init_source) origin.initSource = branch.init_source;
  return origin;
}

/** The inputs the program set, as recorded in `declared`. */
export const declaredOf = (inputs: Props): string[] => declaredOfInputs(inputs, RECORDS);

/**
 * The outputs of an update that sends nothing (only carried inputs changed: a removed `resetTriggers` or `adoptId`, a
 * new resource name): the branch as last read, with the carried inputs and `declared` from the new inputs.
 */
export function recordedOutputs(olds: Props, news: Props): Props {
  const outputs: Props = { ...olds, declared: declaredOf(news) };
  for (const name of CARRIED_INPUTS) {
    if (news[name] === undefined) delete outputs[name];
    else outputs[name] = news[name];
  }
  return outputs;
}

/**
 * The declared inputs as they stand: what `read` hands back, so that a refresh records drift in the inputs the
 * program set, and only in those. What the branch was made from comes from `origin` (a reset moves the record's
 * point; it is no drift), the rest from the record.
 */
export function inputsFromOutputs(outputs: Props): Props {
  const origin = (outputs.origin ?? {}) as Props;
  const declared = declaredIn(outputs) ?? [];
  const inputs: Props = {};
  for (const name of declared) {
    const fromOrigin = ORIGIN_FIELDS.some(([input]) => input === name);
    const value = fromOrigin ? origin[name] : outputs[name];
    if (value !== undefined) inputs[name] = value;
  }
  return inputs;
}

/** The outputs of a branch the provider created, adopted or updated: the record, with `declared` and `origin`. */
export function outputsWith(
  branch: Branch,
  annotation: Record<string, string> | undefined,
  inputs: Props,
  origin: Origin,
): Props {
  return toOutputs(branch, annotation, { ...inputs, declared: declaredOf(inputs), origin });
}
