/**
 * What a refusal of a compute write (HTTP 400 or 422) is about, judged from the service's own message without relying
 * on its wording, so that advice is given only where it fits. A request that moves a compute and resizes it at once
 * can be refused for the size (a Free plan's limit): advice about the move would hide the real reason. Every message
 * built here starts with the service's.
 */
import { errorKind } from "./errors";

/** `subject`: the message mentions it; `other`: it names another field the request carried; `unclear`: neither. */
export type RefusalSubject = "subject" | "other" | "unclear";

/** Fields whose names are too common in messages to say what a refusal is about. */
const GENERIC_FIELDS = new Set(["name", "type"]);

/**
 * What a refusal is about, or undefined when `error` is no refusal. `subject` is what the message mentions when it is
 * about the subject (/branch/i, /pooler/i: loose, since the wording is unknown); `own` are the subject's fields.
 */
export function refusalAbout(
  error: unknown,
  subject: RegExp,
  fields: Record<string, unknown>,
  own: readonly string[],
): RefusalSubject | undefined {
  if (errorKind(error) !== "validation") return undefined;
  const message = serviceMessage(error);
  if (subject.test(message)) return "subject";
  const others = Object.keys(fields).filter((field) => !own.includes(field) && !GENERIC_FIELDS.has(field));
  return others.some((field) => new RegExp(`\\b${field}\\b`).test(message)) ? "other" : "unclear";
}

/** The service's own message of a client error (its `apiMessage`), else the error's message. */
export function serviceMessage(error: unknown): string {
  const api = (error as { apiMessage?: unknown } | undefined)?.apiMessage;
  return typeof api === "string" ? api : error instanceof Error ? error.message : String(error);
}

/** The deprecated pooler fields: input → the field of the request. */
const POOLER_FIELDS: ReadonlyArray<readonly [string, string]> = [
  ["poolerEnabled", "pooler_enabled"],
  ["poolerMode", "pooler_mode"],
];

/**
 * A refusal of a request that carried the deprecated pooler fields, with what to do. Neon deprecated them (OpenAPI:
 * `pooler_mode` "will be removed after 2026-06-20", `pooler_enabled` without a date); a service that no longer has
 * them may apply them, ignore them or refuse them. The provider sends them only when the program sets them, and when
 * a refusal is about them (its message mentions pooler) says to remove them; when it cannot tell, it says so
 * conditionally. Undefined when the advice does not apply (no refusal, no pooler field sent, another field named).
 */
export function poolerRefusal(error: unknown, fields: Record<string, unknown>): Error | undefined {
  const sent = POOLER_FIELDS.filter(([, field]) => fields[field] !== undefined).map(([input]) => input);
  if (sent.length === 0) return undefined;
  const about = refusalAbout(
    error,
    /pooler/i,
    fields,
    POOLER_FIELDS.map(([, field]) => field),
  );
  if (about !== "subject" && about !== "unclear") return undefined;
  const what = sent.join(" and ");
  const remove =
    `remove ${what} from the program: Neon deprecated the pooler settings, and pooling is always available through ` +
    `the pooled host (the poolerHost output)`;
  const advice =
    about === "subject"
      ? `The service no longer accepts the deprecated pooler settings: ${remove}.`
      : `This request carried the deprecated ${what}; if the refusal is about ${sent.length > 1 ? "them" : "it"}, ${remove}.`;
  return new Error(`${(error as Error).message}. ${advice}`, { cause: error });
}
