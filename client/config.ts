/**
 * Where the API key and base URL come from. Prevents the peers' opaque failure when no key is set (a 401 or a
 * crash deep inside a request): a missing key is a `config` error that says how to set it, before any request.
 */
import { NeonError } from "./errors";

/** The production API; `NEON_API_HOST` (as neonctl reads it) or `neon:apiUrl` points elsewhere (the emulator). */
export const DEFAULT_API_URL = "https://console.neon.tech/api/v2";

/** The message a user sees when no key is configured anywhere. */
export const NO_KEY_MESSAGE =
  "No Neon API key: set it with `pulumi config set --secret neon:apiKey <key>` or the NEON_API_KEY environment variable";

/**
 * A lookup of the stack configuration by its full, namespaced key (`neon:apiKey`), as the dynamic provider's
 * configure() hands it over. Only the `neon:` namespace is ever read: inside the plugin an un-namespaced key means
 * `<project>:<key>`, the *program's* own setting (a program may well have an `apiKey` of its own, for another service).
 */
export interface ConfigSource {
  get(key: string): string | undefined;
}

/** The configuration keys this package reads, always with their namespace. */
export const CONFIG_KEYS = {
  apiKey: "neon:apiKey",
  apiUrl: "neon:apiUrl",
  waitTimeoutSeconds: "neon:waitTimeoutSeconds",
} as const;

export interface ResolvedConfig {
  apiKey: string;
  apiUrl: string;
}

/**
 * Resolves the key and the URL: explicit options, then the Pulumi config (`neon:apiKey` / `neon:apiUrl`, never an
 * un-namespaced key), then the environment (`NEON_API_KEY`, `NEON_API_HOST`), then the default URL.
 */
export function resolveConfig(
  explicit?: { apiKey?: string; apiUrl?: string },
  pulumiConfig?: ConfigSource,
  env: NodeJS.ProcessEnv = process.env,
): ResolvedConfig {
  const apiKey = firstSet(explicit?.apiKey, configValue(pulumiConfig, CONFIG_KEYS.apiKey), env.NEON_API_KEY);
  if (apiKey === undefined) throw new NeonError({ kind: "config", message: NO_KEY_MESSAGE });
  const apiUrl =
    firstSet(explicit?.apiUrl, configValue(pulumiConfig, CONFIG_KEYS.apiUrl), env.NEON_API_HOST) ?? DEFAULT_API_URL;
  return { apiKey, apiUrl: checkedUrl(normalizeUrl(apiUrl)) };
}

/**
 * The API's URL, refused at once when it is not an http(s) URL: a URL without its scheme failed every request with
 * "Invalid URL", which was retried for the whole retry budget (two minutes) before saying so.
 */
function checkedUrl(url: string): string {
  let scheme: string | undefined;
  try {
    scheme = new URL(url).protocol;
  } catch {
    scheme = undefined;
  }
  if (scheme === "https:" || scheme === "http:") return url;
  throw new NeonError({
    kind: "config",
    message:
      `neon:apiUrl (or NEON_API_HOST) must be an http(s) URL such as ${DEFAULT_API_URL}, got ${JSON.stringify(url)}: ` +
      `set it with pulumi config set neon:apiUrl <url>, or remove it to use Neon's API`,
  });
}

/**
 * One namespaced setting; a lookup that throws (Pulumi's Config.get does on some malformed keys) is "not set".
 * A string stands for itself; anything else (a program's structured config) is not a setting of ours.
 */
export function configValue(config: ConfigSource | undefined, key: string): string | undefined {
  if (!config) return undefined;
  try {
    const value: unknown = config.get(key);
    return typeof value === "string" ? value : undefined;
  } catch {
    return undefined;
  }
}

function firstSet(...values: (string | undefined)[]): string | undefined {
  for (const value of values) {
    if (typeof value === "string" && value.trim() !== "") return value.trim();
  }
  return undefined;
}

/** Trailing slashes would make `//projects`; a URL is kept otherwise as given. */
export function normalizeUrl(url: string): string {
  return url.replace(/\/+$/, "");
}
