/**
 * The one function that sends a request. Every call of the client goes through `Transport.request`, so headers,
 * the request id, rate limiting, retries, error mapping, validation and logging happen in exactly one place.
 */
import axios, { AxiosInstance, AxiosResponse } from "axios";
import { randomUUID } from "crypto";
import { z } from "zod";
import { fromAxiosError } from "./axios-errors";
import { NeonError, redact } from "./errors";
import { Progress } from "./progress";
import { RateLimiter } from "./rate-limit";
import { isRetryable, isSafeMethod, RetryPolicy, withRetry } from "./retry";
import { parseResponse } from "./schemas";

export type HttpMethod = "GET" | "POST" | "PATCH" | "DELETE";

export interface TransportOptions {
  apiKey: string;
  apiUrl: string;
  retry: RetryPolicy;
  random: () => number;
  timeoutMs: number;
  log?: (line: string) => void;
  signal?: AbortSignal;
  limiter?: RateLimiter;
  /** Where a request retried for more than a few seconds says what it waits for (progress.ts). */
  progress?: Progress;
}

/** One request: where, what, and the schema its 2xx body must match. */
export interface RequestSpec<T> {
  method: HttpMethod;
  path: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  schema: z.ZodType<T>;
}

const USER_AGENT = "pulumi-neon-dynamic";

/**
 * Sends requests for one client; the axios instance is per client, never shared at module scope. The key lives
 * only in closures: no property of a transport (or of a client holding one) contains it, so logging or inspecting
 * a client cannot leak it.
 */
export class Transport {
  private readonly http: AxiosInstance;
  private readonly options: Omit<TransportOptions, "apiKey">;
  private readonly authorization: () => string;
  private readonly scrub: (text: string) => string;

  constructor(options: TransportOptions) {
    const { apiKey, ...rest } = options;
    this.options = rest;
    this.authorization = () => `Bearer ${apiKey}`;
    this.scrub = (text) => redact(text, [apiKey]);
    this.http = axios.create({
      baseURL: options.apiUrl,
      timeout: options.timeoutMs,
      transitional: { clarifyTimeoutError: true, silentJSONParsing: true, forcedJSONParsing: true },
      maxRedirects: 0,
    });
  }

  /** Sends with retries and validates the body. Resolves undefined only for 204 / an empty body. */
  async requestOptional<T>(spec: RequestSpec<T>): Promise<T | undefined> {
    const { response, requestId } = await withRetry(
      {
        method: spec.method,
        policy: this.options.retry,
        random: this.options.random,
        signal: this.options.signal,
        onRetry: (error, attempt, delayMs) => this.logRetry(error, attempt, delayMs),
        progress: this.options.progress,
      },
      (attempt) => this.attempt(spec, attempt),
    );
    if (response.status === 204 || response.data === "" || response.data === undefined) return undefined;
    try {
      return parseResponse(spec.schema, response.data, { method: spec.method, path: spec.path, requestId });
    } catch (error) {
      throw shapeAfterWrite(error, spec.method, response.data);
    }
  }

  /** Sends with retries and validates the body; an empty body is a `response_shape` error (`ambiguous` for a write). */
  async request<T>(spec: RequestSpec<T>): Promise<T> {
    const result = await this.requestOptional(spec);
    if (result === undefined) {
      const message = "response does not match the expected shape: empty body";
      const error = new NeonError({ kind: "response_shape", message, method: spec.method, path: spec.path });
      throw shapeAfterWrite(error, spec.method, undefined);
    }
    return result;
  }

  private async attempt<T>(
    spec: RequestSpec<T>,
    attempt: number,
  ): Promise<{ response: AxiosResponse; requestId: string }> {
    await this.options.limiter?.take(spec.method, spec.path, this.options.signal);
    const requestId = randomUUID();
    const started = Date.now();
    try {
      const response = await this.http.request({
        method: spec.method,
        url: spec.path,
        params: spec.query,
        data: spec.body,
        headers: this.headers(requestId, spec.body !== undefined),
        signal: this.options.signal,
      });
      this.logLine(
        `${spec.method} ${spec.path} -> ${response.status} in ${Date.now() - started} ms`,
        attempt,
        requestId,
      );
      return { response, requestId };
    } catch (thrown) {
      const error = this.mapError(thrown, spec, requestId);
      this.logLine(
        `${spec.method} ${spec.path} -> ${describe(error)} in ${Date.now() - started} ms`,
        attempt,
        requestId,
      );
      throw error;
    }
  }

  private mapError(thrown: unknown, spec: RequestSpec<unknown>, requestId: string): NeonError {
    const context = {
      method: spec.method,
      path: spec.path,
      requestId,
      scrub: this.scrub,
      baseUrl: this.options.apiUrl,
    };
    const error = fromAxiosError(thrown, context);
    return error.with({ retryable: isRetryable(spec.method, error) });
  }

  private headers(requestId: string, hasBody: boolean): Record<string, string> {
    const headers: Record<string, string> = {
      Authorization: this.authorization(),
      Accept: "application/json",
      "X-Request-ID": requestId,
      "User-Agent": USER_AGENT,
    };
    if (hasBody) headers["Content-Type"] = "application/json";
    return headers;
  }

  private logRetry(error: NeonError, attempt: number, delayMs: number): void {
    this.logLine(`retrying ${error.method} ${error.path} after ${describe(error)} in ${delayMs} ms`, attempt);
  }

  /** One line per request attempt; redacted again in case an upstream message echoed the key. */
  private logLine(text: string, attempt: number, requestId?: string): void {
    if (!this.options.log) return;
    const id = requestId ? `, request ID: ${requestId}` : "";
    try {
      this.options.log(this.scrub(`${text} (attempt ${attempt}${id})`));
    } catch {
      // a broken logger must not break a request
    }
  }
}

/**
 * A write whose 2xx response does not match its schema was most likely applied (the service answered success):
 * reporting it as a plain failure would orphan what it created. It becomes `ambiguous`, to be settled by reading
 * back, carrying the id the body shows, if any. A read stays `response_shape`.
 */
export function shapeAfterWrite(error: unknown, method: string, body: unknown): unknown {
  if (!(error instanceof NeonError) || error.kind !== "response_shape" || isSafeMethod(method)) return error;
  const message =
    `the outcome of ${error.method} ${error.path} is unknown: the service answered success, but ${error.apiMessage}; ` +
    `it was not resent: read back before retrying`;
  return error.with({ kind: "ambiguous", message, retryable: false, resourceId: idIn(body) });
}

/** The id of the object a write's response shows (`{endpoint: {id}}`, `{branch: {id}}`, `{id}`), if any. */
function idIn(body: unknown): string | undefined {
  const record = body && typeof body === "object" ? (body as Record<string, unknown>) : {};
  for (const candidate of [record.endpoint, record.branch, record]) {
    const id = candidate && typeof candidate === "object" ? (candidate as Record<string, unknown>).id : undefined;
    if (typeof id === "string" || typeof id === "number") return String(id);
  }
  return undefined;
}

function describe(error: NeonError): string {
  if (error.status !== undefined) return `${error.status}`;
  return error.code ?? error.kind;
}
