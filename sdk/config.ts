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

/** Anything with Pulumi's `Config.get` shape (the dynamic provider's configure() hands one over). */
export interface ConfigSource {
  get(key: string): string | undefined;
}

export interface ResolvedConfig {
  apiKey: string;
  apiUrl: string;
}

/**
 * Resolves the key and the URL: explicit options, then the Pulumi config (`neon:apiKey` / `neon:apiUrl`, also the
 * un-namespaced spellings), then the environment (`NEON_API_KEY`, `NEON_API_HOST`), then the default URL.
 */
export function resolveConfig(
  explicit?: { apiKey?: string; apiUrl?: string },
  pulumiConfig?: ConfigSource,
  env: NodeJS.ProcessEnv = process.env,
): ResolvedConfig {
  const apiKey = firstSet(explicit?.apiKey, fromPulumi(pulumiConfig, "apiKey"), env.NEON_API_KEY);
  if (apiKey === undefined) throw new NeonError({ kind: "config", message: NO_KEY_MESSAGE });
  const apiUrl = firstSet(explicit?.apiUrl, fromPulumi(pulumiConfig, "apiUrl"), env.NEON_API_HOST) ?? DEFAULT_API_URL;
  return { apiKey, apiUrl: normalizeUrl(apiUrl) };
}

function fromPulumi(config: ConfigSource | undefined, name: string): string | undefined {
  if (!config) return undefined;
  return firstSet(safeGet(config, `neon:${name}`), safeGet(config, name));
}

/** Pulumi's Config.get throws on some malformed keys; a lookup that fails is simply "not set". */
function safeGet(config: ConfigSource, key: string): string | undefined {
  try {
    return config.get(key);
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
