/**
 * The one error type of the client, its message, what it redacts, and the kind an HTTP status means. The boundary
 * that turns every axios failure into it: axios-errors.ts.
 *
 * Rules learned from bugs (peers and octokit):
 * - axios errors carry `config.headers`, i.e. the Bearer token; serialising one (JSON.stringify, a logger, Pulumi's
 *   error reporter) leaks the key. We never keep an axios error, not even as `cause`.
 * - "Request failed with status code 423" tells a user nothing; the API's message and request id do.
 */

/** What went wrong, to switch on instead of parsing messages. */
export type NeonErrorKind =
  | "config"
  | "auth"
  | "not_found"
  | "conflict"
  | "validation"
  | "locked"
  | "rate_limit"
  | "not_ready"
  | "server"
  | "network"
  | "ambiguous"
  | "operation_failed"
  | "wait_timeout"
  | "response_shape"
  | "cancelled"
  | "replaced_world";

/** The facts of an operation that failed or is still pending when a wait gave up. */
export interface OperationFacts {
  id: string;
  action: string;
  status: string;
  error?: string;
}

export interface NeonErrorInit {
  kind: NeonErrorKind;
  /** The API's message (or our own description when there is no response). */
  message: string;
  status?: number;
  code?: string;
  requestId?: string;
  method?: string;
  path?: string;
  retryable?: boolean;
  operation?: OperationFacts;
  /** Id of an object that was created or changed before the failure (so the caller never orphans it). */
  resourceId?: string;
  /** The raw `Retry-After` header of the response, interpreted by the retry policy. */
  retryAfter?: string;
  /** Kind `replaced_world`: the emulator's world now, and the one the request's key or project belongs to. */
  world?: { now: string; previous: string };
}

/**
 * Every failure of the client. Prevents two failures: opaque errors (it carries status, the API's message, the
 * request id, method and path) and leaked credentials (it holds only plain strings and numbers we chose; never a
 * request, a response, headers or an axios error).
 */
export class NeonError extends Error {
  readonly kind: NeonErrorKind;
  readonly apiMessage: string;
  readonly status?: number;
  readonly code?: string;
  readonly requestId?: string;
  readonly method?: string;
  readonly path?: string;
  readonly retryable: boolean;
  readonly operation?: OperationFacts;
  readonly resourceId?: string;
  readonly retryAfter?: string;
  readonly world?: { now: string; previous: string };

  constructor(init: NeonErrorInit) {
    super(renderMessage(init));
    this.name = "NeonError";
    this.kind = init.kind;
    this.apiMessage = init.message;
    this.retryable = init.retryable ?? false;
    const optional = [
      "status",
      "code",
      "requestId",
      "method",
      "path",
      "operation",
      "resourceId",
      "retryAfter",
      "world",
    ];
    for (const key of optional) {
      const value = (init as unknown as Record<string, unknown>)[key];
      if (value !== undefined && value !== "") (this as unknown as Record<string, unknown>)[key] = value;
    }
  }

  /** A copy with some facts changed (the message is re-rendered). */
  with(changes: Partial<NeonErrorInit>): NeonError {
    return new NeonError({ ...this.init(), ...changes });
  }

  /** The facts this error was built from. */
  init(): NeonErrorInit {
    const { kind, apiMessage: message, status, code, requestId, method, path, retryable } = this;
    return { kind, message, status, code, requestId, method, path, retryable, ...this.extras() };
  }

  private extras(): Partial<NeonErrorInit> {
    const { operation, resourceId, retryAfter, world } = this;
    return { operation, resourceId, retryAfter, world };
  }
}

/** `HTTP 423: <message> (POST /projects/p/endpoints, request ID: …)`, or `<message> (...)` without a status. */
export function renderMessage(init: NeonErrorInit): string {
  const where: string[] = [];
  if (init.method && init.path) where.push(`${init.method} ${init.path}`);
  if (init.requestId) where.push(`request ID: ${init.requestId}`);
  if (init.resourceId) where.push(`id: ${init.resourceId}`);
  const suffix = where.length > 0 ? ` (${where.join(", ")})` : "";
  const prefix = init.status !== undefined && init.kind !== "ambiguous" ? `HTTP ${init.status}: ` : "";
  return `${prefix}${init.message || "no message"}${suffix}`;
}

const SNIPPET_MAX = 200;

/** A bounded, single-line excerpt of a body that is not the API's JSON error (an HTML proxy page, say). */
export function snippet(body: unknown): string {
  let text: string;
  if (typeof body === "string") text = body;
  else if (Buffer.isBuffer(body)) text = body.toString("utf8");
  else if (body === undefined || body === null) text = "";
  else text = safeJson(body);
  text = text.replace(/\s+/g, " ").trim();
  return text.length > SNIPPET_MAX ? `${text.slice(0, SNIPPET_MAX)}…` : text;
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "";
  } catch {
    return String(value);
  }
}

/**
 * Secrets found by their shape rather than their value: the Bearer token, a role's password in JSON (`"password":
 * "…"`, also JSON inside a JSON string, up to its closing quote or the end of a truncated snippet), a `password=`
 * parameter, and the password of a Postgres URI (`postgresql://role:…@host`). Guards an error body or a message
 * that echoes a role or a connection URI.
 */
const SHAPED_SECRETS: readonly [RegExp, string][] = [
  [/Bearer\s+[^\s"',)]+/gi, "Bearer [REDACTED]"],
  [/(\\?"password\\?"\s*:\s*\\?")(?:\\.|[^"\\])*/gi, "$1[REDACTED]"],
  [/(\bpassword=)[^&\s"']*/gi, "$1[REDACTED]"],
  [/(\bpostgres(?:ql)?:\/\/[^\s:@/]*:)[^\s@]*@/gi, "$1[REDACTED]@"],
];

/** Replaces every occurrence of a secret in a text: the last line of defence for anything we render. */
export function redact(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= 4) out = out.split(secret).join("[REDACTED]");
  }
  for (const [pattern, replacement] of SHAPED_SECRETS) out = out.replace(pattern, replacement);
  return out;
}

/**
 * Refusals that pass with time, by status and message: kind `not_ready`, retried even for writes since the
 * service did not act (api.md, "Transient errors": `422 branch not ready yet` right after a branch is created).
 */
export const NOT_READY: readonly { status: number; message: RegExp }[] = [
  { status: 422, message: /branch not ready/i },
];

/** The error kind an HTTP status (and, for the `NOT_READY` refusals, its message) means. */
export function kindForStatus(status: number, message = ""): NeonErrorKind {
  if (NOT_READY.some((r) => r.status === status && r.message.test(message))) return "not_ready";
  if (status === 401 || status === 403) return "auth";
  if (status === 404) return "not_found";
  if (status === 409) return "conflict";
  if (status === 423) return "locked";
  if (status === 429) return "rate_limit";
  if (status >= 500) return "server";
  return "validation";
}
