/**
 * The request bodies and the outputs of a compute, from its declaration (declaration.ts): each row's `api` field is
 * where an input is sent and where an output is read, so that a property cannot be sent under one name and read back
 * under another. What the rows cannot say is here: the pooled host and max_connections, the inputs carried as given,
 * the inputs kept where the service does not report them, and the provider's records (`declared`, `overridden`).
 */
import type { EndpointCreateRequest, EndpointUpdateRequest } from "../../client";
import { COMPUTE } from "./declaration";
import { computeLabel, Overrides, planComputeChange } from "./plan";
import { maxConnectionsFor } from "./values";
import { apiBody, Declaration, outputsFrom, recordedOutputs as recordedWith } from "../shared/declaration";
import { declaredIn, declaredOf as declaredOfInputs } from "../shared/declared";
import { warn } from "../shared/diagnostics";

export type ApiEndpoint = Record<string, unknown> & { id: string; host: string };
type Props = Record<string, unknown>;

const DECLARED: Declaration = COMPUTE;

/** Every input the API takes (the project is in the path). */
const SENT = Object.keys(DECLARED.inputs).filter((p) => DECLARED.inputs[p].api !== undefined);

/** Inputs the provider keeps in outputs as given (the service knows nothing of them): outputs read from no field. */
const CARRIED_INPUTS = Object.keys(DECLARED.outputs).filter((p) => !DECLARED.outputs[p].api && p in DECLARED.inputs);

/**
 * Inputs whose field the service may not report: the deprecated pooler fields (api.md, Pooler fields: removal
 * scheduled for 2026-06-20) and the fields the client does not require because the provider only copies them
 * (client/schemas.ts). When the record lacks one, the output keeps what the program asked for, so that the next diff has
 * something to compare with instead of seeing a change on every `up` (and no value is recorded as overridden by
 * `undefined`). `pgSettings` and `preloadLibraries` are kept the same way when the record has no `settings`. Not
 * `name`: a compute without a name is reported without one, and that absence is a difference to apply.
 */
const MAYBE_UNREPORTED = ["poolerEnabled", "poolerMode", "disabled", "passwordlessAccess", "provisioner"];

/**
 * The provider's own records among the outputs: `declared`, the inputs the program set (so that a refresh hands
 * back those, and not every field of the record); `overridden`, values the service answered differently than asked.
 */
const RECORDS = ["declared", "overridden"];

/** The body of POST /projects/{id}/endpoints for these inputs: what the user set, and the service's defaults. */
export function toCreateBody(inputs: Props): EndpointCreateRequest {
  const defaults = Object.fromEntries(SENT.map((p) => [p, inputs[p] ?? DECLARED.inputs[p].default]));
  return { endpoint: apiBody(DECLARED, defaults, SENT) } as EndpointCreateRequest; // check() validated every field
}

/** The inputs sent together in the request's `settings`. */
export const SETTINGS = ["pgSettings", "preloadLibraries"];

/**
 * The body of PATCH .../endpoints/{id} carrying only the given properties. `settings` goes whole: api.md does not say
 * whether the service merges a PATCH's `settings` into the compute's or replaces them (the emulator replaces them), so
 * a PATCH of pgSettings or preloadLibraries carries the other too, as the service last reported it (`current`, the
 * old outputs): under either behaviour, neither erases the other, and the unchanged one is not asked for anew.
 */
export function toPatchBody(inputs: Props, properties: string[], current: Props = {}): EndpointUpdateRequest {
  const kept = properties.some((p) => SETTINGS.includes(p)) ? SETTINGS.filter((p) => !properties.includes(p)) : [];
  const values = { ...inputs, ...Object.fromEntries(kept.map((p) => [p, current[p]])) };
  return { endpoint: apiBody(DECLARED, values, [...properties, ...kept]) } as EndpointUpdateRequest;
}

/** Every output of a Compute: the record's fields its rows name (a null is no value), the pooled host, max_connections. */
export function toOutputs(endpoint: ApiEndpoint, inputs: Props): Props {
  const reported = Object.entries(outputsFrom(DECLARED, endpoint)).filter(([, value]) => value !== null);
  const settings = endpoint.settings as { pg_settings?: Props } | undefined;
  const outputs: Props = {
    ...Object.fromEntries(reported),
    pgSettings: settings ? (settings.pg_settings ?? {}) : (inputs.pgSettings ?? {}),
    poolerHost: poolerHost(endpoint.id, endpoint.host),
    maxConnections: maxConnectionsFor(Number(endpoint.autoscaling_limit_min_cu)),
  };
  if (!settings && inputs.preloadLibraries !== undefined) outputs.preloadLibraries = inputs.preloadLibraries;
  for (const name of [...CARRIED_INPUTS, ...RECORDS]) if (inputs[name] !== undefined) outputs[name] = inputs[name];
  for (const name of MAYBE_UNREPORTED)
    if (outputs[name] === undefined && inputs[name] !== undefined) outputs[name] = inputs[name];
  return outputs;
}

/**
 * The outputs after a create or an update, with the provider's records: the inputs the program declared, and the
 * values of `asked` the service set otherwise (reported once; an entry leaves when the service takes the value).
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

/**
 * The outputs of an update that sends nothing (only carried inputs changed: a removed `adoptId` or restart trigger, a
 * new resource name): the compute as last read, with the carried inputs and `declared` taken from the new inputs.
 */
export function recordedOutputs(olds: Props, news: Props): Props {
  return recordedWith(olds, news, CARRIED_INPUTS, declaredOf(news));
}

/** The inputs the program set, as recorded in `declared`. */
export const declaredOf = (inputs: Props): string[] => declaredOfInputs(inputs, RECORDS);

/** The pooled connection host: "-pooler" inserted after the compute id (api.md). */
export function poolerHost(id: string, host: string): string {
  return host.startsWith(`${id}.`) ? `${id}-pooler${host.slice(id.length)}` : host;
}

/**
 * The declared inputs as they stand on the service: what `read` hands back, so that a refresh records drift in the
 * inputs the program set, and only in those (a state written before `declared` existed gets every input that is an
 * output).
 */
export function inputsFromOutputs(outputs: Props): Props {
  const all = Object.keys(DECLARED.inputs).filter((p) => p in DECLARED.outputs);
  const inputs: Props = {};
  for (const name of declaredIn(outputs) ?? all) if (outputs[name] !== undefined) inputs[name] = outputs[name];
  return inputs;
}

/**
 * Outputs for a compute that exists but could not be read: the inputs with the service's defaults filled in, never
 * different from `inputs` in what replaces (a missing `type` would read as a change of type, and replace the compute).
 */
export function unreadOutputs(id: string, inputs: Props): Props {
  return { ...inputs, type: inputs.type ?? "read_write", endpointId: id };
}
