/**
 * What the advice says about the provider's settings: the key and the URL in use, each named with its source
 * (`neon:apiKey` or `NEON_API_KEY`, `neon:apiUrl`, `NEON_API_HOST` or the default; an explicit provider resource's
 * `apiKey` and `apiUrl` in the native plugin configured by one; a newcomer with a wrong key was told about key rotation).
 * The advice about a changed key applies only where the key in use may differ from the one configured now: when the
 * provider was configured from the configuration saved by the last `up` (runtime.ts `configuredByProgram`).
 */
import { DEFAULT_API_URL } from "../../client";
import { configuredByProgram, settingsInUse, SettingsInUse } from "./runtime";

/** The settings in use and how the provider was configured, as far as the advice depends on them. */
export interface Settings extends SettingsInUse {
  /**
   * True when this process checked a program's inputs (an `up`, `destroy --run-program`): the provider is configured
   * with the stack's current configuration. False for `refresh` and `destroy`, which use the configuration saved by
   * the last `up` (pulumi/pulumi registry.go: providers are loaded from their state).
   */
  byProgram: boolean;
}

/** The settings of this process. */
export function currentSettings(): Settings {
  return { ...settingsInUse(), byProgram: configuredByProgram() };
}

/** The setting that holds the key in use: `neon:apiKey`, `NEON_API_KEY`, or an explicit provider's `apiKey`. */
export function keySetting(settings: SettingsInUse): string {
  if (settings.apiKeyFrom === "provider") return `the apiKey of provider "${settings.provider}"`;
  return settings.apiKeyFrom ?? "neon:apiKey";
}

/**
 * `pulumi refresh` and `pulumi destroy` configure the provider from the configuration saved by the last `pulumi up`
 * (pulumi/pulumi registry.go: providers are loaded from their state), so a key changed since is not the one they use.
 */
export function savedKey(settings: Settings): string {
  const saved =
    settings.apiKeyFrom === "provider"
      ? `the apiKey provider "${settings.provider}" had at the last \`pulumi up\``
      : "the neon:apiKey saved by the last `pulumi up`";
  return (
    `\`pulumi refresh\` and \`pulumi destroy\` use ${saved}: run \`pulumi up\` once with the new key (it changes ` +
    "nothing else), or `pulumi destroy --run-program`."
  );
}

/** True when the key in use may be an older one than the program or stack config holds now (see `savedKey`). */
export const maySaveAnotherKey = (settings: Settings) =>
  !settings.byProgram && (settings.apiKeyFrom === "neon:apiKey" || settings.apiKeyFrom === "provider");

/** The key in use, named by where it comes from. */
function keyNamed(settings: Settings): string {
  if (settings.apiKeyFrom === "NEON_API_KEY") {
    return settings.provider === undefined
      ? "the key in NEON_API_KEY (the stack config has no neon:apiKey)"
      : `the key in NEON_API_KEY (provider "${settings.provider}" has no apiKey)`;
  }
  return settings.apiKeyFrom === "provider" ? keySetting(settings) : "the key in neon:apiKey";
}

/** How to give the provider a new key. */
function newKey(settings: Settings): string {
  const make = "create a key in the Neon console (Account settings, API keys) and ";
  return settings.provider === undefined
    ? `${make}set it with \`pulumi config set --secret neon:apiKey <key>\``
    : `${make}give it to provider "${settings.provider}" as its apiKey (a secret)`;
}

/**
 * What to do about a refused key (401): it is wrong or revoked, so make one and set it (README, Troubleshooting); and,
 * only where the key in use may be an older one than the config holds (refresh, destroy), how to use the new one.
 */
export function authHint(settings: Settings): string {
  const wins = settings.provider === undefined ? "the stack config" : "the provider's apiKey";
  const fix =
    settings.apiKeyFrom === "NEON_API_KEY"
      ? `${newKey(settings)} (${wins} wins over NEON_API_KEY), or export a working key as NEON_API_KEY`
      : newKey(settings);
  if (!maySaveAnotherKey(settings)) {
    return `Neon refused ${keyNamed(settings)}: it is wrong, or it was revoked. Check it, or ${fix}.`;
  }
  return (
    `If you changed ${keySetting(settings)} since the last \`pulumi up\`: ${savedKey(settings)} Otherwise the key is wrong, or it was ` +
    `revoked: ${fix}, then run \`pulumi up\` once.`
  );
}

/** Where the URL in use comes from, and how to change it. */
function urlNamed(settings: Settings): { what: string; change: string } {
  if (settings.apiUrlFrom === "provider") {
    const saved = settings.byProgram
      ? ""
      : " (`pulumi refresh` and `pulumi destroy` use the one it had at the last `pulumi up`: after changing it, run `pulumi up` once)";
    return {
      what: `the apiUrl of provider "${settings.provider}"${saved}`,
      change: `correct it in the program, or leave it out to use Neon's API, ${DEFAULT_API_URL}`,
    };
  }
  if (settings.apiUrlFrom === "neon:apiUrl") {
    const saved = settings.byProgram
      ? ""
      : " (`pulumi refresh` and `pulumi destroy` use the one saved by the last `pulumi up`: after changing it, run `pulumi up` once)";
    return {
      what: `neon:apiUrl (the stack config)${saved}`,
      change: `correct it with \`pulumi config set neon:apiUrl <URL>\`, or remove it (\`pulumi config rm neon:apiUrl\`) to use Neon's API, ${DEFAULT_API_URL}`,
    };
  }
  const configured = settings.provider === undefined ? "neon:apiUrl" : `the apiUrl of provider "${settings.provider}"`;
  if (settings.apiUrlFrom === "NEON_API_HOST") {
    const lacks = settings.provider === undefined ? "the stack config has no neon:apiUrl" : `${configured} is not set`;
    return {
      what: `NEON_API_HOST (the environment; ${lacks})`,
      change: `correct it, or unset it to use Neon's API, ${DEFAULT_API_URL} (${configured}, when set, wins over it)`,
    };
  }
  return {
    what: `the default (neither ${configured} nor NEON_API_HOST is set)`,
    change: "check this machine's network, DNS and proxy settings",
  };
}

/** Nothing answers at the URL (a refused connection, an unknown host): where the URL comes from, and what to do. */
export function unreachableHint(settings: Settings): string {
  const { what, change } = urlNamed(settings);
  return `The API URL ${settings.apiUrl} is ${what}: ${change}.`;
}

/** The path under which Neon's API answers (the default URL's). */
const API_PATH = "/api/v2";

/**
 * A 404 from a URL whose path does not end in /api/v2 (`http://127.0.0.1:4010`): the request went to a page that
 * does not exist, not to a missing project or compute. Undefined when the path is right.
 */
export function urlPathHint(settings: Settings): string | undefined {
  let url: URL;
  try {
    url = new URL(settings.apiUrl);
  } catch {
    return undefined;
  }
  const path = url.pathname.replace(/\/+$/, "");
  if (path.endsWith(API_PATH)) return undefined;
  const { what, change } = urlNamed(settings);
  return (
    `The API URL ${settings.apiUrl} does not end in ${API_PATH}, the path under which Neon's API answers, so the ` +
    `request went to a page that does not exist. The URL is ${what}: ${change}; it should end in ${API_PATH} ` +
    `(probably ${url.protocol}//${url.host}${path}${API_PATH}).`
  );
}
