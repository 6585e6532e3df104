import type { IncomingMessage, ServerResponse } from "node:http";
import { scopeRefusal } from "./access";
import { authenticate, peekKey } from "./auth";
import { hasBody, parseJson, readBody } from "./body";
import { ApiError, notFound, methodNotAllowed, tooManyRequests } from "./errors";
import { faultError, isErrorFault, PROXY_TIMEOUT, type Fault, type FaultInjector } from "./faults";
import type { RateLimiter } from "./rate-limit";
import type { ReplyScript } from "./replies";
import { decodeParams, requestIdOf, splitPath } from "./request-parts";
import { Router, type AppState, type Match, type Reply } from "./router";
import { adminRoutes } from "./routes/admin";
import { apiKeyRoutes } from "./routes/api-keys";
import { branchRoutes } from "./routes/branches";
import { connectionUriRoutes } from "./routes/connection-uri";
import { databaseRoutes } from "./routes/databases";
import { endpointRoutes } from "./routes/endpoints";
import { operationRoutes } from "./routes/operations";
import { orgApiKeyRoutes } from "./routes/org-api-keys";
import { projectRoutes } from "./routes/projects";
import { roleRoutes } from "./routes/roles";
import type { KeyRecord } from "./types";
import { PREVIOUS_WORLD_HEADER, previousWorldOf, WORLD_HEADER } from "./world-identity";

export interface RequestLogEntry {
  method: string;
  path: string; // after /api/v2, without the query
  status: number; // 0 when the connection was destroyed instead of answered
  at: number; // service time of arrival
  requestId: string;
  fault?: string;
}

export interface AppOptions {
  faults?: FaultInjector;
  replies?: ReplyScript; // a test device: scripted rewrites of replies (replies.ts)
  rateLimiter?: RateLimiter; // absent = no rate limit
  latencyMs?: number;
  maxBodyBytes?: number; // default 1 MiB
  log?: (line: string) => void;
  onRequest?: (entry: RequestLogEntry) => void;
  onMutation?: () => void; // the store is dirty after a request
}

const API_PREFIX = "/api/v2";

const apiRouter = new Router().add([
  ...apiKeyRoutes,
  ...orgApiKeyRoutes,
  ...projectRoutes,
  ...branchRoutes,
  ...roleRoutes,
  ...databaseRoutes,
  ...connectionUriRoutes,
  ...endpointRoutes,
  ...operationRoutes,
]);
const adminRouter = new Router().add(adminRoutes);

/** The one terminal place that turns a thrown error into the real error body; unknown errors are a 500. */
function errorReply(err: unknown, requestId: string, log?: (line: string) => void): FullReply {
  if (err instanceof ApiError) {
    return {
      status: err.status,
      body: { code: err.code, message: err.message, request_id: requestId },
      headers: err.headers,
    };
  }
  log?.(`internal error ${requestId}: ${err instanceof Error ? err.stack : String(err)}`);
  return { status: 500, body: { code: "", message: "internal server error", request_id: requestId } };
}

type FullReply = Reply & { headers?: Record<string, string> };

/** One request/response exchange: keeps each step small and the order of steps in one place (`start`). */
class Exchange {
  private readonly entry: RequestLogEntry;
  private readonly isApi: boolean;
  private readonly path: string;
  private readonly query: string;
  private readonly match: Match;
  private fault: Fault | undefined;

  constructor(
    private readonly state: AppState,
    private readonly options: AppOptions,
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
  ) {
    const url = req.url ?? "/";
    const q = url.indexOf("?");
    const rawPath = q < 0 ? url : url.slice(0, q);
    this.query = q < 0 ? "" : url.slice(q + 1);
    this.isApi = rawPath === API_PREFIX || rawPath.startsWith(`${API_PREFIX}/`);
    this.path = this.isApi ? rawPath.slice(API_PREFIX.length) || "/" : rawPath;
    const method = req.method ?? "GET";
    this.entry = {
      method,
      path: this.path,
      status: 0,
      at: state.clock.now(),
      requestId: requestIdOf(req.headers["x-request-id"]),
    };
    const segments = splitPath(this.path);
    if (this.isApi) this.match = apiRouter.match(method, segments);
    else if (rawPath.startsWith("/_emulator/")) this.match = adminRouter.match(method, segments.slice(1));
    else this.match = { kind: "none" };
    this.fault = this.match.kind === "route" ? options.faults?.pick(method, this.path) : undefined;
    if (this.fault) this.entry.fault = this.fault.kind;
  }

  /** Slow faults wait first; resets answer nothing; then the body is read (capped) and the request runs. */
  start(): void {
    if (this.fault?.kind === "slow") {
      const delay = this.fault.delayMs;
      this.fault = undefined;
      setTimeout(() => this.start(), delay);
      return;
    }
    if (this.fault?.kind === "reset") return this.destroy();
    if (hasBody(this.req))
      readBody(this.req, this.options.maxBodyBytes ?? 1024 * 1024, (err, buf) => this.run(err, buf));
    else this.run(undefined, undefined);
  }

  private run(bodyErr: ApiError | undefined, buf: Buffer | undefined): void {
    let reply: FullReply;
    try {
      if (bodyErr) throw bodyErr;
      reply = this.handle(buf);
    } catch (err) {
      reply = errorReply(err, this.entry.requestId, this.options.log);
    }
    if (this.state.store.dirty) this.options.onMutation?.();
    if (this.options.latencyMs) setTimeout(() => this.send(reply), this.options.latencyMs);
    else this.send(reply);
  }

  /** Routing errors, injected errors, JSON, auth, rate limit, then the route; any throw becomes the error body. */
  private handle(buf: Buffer | undefined): FullReply {
    const m = this.match;
    if (m.kind === "none") throw notFound(this.isApi ? "path" : "page");
    if (m.kind === "method")
      throw this.refusalOf(peekKey(this.state.store, this.req.headers.authorization)) ?? methodNotAllowed(m.allowed);
    const { retryAfter } = this.state.behaviours;
    if (this.fault && isErrorFault(this.fault.kind)) throw faultError(this.fault.kind, retryAfter);
    const body = parseJson(buf);
    const now = this.state.clock.now();
    const { store } = this.state;
    const { account, key } = authenticate(store, this.req.headers.authorization, this.req.socket.remoteAddress, now);
    const refusal = this.refusalOf(key);
    if (refusal) throw refusal;
    const wait = this.options.rateLimiter?.take(account.id, `${this.entry.method} ${m.route.pattern}`, now) ?? 0;
    if (wait > 0) throw tooManyRequests(retryAfter ? wait : undefined);
    const params = decodeParams(m.params);
    const query = new URLSearchParams(this.query);
    return m.route.handler({ state: this.state, account, key, params, query, body, now });
  }

  /** A key's refusal of an API path outside its reach (access.ts); none for the emulator's own routes. */
  private refusalOf(key: KeyRecord | undefined): ApiError | undefined {
    return key && this.isApi ? scopeRefusal(key, this.entry.method, this.path) : undefined;
  }

  /** Ambiguous faults lose the response; 524 faults replace it (either way, after the route has run). */
  private send(applied: FullReply): void {
    if (this.fault?.kind === "ambiguous") return this.destroy();
    const reply =
      this.fault?.kind === "524"
        ? this.proxyTimeout()
        : (this.options.replies?.apply(this.entry.method, this.path, applied) ?? applied);
    if (reply.status === 204) {
      this.res.writeHead(204, { "X-Request-ID": this.entry.requestId, ...this.worldHeaders(204) });
      this.res.end();
      return this.record(204);
    }
    const text = JSON.stringify(reply.body);
    this.res.writeHead(reply.status, {
      "Content-Type": "application/json",
      "Content-Length": Buffer.byteLength(text),
      "X-Request-ID": this.entry.requestId,
      ...this.worldHeaders(reply.status),
      ...(reply.status === 413 ? { Connection: "close" } : {}),
      ...reply.headers,
    });
    this.res.end(text);
    this.record(reply.status);
  }

  /** The world it serves; on a 401 or 404, the replaced world the request's key or project belongs to (if any). */
  private worldHeaders(status: number): Record<string, string> {
    const { world } = this.state.store;
    const refused = status === 401 || status === 404;
    const previous = refused ? previousWorldOf(world, this.req.headers.authorization, this.path) : undefined;
    return { [WORLD_HEADER]: world.id, ...(previous ? { [PREVIOUS_WORLD_HEADER]: previous } : {}) };
  }

  private proxyTimeout(): FullReply {
    return { status: 524, body: { code: "", message: PROXY_TIMEOUT, request_id: this.entry.requestId } };
  }

  /** The connection dies before any response byte: the client cannot know whether the change happened. */
  private destroy(): void {
    this.req.socket.destroy();
    this.record(0);
  }

  private record(status: number): void {
    const e = this.entry;
    e.status = status;
    this.options.onRequest?.(e);
    this.options.log?.(
      `${e.method} ${e.path} ${status || "reset"}${e.fault ? ` fault=${e.fault}` : ""} ${e.requestId}`,
    );
  }
}

/**
 * The request handler (it does not listen by itself): routing, body cap, faults, auth, rate limit, the route,
 * and the error mapping. Bad input of any kind ends as a 4xx JSON error, never a 5xx, with the state unchanged.
 */
export function createApp(
  state: AppState,
  options: AppOptions = {},
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => new Exchange(state, options, req, res).start();
}
