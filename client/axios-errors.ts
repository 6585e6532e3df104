/**
 * The boundary that turns every axios failure into a NeonError (errors.ts), keeping only strings and numbers, never
 * the axios error (it carries the Bearer token): the API's message, code and request id, a bounded snippet of a body
 * that is not the API's JSON, and for an address where nothing answers, that address and why.
 */
import { isAxiosError } from "axios";
import { kindForStatus, NeonError, NeonErrorInit, snippet } from "./errors";

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
