/**
 * The provider's process-wide state inside the plugin: the stack configuration handed over by
 * `configure()`, and one client per (API URL, key), shared by every resource of the process so that the
 * client's per-project serialization and rate limiter see all of the process's requests (no 423 storms).
 *
 * Credentials are read when a request is about to be made, never at program time, so that nothing
 * secret is captured into `__provider` and a rotated key in the environment takes effect at once.
 */
import { createHash } from "crypto";
import {
  CONFIG_KEYS,
  configValue,
  ConfigSource,
  DEFAULT_API_URL,
  NeonClient,
  NeonError,
  NO_KEY_MESSAGE,
  RateLimitOptions,
  resolveConfig,
} from "../../client";
import { once } from "./diagnostics";
import { stableJson } from "./stable-json";

let stackConfig: ConfigSource | undefined;
/** The explicit provider resource whose inputs configure this process (`new neon.Provider("other", …)`), if one does. */
let explicitProvider: string | undefined;
const clients = new Map<string, NeonClient>();
let checkedProgram = false;

/**
 * Called by each resource's `configure()` with the whole stack configuration the engine sends (every namespace;
 * for `refresh` and `destroy`, the configuration saved by the last `up`). Only `neon:*` keys are read from it. The
 * native plugin configured by an explicit provider resource passes that provider's inputs and its name (`provider`),
 * so that messages name the provider's `apiKey` rather than the stack's `neon:apiKey`.
 */
export function configure(config: ConfigSource | undefined, provider?: string): void {
  stackConfig = config;
  explicitProvider = provider;
}

/** Each resource's `configure` (impl.ts re-exports it): the engine's request, its configuration read as above. */
export async function configureProvider(req: { config?: ConfigSource }): Promise<void> {
  configure(req.config);
}

/**
 * The inputs a resource's Check passed in this process, by value. The engine checks a registration's inputs before it
 * diffs them for an `up` or a `preview`; the Diff it sends after a refresh's Read (news = the stored inputs) and the
 * Diffs that probe the dependents of a delete-before-replace come without a Check. Only a Diff of checked inputs plans
 * a change, so only that one warns (pulumi/pulumi step_generator.go continueStepsFromImport; step.go RefreshStep.Apply).
 */
export class CheckedInputs {
  private readonly seen = new Set<string>();
  add(inputs: Record<string, unknown>): void {
    this.seen.add(stableJson(inputs));
  }
  has(inputs: Record<string, unknown>): boolean {
    return this.seen.has(stableJson(inputs));
  }
}

/**
 * Called by each resource's `check`. The engine checks only the registrations of a program it runs (`up`, `preview`,
 * `destroy --run-program`), and a program's registrations configure the provider with the stack's current
 * configuration; `refresh` and `destroy` run no program, check nothing, and configure it with the configuration saved
 * by the last `up` (settings-advice.ts: only then can the key in use differ from the one configured now).
 */
export function noteProgramCheck(inputs: Record<string, unknown>): void {
  checkedProgram = true;
  requireKey(inputs);
}

/**
 * A preview sends no request, but a key missing everywhere is known from the configuration alone: the check fails as
 * the `up` would, with the same message, instead of a preview that passes and an `up` that fails. A resource's own
 * `apiKey` input, when it has one (even one unknown until the update), supplies it.
 */
function requireKey(inputs: Record<string, unknown>): void {
  if (inputs.apiKey !== undefined && inputs.apiKey !== "") return;
  try {
    resolvedConfig();
  } catch (error) {
    throw error instanceof Error ? once(error) : error;
  }
}

/** True when this process checked a program's inputs: it is configured with the stack's current configuration. */
export function configuredByProgram(): boolean {
  return checkedProgram;
}

/** Where the key and the URL in use come from, for advice that names them (never the key itself). */
export interface SettingsInUse {
  apiUrl: string;
  /** "provider": the `apiUrl` input of the explicit provider `provider`. */
  apiUrlFrom: "neon:apiUrl" | "NEON_API_HOST" | "default" | "provider";
  /** Undefined when no key is set anywhere; "provider": the `apiKey` input of the explicit provider `provider`. */
  apiKeyFrom?: "neon:apiKey" | "NEON_API_KEY" | "provider";
  /** The explicit provider resource configuring this process, by name. */
  provider?: string;
}

/** The settings `client()` uses, and where each comes from (the same precedence as `resolveConfig`). */
export function settingsInUse(env: NodeJS.ProcessEnv = process.env): SettingsInUse {
  const isSet = (value: string | undefined) => value !== undefined && value.trim() !== "";
  const configured = configValue(stackConfig, CONFIG_KEYS.apiUrl);
  const configuredFrom = explicitProvider === undefined ? "neon:apiUrl" : "provider";
  const apiUrlFrom = isSet(configured) ? configuredFrom : isSet(env.NEON_API_HOST) ? "NEON_API_HOST" : "default";
  const raw = isSet(configured) ? configured : apiUrlFrom === "NEON_API_HOST" ? env.NEON_API_HOST : undefined;
  const apiUrl = (raw ?? DEFAULT_API_URL).trim().replace(/\/+$/, "");
  const keyInConfig = isSet(configValue(stackConfig, CONFIG_KEYS.apiKey));
  const keyFrom = explicitProvider === undefined ? "neon:apiKey" : "provider";
  const apiKeyFrom = keyInConfig ? keyFrom : isSet(env.NEON_API_KEY) ? "NEON_API_KEY" : undefined;
  return {
    apiUrl,
    apiUrlFrom,
    ...(apiKeyFrom ? { apiKeyFrom } : {}),
    ...(explicitProvider === undefined ? {} : { provider: explicitProvider }),
  };
}

/**
 * The key and URL in use (`resolveConfig`'s precedence). With no key anywhere, an explicit provider's error says that
 * the provider lacks an `apiKey`: it reads its own inputs, never the stack's `neon:apiKey`.
 */
function resolvedConfig(): { apiKey: string; apiUrl: string } {
  try {
    return resolveConfig(undefined, stackConfig, process.env);
  } catch (error) {
    if (explicitProvider === undefined || !(error instanceof NeonError) || error.apiMessage !== NO_KEY_MESSAGE)
      throw error;
    throw new NeonError({
      kind: "config",
      message:
        `No Neon API key: provider "${explicitProvider}" has no apiKey and NEON_API_KEY is not set: give the ` +
        `provider an apiKey (new neon.Provider("${explicitProvider}", { apiKey })), as a secret`,
    });
  }
}

/** The shared client for the configured credentials; fails before any request when no key is set. */
export function client(): NeonClient {
  const { apiKey, apiUrl } = resolvedConfig();
  const timeoutMs = waitTimeoutMs();
  const rateLimit = rateLimitFromEnv(process.env.NEON_RATE_LIMIT);
  const cacheKey = `${apiUrl}\n${timeoutMs}\n${JSON.stringify(rateLimit)}\n${hashOf(apiKey)}`;
  let shared = clients.get(cacheKey);
  if (!shared) {
    shared = new NeonClient({ apiKey, apiUrl, log: logLine, wait: { timeoutMs }, rateLimit, progress: progressLine });
    clients.set(cacheKey, shared);
  }
  return shared;
}

/** How long a step waits for the service's operations: neon:waitTimeoutSeconds, NEON_WAIT_TIMEOUT_SECONDS, else 300 s. */
export function waitTimeoutMs(): number {
  const raw = configValue(stackConfig, CONFIG_KEYS.waitTimeoutSeconds) ?? process.env.NEON_WAIT_TIMEOUT_SECONDS;
  const seconds = raw === undefined || raw === "" ? NaN : Number(raw);
  if (raw !== undefined && raw !== "" && !(seconds > 0)) {
    const setting =
      explicitProvider === undefined
        ? "neon:waitTimeoutSeconds"
        : `the waitTimeoutSeconds of provider "${explicitProvider}"`;
    throw new Error(`${setting} must be a positive number of seconds, got "${raw}"`);
  }
  return Number.isFinite(seconds) ? seconds * 1000 : DEFAULT_WAIT_TIMEOUT_MS;
}

const DEFAULT_WAIT_TIMEOUT_MS = 300_000;

/**
 * The client's rate limit from NEON_RATE_LIMIT: `off`, or `<count>/<window>,<count>/<window>`: requests per
 * account in the first window, per route in the second, a window being `min`, `s`, `<n>s` or `<n>ms`
 * (`600/min,35/s`). Unset: 600/min and 35/s, under the service's 700/min and 40/s. Lower it when other tools share
 * the account's budget; raise it for an account whose limits are higher.
 */
export function rateLimitFromEnv(value: string | undefined): RateLimitOptions | false | undefined {
  if (value === undefined || value.trim() === "") return undefined;
  if (value.trim() === "off") return false;
  const [account, route, extra] = value.split(",").map(parseRate);
  if (!account || !route || extra !== undefined) {
    throw new Error(
      `NEON_RATE_LIMIT must be "off" or "<count>/<window>,<count>/<window>" (for example "600/min,35/s"), got "${value}"`,
    );
  }
  return {
    perMinute: account.count,
    accountWindowMs: account.windowMs,
    perSecondPerRoute: route.count,
    routeWindowMs: route.windowMs,
  };
}

const WINDOWS: Record<string, number> = { min: 60_000, s: 1000 };

function parseRate(text: string): { count: number; windowMs: number } | undefined {
  const match = /^\s*(\d+)\/(\d*\.?\d*)(min|s|ms)\s*$/.exec(text);
  if (!match) return undefined;
  const unit = match[3] === "ms" ? 1 : WINDOWS[match[3]];
  const windowMs = (match[2] === "" ? 1 : Number(match[2])) * unit;
  const count = Number(match[1]);
  return count >= 1 && windowMs > 0 ? { count, windowMs } : undefined;
}

function hashOf(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

/** Request log lines go to the plugin's stderr only when NEON_PROVIDER_DEBUG is set; they never hold a key. */
function logLine(line: string): void {
  if (process.env.NEON_PROVIDER_DEBUG) process.stderr.write(`neon: ${line}\n`);
}

/**
 * What a long wait waits for (a retried 423, a slow operation: once after ~5 s, then every ~30 s), always: the engine
 * shows the plugin's stderr lines in the Pulumi log (diagnostics.ts). They never hold a key.
 */
function progressLine(line: string): void {
  process.stderr.write(`neon: ${line}\n`);
}
