/**
 * The provider's process-wide state inside the plugin: the stack configuration handed over by
 * `configure()`, and one client per (API URL, key), shared by every resource of the process so that the
 * client's per-project serialization and rate limiter see all of the process's requests (no 423 storms).
 *
 * Credentials are read when a request is about to be made, never at program time, so that nothing
 * secret is captured into `__provider` and a rotated key in the environment takes effect at once.
 */
import { createHash } from "crypto";
import { NeonClient, resolveConfig } from "../sdk";

interface ConfigSource {
  get(key: string): string | undefined;
}

let stackConfig: ConfigSource | undefined;
const clients = new Map<string, NeonClient>();

/** Called by each resource's `configure()`: keeps the stack configuration (neon:apiKey, neon:apiUrl). */
export function configure(config: ConfigSource | undefined): void {
  stackConfig = config;
}

/** The shared client for the configured credentials; fails before any request when no key is set. */
export function client(): NeonClient {
  const { apiKey, apiUrl } = resolveConfig(undefined, stackConfig, process.env);
  const timeoutMs = waitTimeoutMs();
  const cacheKey = `${apiUrl}\n${timeoutMs}\n${createHash("sha256").update(apiKey).digest("hex")}`;
  let shared = clients.get(cacheKey);
  if (!shared) {
    shared = new NeonClient({ apiKey, apiUrl, log: logLine, wait: { timeoutMs } });
    clients.set(cacheKey, shared);
  }
  return shared;
}

/** How long a step waits for the service's operations: neon:waitTimeoutSeconds, NEON_WAIT_TIMEOUT_SECONDS, else 300 s. */
export function waitTimeoutMs(): number {
  const raw = stackConfig?.get("neon:waitTimeoutSeconds") ?? process.env.NEON_WAIT_TIMEOUT_SECONDS;
  const seconds = raw === undefined || raw === "" ? NaN : Number(raw);
  if (raw !== undefined && raw !== "" && !(seconds > 0)) {
    throw new Error(`neon:waitTimeoutSeconds must be a positive number of seconds, got "${raw}"`);
  }
  return Number.isFinite(seconds) ? seconds * 1000 : DEFAULT_WAIT_TIMEOUT_MS;
}

const DEFAULT_WAIT_TIMEOUT_MS = 300_000;

/** Request log lines go to the plugin's stderr only when NEON_PROVIDER_DEBUG is set; they never hold a key. */
function logLine(line: string): void {
  if (process.env.NEON_PROVIDER_DEBUG) process.stderr.write(`neon: ${line}\n`);
}
