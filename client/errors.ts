/**
 * The one error type of the client, and the boundary that turns every axios failure into it.
 *
 * Rules learned from bugs (peers and octokit):
 * - axios errors carry `config.headers`, i.e. the Bearer token; serialising one (JSON.stringify, a logger, Pulumi's
 *   error reporter) leaks the key. We never keep an axios error, not even as `cause`.
 * - "Request failed with status code 423" tells a user nothing; the API's message and request id do.
 */
import { isAxiosError } from "axios";

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

/** Where and how a request was made, for the error built from its failure. */
export interface RequestContext {
  method: string;
  path: string;
  requestId: string;
  /** Removes what must never appear in what we render (the API key). */
  scrub: (text: string) => string;
  /** The API base URL the request went to, named when nothing answers there. */
  baseUrl?: string;
}

/**
 * Network failures that mean nothing answers at the configured address, so no server saw the request: a refused
 * connection (nothing listens there) and a host name that does not resolve. Retrying them for minutes only hides a
 * wrong `neon:apiUrl`; a few quick attempts tell a restarting server from a wrong address.
 */
export const UNREACHABLE_CODES: Readonly<Record<string, string>> = {
  ECONNREFUSED: "the connection was refused: nothing listens at",
  ENOTFOUND: "the host name does not resolve:",
};

/** True when the error says that nothing answers at the API's address (see `UNREACHABLE_CODES`). */
export function isUnreachable(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { kind, code } = error as { kind?: unknown; code?: unknown };
  return kind === "network" && typeof code === "string" && code in UNREACHABLE_CODES;
}

/** `http://host:port/path` of a URL, without credentials, query or fragment; the text itself when it does not parse. */
export function displayUrl(url: string): string {
  const parsed = parseUrl(url);
  return parsed ? `${parsed.protocol}//${parsed.host}${parsed.pathname.replace(/\/+$/, "")}` : url;
}

function parseUrl(url: string): URL | undefined {
  try {
    return new URL(url);
  } catch {
    return undefined;
  }
}

/**
 * `cannot reach the Neon API at http://127.0.0.1:1/api/v2: the connection was refused: nothing listens at
 * 127.0.0.1:1 (ECONNREFUSED)`: the address and why, and no request ID (no server saw one).
 */
function unreachableError(code: string, ctx: RequestContext): NeonError {
  const host = ctx.baseUrl ? parseUrl(ctx.baseUrl)?.host : undefined;
  const why = `${UNREACHABLE_CODES[code]} ${host || "that address"} (${code})`;
  const at = ctx.baseUrl ? ` at ${displayUrl(ctx.baseUrl)}` : "";
  const message = ctx.scrub(`cannot reach the Neon API${at}: ${why}`);
  return new NeonError({ kind: "network", code, message, method: ctx.method, path: ctx.path });
}

/**
 * Maps anything a request can throw into a NeonError, keeping only strings and numbers. Prevents the key leaking
 * through an axios error's `config.headers`, and an opaque "Request failed with status code 500".
 */
export function fromAxiosError(error: unknown, ctx: RequestContext): NeonError {
  if (error instanceof NeonError) return error;
  const base = { method: ctx.method, path: ctx.path, requestId: ctx.requestId };
  if (!isAxiosError(error)) {
    const message = ctx.scrub(error instanceof Error ? error.message : String(error));
    return new NeonError({ ...base, kind: "network", message });
  }
  if (error.response) {
    const { status, data, headers } = error.response;
    const body = parseErrorBody(data);
    const requestId = body.requestId || headerString(headers, "x-request-id") || ctx.requestId;
    const message = ctx.scrub(body.message || `${status} with no message`);
    const retryAfter = headerString(headers, "retry-after");
    const replaced = replacedWorld(status, headers, ctx);
    if (replaced) return new NeonError({ ...base, status, requestId, ...replaced });
    const kind = kindForStatus(status, message);
    return new NeonError({ ...base, kind, status, code: body.code, requestId, message, retryAfter });
  }
  if (error.code === "ERR_CANCELED") {
    return new NeonError({ ...base, kind: "cancelled", message: "request cancelled", code: error.code });
  }
  const code = error.code || (error.cause as { code?: string } | undefined)?.code;
  if (code !== undefined && code in UNREACHABLE_CODES) return unreachableError(code, ctx);
  const message = ctx.scrub(`network error: ${code ?? "unknown"} ${error.message}`.trim());
  return new NeonError({ ...base, kind: "network", code, message });
}

/**
 * A 401 or 404 from the local emulator (emulator/world-identity.ts) for a key or project of a world it replaced when
 * it was started fresh: not a wrong key, nor an object deleted (a read must not drop it from state), but a world gone.
 */
function replacedWorld(
  status: number,
  headers: unknown,
  ctx: RequestContext,
): Pick<NeonErrorInit, "kind" | "message" | "world"> | undefined {
  const previous = headerString(headers, "x-neon-emulator-previous-world");
  const now = headerString(headers, "x-neon-emulator-world");
  if ((status !== 401 && status !== 404) || previous === undefined || now === undefined) return undefined;
  const at = ctx.baseUrl ? ` at ${displayUrl(ctx.baseUrl)}` : "";
  const message = `the emulator${at} was started fresh: this request's key or project is of its previous world (${previous}), gone since; it serves a new one (${now})`;
  return { kind: "replaced_world", message, world: { now, previous } };
}

function parseErrorBody(data: unknown): { message: string; code?: string; requestId?: string } {
  if (data && typeof data === "object" && !Buffer.isBuffer(data)) {
    const record = data as Record<string, unknown>;
    if (typeof record.message === "string") {
      return {
        message: record.message,
        code: typeof record.code === "string" ? record.code : undefined,
        requestId: typeof record.request_id === "string" ? record.request_id : undefined,
      };
    }
  }
  const text = snippet(data);
  return { message: text ? `unexpected response body: ${text}` : "" };
}

function headerString(headers: unknown, name: string): string | undefined {
  if (!headers || typeof headers !== "object") return undefined;
  const value = (headers as Record<string, unknown>)[name];
  return typeof value === "string" && value !== "" ? value : undefined;
}
