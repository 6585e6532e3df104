/**
 * Property values as the engine handles them: plain JSON, plus two markers of the Pulumi RPC wire format that the
 * SDK sends in a registration and the engine keeps in state.
 *
 * - A secret is `{ "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value }`
 *   (sdk/nodejs/runtime/rpc.ts `specialSigKey`, `specialSecretSig`).
 * - An unknown (a value not known during preview) is the string `04da6b54-80e4-46f7-96ec-b56ff0331ba9`
 *   (rpc.ts `unknownValue`).
 *
 * The dynamic-provider plugin accepts no secrets (its ConfigureResponse leaves acceptSecrets false), so the engine
 * strips every secret before a call and re-marks the answer afterwards by name: `annotateSecrets` in pulumi/pulumi
 * `sdk/go/common/resource/plugin/provider_plugin.go` (Check, Create, Read, Update).
 */
export type Value = unknown;
export type Props = Record<string, Value>;

export const SIG_KEY = "4dabf18193072939515e22adb298388d";
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/** A secret wrapper around `value` (never double-wrapped). */
export function secret(value: Value): Value {
  return isSecret(value) ? value : { [SIG_KEY]: SECRET_SIG, value };
}

export function isSecret(value: Value): value is { value: Value } {
  return typeof value === "object" && value !== null && (value as Props)[SIG_KEY] === SECRET_SIG;
}

/** True when a secret is anywhere inside `value` (provider_plugin.go uses ContainsSecrets). */
export function containsSecrets(value: Value): boolean {
  if (isSecret(value)) return true;
  if (Array.isArray(value)) return value.some(containsSecrets);
  if (isObject(value)) return Object.values(value).some(containsSecrets);
  return false;
}

/** True when an unknown is anywhere inside `value` (PropertyValue.ContainsUnknowns). */
export function containsUnknowns(value: Value): boolean {
  if (value === UNKNOWN) return true;
  if (isSecret(value)) return containsUnknowns(value.value);
  if (Array.isArray(value)) return value.some(containsUnknowns);
  if (isObject(value)) return Object.values(value).some(containsUnknowns);
  return false;
}

/** Every secret unwrapped, as MarshalProperties does with KeepSecrets false (provider_plugin.go). */
export function reveal<T extends Value>(value: T): T {
  if (isSecret(value)) return reveal(value.value) as T;
  if (Array.isArray(value)) return value.map(reveal) as T;
  if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, reveal(v)])) as T;
  return value;
}

/**
 * `annotateSecrets(outs, ins)` of provider_plugin.go: every property of `outs` whose same-named input contains a
 * secret is made secret, looking into objects present on both sides.
 */
export function annotateSecrets(outs: Props, ins: Props): Props {
  const result: Props = { ...outs };
  for (const [key, input] of Object.entries(ins)) {
    if (!(key in result)) continue;
    const output = result[key];
    if (isObject(output) && !isSecret(output) && isObject(input) && !isSecret(input)) {
      result[key] = annotateSecrets(output, input);
    } else if (!isSecret(output) && containsSecrets(input)) {
      result[key] = secret(output);
    }
  }
  return result;
}

/**
 * What the step executor does to a step's new state before recording it (step_executor.go, continueExecuteStep):
 * the outputs named in `additionalSecretOutputs` become secret, and so does every output whose same-named input is
 * a secret ("if an input secret is potentially leaked as an output, preemptively mark it as secret").
 */
export function markSecretOutputs(outputs: Props, inputs: Props, additionalSecretOutputs: readonly string[]): Props {
  const result: Props = { ...outputs };
  for (const key of additionalSecretOutputs) if (key !== "id" && key in result) result[key] = secret(result[key]);
  for (const [key, output] of Object.entries(result)) {
    if (!isSecret(output) && isSecret(inputs[key])) result[key] = secret(output);
  }
  return result;
}

/** Deep equality of two property values (PropertyValue.DeepEquals), secrets compared by their content and marking. */
export function deepEquals(a: Value, b: Value): boolean {
  return canonical(a) === canonical(b);
}

/** JSON with sorted keys; `undefined` properties dropped, as they are on the wire. */
export function canonical(value: Value): string {
  if (Array.isArray(value)) return `[${value.map((v) => canonical(v ?? null)).join(",")}]`;
  if (isObject(value)) {
    const entries = Object.entries(value)
      .filter(([, v]) => v !== undefined)
      .sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

export function isObject(value: Value): value is Props {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * A value as Go's `%v` prints a PropertyValue's `V` (what PropertyValue.String() puts inside `{…}`): strings bare,
 * `<nil>`, lists `[{a} {b}]`, maps `map[k:{v}]` with sorted keys, and a secret `&{{v}}`, its content included.
 */
export function goValue(value: Value): string {
  if (isSecret(value)) return `&{{${goValue(value.value)}}}`;
  if (value === undefined || value === null) return "<nil>";
  if (Array.isArray(value)) return `[${value.map((v) => `{${goValue(v)}}`).join(" ")}]`;
  if (isObject(value)) {
    const entries = Object.keys(value)
      .sort()
      .map((k) => `${k}:{${goValue(value[k])}}`);
    return `map[${entries.join(" ")}]`;
  }
  return String(value);
}
