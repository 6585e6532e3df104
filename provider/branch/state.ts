/**
 * What a Branch keeps in state beside the service's record, and the request bodies, read from its declaration
 * (declaration.ts: each row's `api` field), so that a property cannot be sent under one name and read back under
 * another.
 *
 * Two records of the provider's own sit among the outputs: `declared`, the inputs the program set (a refresh hands back
 * those, and only those; a property the program removed is told from one it never set), and `origin`, what the branch
 * was made from (its parent, resolved when the program left it out, point in time and init source). What a branch was
 * made from is compared with `origin`, not with the service's record: a reset from the parent moves the branch's
 * `parent_lsn` (and drops its `parent_timestamp`), and a schema-only branch has no `parent_id`, yet neither is a change
 * of the program (a diff against the record would replace the branch after every reset).
 */
import type { Branch, BranchCreateRequest } from "../../client";
import {
  apiBody,
  outputNames,
  outputsFrom,
  programInputs,
  recordedOutputs as recordedWith,
} from "../shared/declaration";
import { declaredIn, declaredOf as declaredOfInputs } from "../shared/declared";
import { BRANCH } from "./declaration";

type Props = Record<string, unknown>;

/** The inputs a branch is made from besides its project: fixed at creation, compared with `origin`. */
export const MADE_FROM = ["parentId", "parentLsn", "parentTimestamp", "initSource"] as const;

/** What a branch was made from: its parent (resolved when the program left it out), point and init source. */
export type Origin = { [P in (typeof MADE_FROM)[number]]?: string };

/** The provider's own records among the outputs (see the module's doc). */
const RECORDS = ["declared", "origin"];

/**
 * The outputs the service's record does not hold, besides `annotations` (the response's, see `toOutputs`): inputs the
 * provider keeps as given (`resetTriggers`, `adoptId`, `resourceName`).
 */
const CARRIED = outputNames(BRANCH).filter((p) => !("api" in BRANCH.outputs[p as keyof typeof BRANCH.outputs]));
export const CARRIED_INPUTS = CARRIED.filter((p) => p !== "annotations");

/** The body of POST /projects/{p}/branches for these inputs (parent resolved): only what the program set. */
export function toCreateBody(inputs: Props, parentId: string | undefined): BranchCreateRequest {
  const body = apiBody(BRANCH, { ...inputs, parentId }, programInputs(BRANCH));
  return { branch: {}, ...body } as BranchCreateRequest; // check() validated every field
}

/**
 * The `branch` object of a PATCH carrying only `properties` (updated ones). A removed `expiresAt` is sent as `null`,
 * which removes the expiration (OpenAPI `BranchUpdateRequest.expires_at`); a removed `protected`, as its default.
 */
export function toPatchFields(news: Props, properties: readonly string[]): Props {
  const removals = { protected: news.protected ?? BRANCH.inputs.protected.default, expiresAt: news.expiresAt ?? null };
  return (apiBody(BRANCH, { ...news, ...removals }, properties).branch ?? {}) as Props;
}

/**
 * Every output of a Branch: the record in camelCase (a field the service leaves out or null, left out), its
 * annotations (`annotation`: the service's, when the answer carried them; else those last known), and the provider's
 * carried inputs and records taken from `inputs`.
 */
export function toOutputs(branch: Branch, annotation: Record<string, string> | undefined, inputs: Props): Props {
  const record = Object.fromEntries(Object.entries(branch).filter(([, value]) => value !== null));
  const annotations = annotation ?? inputs.annotations;
  const extra: Props = annotations === undefined ? {} : { annotations };
  for (const name of [...CARRIED_INPUTS, ...RECORDS]) if (inputs[name] !== undefined) extra[name] = inputs[name];
  return outputsFrom(BRANCH, record, extra);
}

/** The origin of a new branch: what the program asked for, with the parent the create resolved. */
export function originOf(inputs: Props, parentId: string | undefined): Origin {
  const origin: Origin = {};
  if (parentId !== undefined) origin.parentId = parentId;
  for (const name of MADE_FROM.slice(1)) if (typeof inputs[name] === "string") origin[name] = inputs[name] as string;
  return origin;
}

/** The origin of an existing branch (adopted): what its record says it was made from. */
export function originOfRecord(branch: Branch): Origin {
  const origin: Origin = {};
  for (const name of MADE_FROM) {
    const value = (branch as unknown as Props)[BRANCH.outputs[name].api];
    if (value) origin[name] = value as string;
  }
  return origin;
}

/** The inputs the program set, as recorded in `declared`. */
export const declaredOf = (inputs: Props): string[] => declaredOfInputs(inputs, RECORDS);

/**
 * The outputs of an update that sends nothing (only carried inputs changed: a removed `resetTriggers` or `adoptId`, a
 * new resource name): the branch as last read, with the carried inputs and `declared` from the new inputs.
 */
export function recordedOutputs(olds: Props, news: Props): Props {
  return recordedWith(olds, news, CARRIED_INPUTS, declaredOf(news));
}

/**
 * The declared inputs as they stand: what `read` hands back, so that a refresh records drift in the inputs the
 * program set, and only in those. What the branch was made from comes from `origin` (a reset moves the record's
 * point; it is no drift), the rest from the record.
 */
export function inputsFromOutputs(outputs: Props): Props {
  const origin = (outputs.origin ?? {}) as Props;
  const inputs: Props = {};
  for (const name of declaredIn(outputs) ?? []) {
    const value = (MADE_FROM as readonly string[]).includes(name) ? origin[name] : outputs[name];
    if (value !== undefined) inputs[name] = value;
  }
  return inputs;
}

/**
 * What the Diff compares the program with: the old outputs, with what the branch was made from as `origin` records it
 * (old inputs, which have no `origin`, as they are).
 */
export function asMadeFrom(olds: Props): Props {
  if (olds.origin === undefined) return olds;
  const origin = olds.origin as Props;
  return { ...olds, ...Object.fromEntries(MADE_FROM.map((name) => [name, origin[name]])) };
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
