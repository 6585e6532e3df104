/**
 * What a refusal of a write (HTTP 400 or 422) is about, judged from the service's own message without relying on its
 * wording, so that a resource gives advice only where it fits: a request that moves a compute and resizes it at once
 * can be refused for the size (a Free plan's limit), and advice about the move would hide the real reason.
 */
import { errorKind } from "./errors";

/** `subject`: the message mentions it; `other`: it names another field the request carried; `unclear`: neither. */
export type RefusalSubject = "subject" | "other" | "unclear";

/** Fields whose names are too common in messages to say what a refusal is about. */
const GENERIC_FIELDS = new Set(["name", "type"]);

/**
 * What a refusal is about, or undefined when `error` is no refusal. `subject` is what the message mentions when it is
 * about the subject (/branch/i, /pooler/i: loose, since the wording is unknown); `fields` are the request's fields and
 * `own` the subject's.
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
