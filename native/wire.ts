/**
 * Property values as the engine sends them and as the plugin answers: a protobuf Struct whose secrets are objects
 * marked with Pulumi's signature, and whose resource references are objects of their own (the plugin answers
 * Configure with acceptSecrets and acceptResources). The lifecycle code (provider/) reads plain values, so secrets are
 * unwrapped on the way in, remembering which properties held one, and wrapped again on the way out: with
 * acceptSecrets the engine keeps an output secret only if the plugin returns it wrapped (pulumi/pulumi
 * provider_plugin.go, Create: `annotateSecrets` runs only for plugins that do not accept secrets).
 *
 * A preview's unknown value, the string `04da6b54-…` (provider/shared/unknown.ts), passes both ways as it is: the
 * lifecycle code already lets it pass Check and counts it as a change in Diff.
 */
import { Struct } from "google-protobuf/google/protobuf/struct_pb";

type Props = Record<string, unknown>;

/** sdk/nodejs/runtime/rpc.ts: the key of a special object's signature, a secret's and a resource reference's. */
export const SIG_KEY = "4dabf18193072939515e22adb298388d";
export const SECRET_SIG = "1b47061264138c4ac30d75fd1eb44270";
export const RESOURCE_SIG = "5cf8f73096256a8f31e491e813e4eb8e";

/** Properties read off the wire: plain values, and the names of those that held a secret anywhere inside. */
export interface Received {
  props: Props;
  secrets: Set<string>;
}

/** A Struct (possibly absent) as plain properties, secrets unwrapped and noted, references turned into their ids. */
export function receive(struct: Struct | undefined): Received {
  const props: Props = {};
  const secrets = new Set<string>();
  for (const [key, value] of Object.entries(struct?.toJavaScript() ?? {})) {
    const found = { secret: false };
    props[key] = plain(value, found);
    if (found.secret) secrets.add(key);
  }
  return { props, secrets };
}

/**
 * A value without its secret wrappers (`found.secret` set when there was one); a resource reference becomes the
 * referenced resource's id (a custom resource's), else its URN: what the program would have passed as a string.
 */
function plain(value: unknown, found: { secret: boolean }): unknown {
  if (Array.isArray(value)) return value.map((item) => plain(item, found));
  if (value === null || typeof value !== "object") return value;
  const object = value as Props;
  if (object[SIG_KEY] === SECRET_SIG) {
    found.secret = true;
    return plain(object.value, found);
  }
  if (object[SIG_KEY] === RESOURCE_SIG) {
    const id = plain(object.id, found);
    return id !== undefined && id !== "" ? id : object.urn;
  }
  return Object.fromEntries(Object.entries(object).map(([k, v]) => [k, plain(v, found)]));
}

/** A secret as the wire carries it. */
export const secret = (value: unknown): Props => ({ [SIG_KEY]: SECRET_SIG, value });

/**
 * Plain properties as a Struct: the properties named in `secrets` wrapped as secrets, undefined values left out (as
 * JSON leaves them out; the Struct has no undefined, and an error's properties may carry an absent `__provider`).
 */
export function send(props: Props, secrets: Iterable<string> = []): Struct {
  const hidden = new Set(secrets);
  const out: Record<string, never> = {};
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined) continue;
    const clean = JSON.parse(JSON.stringify(value)) as never;
    out[key] = (hidden.has(key) ? secret(clean) : clean) as never;
  }
  return Struct.fromJavaScript(out);
}

/**
 * A message with every value that came in as a secret replaced by `[secret]`: each text, number or boolean held by a
 * property marked secret (`received.secrets`), wherever the message shows it (a refused value, or another property's
 * value a rule compares it with), as a whole word. It may also hide an equal word that was no value: a message says
 * less rather than show a secret.
 */
export function redactSecrets(message: string, received: Received): string {
  const values = [...received.secrets].flatMap((key) => primitivesOf(received.props[key]));
  const written = values.flatMap((value) => [String(value), JSON.stringify(String(value)).slice(1, -1)]);
  const words = [...new Set(written)].filter((word) => word !== "").sort((a, b) => b.length - a.length);
  return words.reduce(
    (text, word) =>
      text.replace(
        new RegExp(`(?<![\\w.-])${word.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![\\w-]|\\.\\d)`, "g"),
        "[secret]",
      ),
    message,
  );
}

/** The texts, numbers and booleans a value holds, at any depth. */
function primitivesOf(value: unknown): unknown[] {
  if (Array.isArray(value)) return value.flatMap(primitivesOf);
  if (value !== null && typeof value === "object") return Object.values(value).flatMap(primitivesOf);
  return value === null || value === undefined ? [] : [value];
}
