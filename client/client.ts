/**
 * NeonClient: the typed client of Neon's management API that every resource of the provider goes through.
 */
import { ConfigSource, DEFAULT_API_URL, normalizeUrl, NO_KEY_MESSAGE, resolveConfig } from "./config";
import { NeonError } from "./errors";
import { isDone } from "./operation-status";
import { definedOnly } from "./options";
import { projectKey } from "./project-lock";
import { accountHash, RateLimitOptions, sharedLimiter } from "./rate-limit";
import { ApiKeysApi } from "./resources/api-keys";
import { BranchesApi } from "./resources/branches";
import { ClientContext } from "./resources/context";
import { DatabasesApi } from "./resources/databases";
import { EndpointsApi } from "./resources/endpoints";
import { OperationsApi } from "./resources/operations";
import { OrgApiKeysApi } from "./resources/org-api-keys";
import { Progress } from "./progress";
import { ProjectsApi } from "./resources/projects";
import { RolesApi } from "./resources/roles";
import { DEFAULT_RETRY_POLICY, RetryPolicy } from "./retry";
import { Operation } from "./schemas";
import { Transport } from "./transport";
import { DEFAULT_WAIT_POLICY, waitForOperations, WaitOptions, WaitPolicy } from "./wait";

/** Everything a client can be told; only the key is required. */
export interface ClientOptions {
  apiKey: string;
  /** Default `https://console.neon.tech/api/v2`. */
  apiUrl?: string;
  retry?: Partial<RetryPolicy>;
  wait?: Partial<WaitPolicy>;
  /** Source of jitter (tests pass a fixed one). */
  random?: () => number;
  /** One line per request; never contains the key. */
  log?: (line: string) => void;
  /** Process-wide sliding windows per account; `false` switches them off. Default 600/min, 35/s per route. */
  rateLimit?: false | RateLimitOptions;
  /** axios timeout of one attempt; default 60 s. */
  timeoutMs?: number;
  /** Cancels every request, backoff and wait of this client. */
  signal?: AbortSignal;
  /**
   * Where a request retried, or an operation waited for, longer than a few seconds says what it waits for: a line
   * after ~5 s, then every ~30 s (progress.ts). The provider sends them to the Pulumi log. Never contains the key.
   */
  progress?: Progress["say"] | Progress;
}

/** Per-attempt timeout (neonctl's value). */
export const DEFAULT_TIMEOUT_MS = 60_000;

/**
 * The client. Prevents, in one place, what the peers got wrong: 423 storms (per-project serialization), duplicate
 * writes (safe retries only), unreported failed operations, leaked keys and opaque errors.
 */
export class NeonClient {
  readonly apiKeys: ApiKeysApi;
  readonly orgApiKeys: OrgApiKeysApi;
  readonly projects: ProjectsApi;
  readonly branches: BranchesApi;
  readonly roles: RolesApi;
  readonly databases: DatabasesApi;
  readonly endpoints: EndpointsApi;
  readonly operations: OperationsApi;
  readonly apiUrl: string;

  constructor(options: ClientOptions) {
    if (!options || typeof options.apiKey !== "string" || options.apiKey.trim() === "") {
      throw new NeonError({ kind: "config", message: NO_KEY_MESSAGE });
    }
    const apiKey = options.apiKey.trim();
    const apiUrl = normalizeUrl(options.apiUrl ?? DEFAULT_API_URL);
    this.apiUrl = apiUrl;
    const ctx = buildContext(options, apiKey, apiUrl);
    this.apiKeys = new ApiKeysApi(ctx);
    this.orgApiKeys = new OrgApiKeysApi(ctx);
    this.projects = new ProjectsApi(ctx);
    this.branches = new BranchesApi(ctx);
    this.roles = new RolesApi(ctx);
    this.databases = new DatabasesApi(ctx);
    this.endpoints = new EndpointsApi(ctx);
    this.operations = new OperationsApi(ctx);
  }

  /** A client from explicit options, then the Pulumi config, then the environment (see `resolveConfig`). */
  static fromConfig(
    options: Partial<ClientOptions> = {},
    pulumiConfig?: ConfigSource,
    env?: NodeJS.ProcessEnv,
  ): NeonClient {
    const resolved = resolveConfig({ apiKey: options.apiKey, apiUrl: options.apiUrl }, pulumiConfig, env);
    return new NeonClient({ ...options, ...resolved });
  }

  /** Never shows the key when logged or inspected. */
  toJSON(): Record<string, string> {
    return { apiUrl: this.apiUrl };
  }
}

function buildContext(options: ClientOptions, apiKey: string, apiUrl: string): ClientContext {
  const progress = typeof options.progress === "function" ? { say: options.progress } : options.progress;
  const transport = new Transport({
    apiKey,
    apiUrl,
    retry: { ...DEFAULT_RETRY_POLICY, ...definedOnly(options.retry) },
    random: options.random ?? Math.random,
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
    log: options.log,
    signal: options.signal,
    limiter: sharedLimiter(apiUrl, apiKey, options.rateLimit),
    progress,
  });
  const account = accountHash(apiUrl, apiKey);
  const waitPolicy: WaitPolicy = { ...DEFAULT_WAIT_POLICY, ...definedOnly(options.wait) };
  const ctx: ClientContext = {
    transport,
    lockKey: (projectId) => projectKey(account, projectId),
    waitFor: (projectId: string, operations: readonly Operation[], waitOptions?: WaitOptions) =>
      waitForOperations({ operations: operationsReader(ctx) }, projectId, operations, {
        ...waitPolicy,
        signal: options.signal,
        progress,
        ...definedOnly(waitOptions),
      }),
    operationsOf: async (projectId: string, endpointId: string) =>
      (await new OperationsApi(ctx).listAll(projectId)).filter((op) => op.endpoint_id === endpointId && !isDone(op)),
    branchOperationsOf: async (projectId: string, branchId: string) =>
      (await new OperationsApi(ctx).listAll(projectId)).filter((op) => op.branch_id === branchId && !isDone(op)),
  };
  return ctx;
}

function operationsReader(ctx: ClientContext) {
  const api = new OperationsApi(ctx);
  // list: a batch of operations (a resize starts three) is read with one request instead of one per operation
  return {
    get: (projectId: string, id: string) => api.get(projectId, id),
    list: (projectId: string) => api.list(projectId),
  };
}
