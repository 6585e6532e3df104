/**
 * What a change does to a compute, what it sends and what it records: pure (no API call), so the preview stays fast,
 * offline and truthful. Everything derives from the rows (declaration.ts, shared/declaration.ts).
 *
 * New inputs are compared with the OLD OUTPUTS, with the service's defaults understood, so that a second `up` changes
 * nothing (the peers' permanent diffs, #179 and #83): an input left out never diffs, 0 and 300 are one autosuspend
 * delay (the row's `same`), and a value the service overrode (recorded in `overridden`) is not asked for again.
 */
import type { EndpointCreateRequest, EndpointUpdateRequest } from "../../client";
import { COMPUTE } from "./declaration";
import { maxConnectionsFor, SIZES } from "./values";
import {
  apiBody,
  Declaration,
  outputsFrom,
  planChange,
  recordedOutputs as recordedWith,
  sameValue,
} from "../shared/declaration";
import { declaredIn, declaredOf as declaredOfInputs } from "../shared/declared";
import { warn } from "../shared/diagnostics";
import { poolerHost } from "../shared/ids";
import type { ProjectObject } from "../shared/lifecycle";
import { isUnknown } from "../shared/unknown";

type Props = Record<string, unknown>;
export type ApiEndpoint = Record<string, unknown> & { id: string; host: string };
export type Overrides = Record<string, { requested: unknown; service: unknown }>;

const DECLARED: Declaration = COMPUTE;

export interface ComputePlan {
  changes: boolean;
  changed: string[];
  replaces: string[];
  deleteBeforeReplace: boolean;
  /** Properties sent in the PATCH. */
  patch: string[];
  /** Changed properties whose change drops a running compute's connections, or may. */
  drops: string[];
  mayDrop: string[];
  /** restartTriggers changed and the compute stays enabled: restarted, unless the PATCH already restarted it. */
  restartByTrigger: boolean;
}

/**
 * What changing `olds` (old outputs) into `news` (new inputs) does: the rows' plan, with the sizes sent as a pair, a
 * primary replaced on its own branch deleted first, and a restart only by a trigger of a compute that stays enabled.
 */
export function planComputeChange(olds: Props, news: Props): ComputePlan {
  const plan = planChange(DECLARED, olds, news, overriddenAsAsked(olds, news));
  const patch = plan.by.update.some((p) => (SIZES as readonly string[]).includes(p))
    ? [...new Set([...plan.by.update, ...SIZES])]
    : plan.by.update;
  return {
    changes: plan.changed.length > 0,
    changed: plan.changed,
    replaces: plan.by.replace,
    deleteBeforeReplace: plan.by.replace.length > 0 && mustDeleteFirst(olds, news),
    patch,
    drops: plan.drops.filter((p) => dropsNow(p, news)),
    mayDrop: plan.mayDrop,
    restartByTrigger: plan.by.action.includes("restartTriggers") && restartsOnTrigger(news),
  };
}

/** Disabling drops connections, enabling does not; a trigger restarts only what stays enabled. */
function dropsNow(property: string, news: Props): boolean {
  if (property === "disabled") return news.disabled === true;
  return property !== "restartTriggers" || restartsOnTrigger(news);
}

/** A disabled compute runs nothing: the PATCH's answer still saying `active` must not make the update wake it. */
const restartsOnTrigger = (news: Props): boolean => news.restartTriggers !== undefined && news.disabled !== true;

/** The properties the service overrode when last asked, asked for again: no new request. */
function overriddenAsAsked(olds: Props, news: Props): string[] {
  const records = (olds.overridden ?? {}) as Overrides;
  return Object.keys(records).filter((property) => {
    const wanted = news[property] ?? DECLARED.inputs[property]?.default;
    if (wanted === undefined || isUnknown(wanted)) return false;
    const { requested, service } = records[property];
    return sameValue(DECLARED, property, requested, wanted) && sameValue(DECLARED, property, service, olds[property]);
  });
}

/** A branch holds one primary: a new primary on the old primary's branch needs the old one gone first (else 409). */
function mustDeleteFirst(olds: Props, news: Props): boolean {
  const primaries = (news.type ?? COMPUTE.inputs.type.default) === "read_write" && olds.type === "read_write";
  return primaries && news.projectId === olds.projectId && news.branchId === olds.branchId;
}

/**
 * The new inputs to record: a value that means what the old one meant (300 after 0, api.md) keeps the old spelling,
 * since the engine lists beside an update every input that differs from the old inputs, change or not.
 */
export function keepOldSpelling(olds: Props, news: Props): Props {
  const kept = Object.keys(DECLARED.inputs).filter(
    (p) =>
      DECLARED.inputs[p].same !== undefined &&
      olds[p] !== undefined &&
      news[p] !== olds[p] &&
      !isUnknown(news[p]) &&
      sameValue(DECLARED, p, olds[p], news[p]),
  );
  return kept.length === 0 ? news : { ...news, ...Object.fromEntries(kept.map((p) => [p, olds[p]])) };
}

/** How messages name the compute `id`: by its resource's name (its `resourceName`) when known. */
export function computeLabel(id: string, props: { resourceName?: unknown }): string {
  return props.resourceName ? `Compute "${String(props.resourceName)}" (${id})` : `Compute ${id}`;
}

/** How the lifecycle's messages name the compute `id` (shared/lifecycle.ts). */
export function computeOf(id: string, props: { projectId?: unknown; resourceName?: unknown }): ProjectObject {
  return { kind: "compute", label: computeLabel(id, props), projectId: String(props.projectId), docs: COMPUTE.docs };
}

/** Every input the API takes (the project is in the path). */
const SENT = Object.keys(DECLARED.inputs).filter((p) => DECLARED.inputs[p].api !== undefined);
/** Inputs kept in the outputs as given (the service knows nothing of them). */
const CARRIED_INPUTS = Object.keys(DECLARED.outputs).filter((p) => !DECLARED.outputs[p].api && p in DECLARED.inputs);
/**
 * Inputs whose field the service may not report (the deprecated pooler fields, api.md; fields client/schemas.ts does
 * not require): the output keeps the program's value, or every `up` would see a change (the rows' `keptIfUnreported`;
 * not `name`: its absence is one).
 */
const MAYBE_UNREPORTED = Object.keys(DECLARED.outputs).filter((p) => DECLARED.outputs[p].keptIfUnreported);
/** The provider's records: `declared`, the inputs the program set; `overridden`, values the service did not take. */
const RECORDS = ["declared", "overridden"];
/** The inputs sent together in the request's `settings`. */
const SETTINGS = ["pgSettings", "preloadLibraries"];

/** The body of POST /projects/{id}/endpoints: what the program set, and the service's defaults. */
export function toCreateBody(inputs: Props): EndpointCreateRequest {
  const values = Object.fromEntries(SENT.map((p) => [p, inputs[p] ?? DECLARED.inputs[p].default]));
  return { endpoint: apiBody(DECLARED, values, SENT) } as EndpointCreateRequest; // check() validated every field
}

/**
 * The body of a PATCH of `properties`. Whether the service merges `settings` or replaces them is undocumented (api.md;
 * the emulator replaces), so one setting goes with the other as last reported (`current`): neither erases the other.
 */
export function toPatchBody(inputs: Props, properties: string[], current: Props = {}): EndpointUpdateRequest {
  const kept = properties.some((p) => SETTINGS.includes(p)) ? SETTINGS.filter((p) => !properties.includes(p)) : [];
  const values = { ...inputs, ...Object.fromEntries(kept.map((p) => [p, current[p]])) };
  return { endpoint: apiBody(DECLARED, values, [...properties, ...kept]) } as EndpointUpdateRequest;
}

/** Every output: the record's fields (a null is no value), the pooled host, max_connections, and what is kept. */
export function toOutputs(endpoint: ApiEndpoint, inputs: Props): Props {
  const reported = Object.entries(outputsFrom(DECLARED, endpoint)).filter(([, value]) => value !== null);
  const settings = endpoint.settings as { pg_settings?: Props } | undefined;
  const outputs: Props = {
    ...Object.fromEntries(reported),
    pgSettings: settings ? (settings.pg_settings ?? {}) : (inputs.pgSettings ?? {}),
    poolerHost: poolerHost(endpoint.id, endpoint.host),
    maxConnections: maxConnectionsFor(Number(endpoint.autoscaling_limit_min_cu)),
  };
  const unreported = MAYBE_UNREPORTED.filter((p) => outputs[p] === undefined);
  const kept = [...(settings ? [] : ["preloadLibraries"]), ...CARRIED_INPUTS, ...RECORDS, ...unreported];
  for (const name of kept) if (inputs[name] !== undefined) outputs[name] = inputs[name];
  return outputs;
}

/**
 * The outputs after a create or an update, with the records: the declared inputs, and the values of `asked` the
 * service set otherwise (warned once; an entry leaves when the service takes the value).
 */
export function outputsAfter(endpoint: ApiEndpoint, news: Props, asked: string[], previous?: Overrides): Props {
  const outputs = toOutputs(endpoint, news);
  const overridden: Overrides = { ...previous };
  const refused = new Set(planComputeChange(outputs, news).patch);
  for (const property of asked) {
    // A value the answer does not report is no override: the service did not say it kept another one.
    if (!refused.has(property) || outputs[property] === undefined) delete overridden[property];
    else if (!(property in overridden)) {
      overridden[property] = { requested: news[property], service: outputs[property] };
      warn(overrideMessage(endpoint.id, news, property, outputs[property]));
    }
  }
  const records: Props = { declared: declaredOf(news) };
  if (Object.keys(overridden).length > 0) records.overridden = overridden;
  return toOutputs(endpoint, { ...news, ...records });
}

function overrideMessage(id: string, news: Props, property: string, service: unknown): string {
  const value = typeof service === "number" || typeof service === "boolean" ? ` at ${String(service)}` : "";
  return (
    `${computeLabel(id, news)}: the service kept ${property}${value} instead of the value the program asks for (the ` +
    `account's plan may not allow it). This is recorded: the next up will not ask again unless the program's value ` +
    `changes.`
  );
}

/** The outputs of an update that sends nothing (a removed `adoptId`, a new resource name): the carried inputs anew. */
export const recordedOutputs = (olds: Props, news: Props): Props =>
  recordedWith(olds, news, CARRIED_INPUTS, declaredOf(news));

/** The inputs the program set, as recorded in `declared`. */
export const declaredOf = (inputs: Props): string[] => declaredOfInputs(inputs, RECORDS);

/** What a refresh hands back: the declared inputs as they stand (a state older than `declared`: every output input). */
export function inputsFromOutputs(outputs: Props): Props {
  const names = declaredIn(outputs) ?? Object.keys(DECLARED.inputs).filter((p) => p in DECLARED.outputs);
  return Object.fromEntries(names.filter((name) => outputs[name] !== undefined).map((name) => [name, outputs[name]]));
}

/** The outputs of a compute that could not be read: never a missing `type`, which would read as a replacing change. */
export const unreadOutputs = (id: string, inputs: Props): Props => ({
  ...inputs,
  type: inputs.type ?? "read_write",
  endpointId: id,
});
