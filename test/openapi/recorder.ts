/**
 * Makes "every response the tests see validates against the contract" hold by construction: the faithfulness
 * suites send all their requests through {@link RawHttp} or an axios instance with {@link attachContractCheck},
 * and both hand each response to one {@link ContractRecorder}; an `afterAll` calls `assertClean()`.
 */
import * as http from "http";
import { matchRoute, normalizePath, validateResponse } from "./contract";

/** Routes the emulator serves that the contract subset does not list, mapped to a listed route with the same shape (api.md). */
export const SAME_SHAPE_AS: Record<string, string> = { "/projects/shared": "/projects" };

/** Routes the emulator serves that the contract subset does not describe at all (branches): success bodies are not checked. */
export const OUTSIDE_CONTRACT: RegExp[] = [/^\/projects\/[^/]+\/branches$/];

export interface Recorded {
  method: string;
  path: string;
  status: number;
  body: unknown;
  problems: string[];
}

/** Collects every response and the contract violations among them. */
export class ContractRecorder {
  readonly seen: Recorded[] = [];
  readonly uncovered: string[] = [];

  /** Validates one response, remembers it, and returns its problems (also kept for {@link assertClean}). */
  check(method: string, pathOrUrl: string, status: number, body: unknown, contentType?: string): string[] {
    const p = normalizePath(pathOrUrl);
    const upper = method.toUpperCase();
    let problems: string[];
    if (status < 400 && OUTSIDE_CONTRACT.some((re) => re.test(p))) {
      this.uncovered.push(`${upper} ${p} → ${status}`);
      problems = [];
    } else {
      problems = validateResponse(upper, SAME_SHAPE_AS[p] ?? p, status, body);
    }
    const hasBody = body !== undefined && body !== "";
    if (hasBody && contentType !== undefined && !/^application\/json\b/i.test(contentType)) {
      problems.push(`${upper} ${p} → ${status}: content-type ${contentType}, expected application/json`);
    }
    this.seen.push({ method: upper, path: p, status, body, problems });
    return problems;
  }

  /** All problems seen so far, one line each. */
  violations(): string[] {
    return this.seen.flatMap((r) => r.problems);
  }

  /** Throws when any response seen so far broke the contract. */
  assertClean(): void {
    const problems = this.violations();
    if (problems.length > 0) {
      throw new Error(
        `${problems.length} problem(s) in responses against the OpenAPI contract:\n  ${problems.join("\n  ")}`,
      );
    }
  }

  /** `METHOD template` pairs of the contract that at least one successful response exercised. */
  coveredOperations(): Set<string> {
    const out = new Set<string>();
    for (const r of this.seen) {
      const template = matchRoute(SAME_SHAPE_AS[r.path] ?? r.path);
      if (template && r.status < 400) out.add(`${r.method} ${template}`);
    }
    return out;
  }
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  text: string;
  /** Parsed JSON, the raw text when it is not JSON, `undefined` when empty. */
  body: unknown;
  problems: string[];
}

export interface RawRequest {
  method: string;
  /** Appended to the base path as-is (no normalization), so odd paths reach the server unchanged. */
  path: string;
  /** JSON-encoded unless `raw` is given. */
  json?: unknown;
  raw?: string | Buffer;
  headers?: Record<string, string>;
  /** `null` sends no Authorization header; default: the recorder's key. */
  apiKey?: string | null;
}

function parseBody(text: string): unknown {
  if (text === "") return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** A plain Node `http` client for the emulator: keep-alive, raw paths, every response validated. */
export class RawHttp {
  private readonly url: URL;
  readonly agent = new http.Agent({ keepAlive: true, maxSockets: 16 });

  constructor(
    baseUrl: string,
    private readonly apiKey: string,
    readonly recorder: ContractRecorder = new ContractRecorder(),
  ) {
    this.url = new URL(baseUrl);
  }

  request(req: RawRequest): Promise<RawResponse> {
    const payload = req.raw ?? (req.json === undefined ? undefined : JSON.stringify(req.json));
    const headers: Record<string, string> = { accept: "application/json", ...req.headers };
    const key = req.apiKey === undefined ? this.apiKey : req.apiKey;
    if (key !== null) headers.authorization = `Bearer ${key}`;
    if (payload !== undefined) {
      headers["content-type"] ??= "application/json";
      headers["content-length"] = String(Buffer.byteLength(payload));
    }
    const options = {
      host: this.url.hostname,
      port: this.url.port,
      method: req.method,
      path: this.url.pathname.replace(/\/$/, "") + req.path,
      headers,
      agent: this.agent,
    };
    return this.send(req, options, payload, true);
  }

  /**
   * One request; one that failed with ECONNRESET on a kept-alive socket (the server closed it as it was reused) is sent
   * again once, on a new socket, as Node's documentation advises (http.ClientRequest.reusedSocket).
   */
  private send(req: RawRequest, options: http.RequestOptions, payload: string | Buffer | undefined, retry: boolean) {
    return new Promise<RawResponse>((resolve, reject) => {
      const outgoing = http.request(options, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("error", reject);
        res.on("end", () => {
          const text = Buffer.concat(chunks).toString("utf8");
          const body = parseBody(text);
          const status = res.statusCode ?? 0;
          const problems = this.recorder.check(req.method, req.path, status, body, res.headers["content-type"]);
          resolve({ status, headers: res.headers, text, body, problems });
        });
      });
      outgoing.on("error", (err: NodeJS.ErrnoException) => {
        if (retry && outgoing.reusedSocket && err.code === "ECONNRESET") {
          this.send(req, options, payload, false).then(resolve, reject);
        } else reject(err);
      });
      outgoing.end(payload);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}

/**
 * The part of an axios instance this module touches. Structural and loose on purpose: the api-client may bring
 * its own copy of axios, whose generic interceptor types do not unify with ours.
 */
export interface AxiosLike {
  interceptors: { response: object };
}
interface ResponseInterceptors {
  use(onFulfilled: (r: AxiosResponseLike) => AxiosResponseLike, onRejected: (e: unknown) => unknown): number;
}

export interface AxiosResponseLike {
  status: number;
  data: unknown;
  headers: unknown;
  config: { method?: string; url?: string; baseURL?: string };
}

function checkAxios(recorder: ContractRecorder, r: AxiosResponseLike): void {
  const url = `${r.config.baseURL ?? ""}${r.config.url ?? ""}`;
  const headers = r.headers as { get?: (name: string) => unknown; [name: string]: unknown } | undefined;
  const contentType = headers?.["content-type"] ?? headers?.["Content-Type"];
  const body = r.data === "" ? undefined : r.data;
  recorder.check(
    r.config.method ?? "get",
    url,
    r.status,
    body,
    typeof contentType === "string" ? contentType : undefined,
  );
}

/** Validates every response (successful or not) an axios instance receives, e.g. `createApiClient(...).instance`. */
export function attachContractCheck(instance: AxiosLike, recorder: ContractRecorder): void {
  (instance.interceptors.response as ResponseInterceptors).use(
    (response) => {
      checkAxios(recorder, response);
      return response;
    },
    (error: unknown) => {
      const response = (error as { response?: AxiosResponseLike }).response;
      if (response) checkAxios(recorder, response);
      return Promise.reject(error);
    },
  );
}
