/**
 * Advice added to a refused request's error: the service's own message first, then what the refusal may mean for the
 * request the provider was making, and what to do. Which kind of key may do what is Neon's docs' ("Manage API keys";
 * "Manage organizations using the API", Matrix of operations and key types); the status of a refusal is documented
 * only for 401 (a wrong or revoked key) and for an organization that the account is not a member of (404, OpenAPI), so
 * advice that depends on a status is worded as a possibility, and a refusal answered 404 where 403 was expected (or the
 * other way round) still gets advice.
 *
 * Advice also fits where the settings come from (a newcomer with a wrong key was told about key rotation): a key or
 * URL is named with its source (`neon:apiKey` or `NEON_API_KEY`, `neon:apiUrl`, `NEON_API_HOST` or the default; an
 * explicit provider resource's `apiKey` and `apiUrl` in the native plugin configured by one), and
 * the advice about a changed key applies only where the key in use may differ from the one configured now: when the
 * provider was configured from the configuration saved by the last `up` (runtime.ts `configuredByProgram`).
 */
import { DEFAULT_API_URL, isUnreachable } from "../../client";
import { once } from "./diagnostics";
import { errorKind } from "./errors";
import { configuredByProgram, settingsInUse, SettingsInUse } from "./runtime";

/** The request a provider method was making, as far as the advice depends on it. */
export type Situation =
  | { op: "key-create"; orgId?: string; projectId?: string }
  | { op: "project-create"; orgId?: string }
  | { op: "key-list" | "key-revoke"; orgId?: string }
  | { op: ProjectOp; projectId: string; branchId?: string };

/** Work on something that lives in a project (and, but for a branch itself, on a branch of it). */
export type ProjectOp = "compute" | "branch" | "role" | "database" | "project";
const PROJECT_OPS: readonly string[] = ["compute", "branch", "role", "database", "project"] satisfies ProjectOp[];

function inProject(s: Situation): s is { op: ProjectOp; projectId: string; branchId?: string } {
  return PROJECT_OPS.includes(s.op);
}

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
function savedKey(settings: Settings): string {
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
const maySaveAnotherKey = (settings: Settings) =>
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
function unreachableHint(settings: Settings): string {
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

const NO_KEY_FROM_KEYS = "organization and project-scoped keys cannot create API keys";

/** A create refused (403): which key may create this kind of key. */
function createRefused(s: { orgId?: string; projectId?: string }, settings: Settings): string {
  const key = keySetting(settings);
  if (s.orgId === undefined) {
    return (
      `Personal API keys are created with a personal key (${NO_KEY_FROM_KEYS}): if ${key} is an organization ` +
      `or project-scoped key, use your personal key for the stacks that manage ApiKey resources.`
    );
  }
  if (s.projectId === undefined) {
    return (
      `Only an admin of organization ${s.orgId} can create an organization-wide key, with their personal key ` +
      `(${NO_KEY_FROM_KEYS}). If ${key} is a member's personal key, use an admin's, or give the ApiKey a ` +
      `projectId: Neon's docs let members create keys limited to one project of the organization.`
    );
  }
  return (
    `Keys limited to a project of organization ${s.orgId} are created with the personal key of a member (some of ` +
    `Neon's docs say of an admin; ${NO_KEY_FROM_KEYS}). If ${key} is an organization or project-scoped key, use ` +
    `a member's personal key; if it is a member's, try an admin's.`
  );
}

/** A list or revoke of keys refused (403): which key may do it. */
function keysRefused(s: { op: "key-list" | "key-revoke"; orgId?: string }, settings: Settings): string {
  const saved = maySaveAnotherKey(settings) ? ` ${savedKey(settings)}` : "";
  if (s.orgId === undefined) {
    return (
      `Personal API keys are listed and revoked with a personal key of their own account; organization and ` +
      `project-scoped keys cannot: set ${keySetting(settings)} to it.${saved}`
    );
  }
  const who =
    s.op === "key-list"
      ? `a member's personal key or an organization key of ${s.orgId}`
      : `an admin's personal key or an organization key of ${s.orgId} (a member's key may revoke only the keys it created)`;
  return `The keys of organization ${s.orgId} are ${s.op === "key-list" ? "listed" : "revoked"} with ${who}; a project-scoped key cannot.${saved}`;
}

/** A compute request refused (403): the key does not reach the project. */
function projectRefused(projectId: string, settings: Settings): string {
  return (
    `${keySetting(settings)} is valid but may not do this in project ${projectId}. A project-scoped API key can use only its own ` +
    `project (its branches, computes and operations): check that the resource's projectId is that key's project, ` +
    `or use a key whose scope covers project ${projectId} (an organization key of its organization, or a member's ` +
    `personal key).`
  );
}

/** A 404 from an organization's key routes: the account is not a member (OpenAPI), or the ids are wrong. */
function organizationNotFound(
  s: { op: Situation["op"]; orgId: string; projectId?: string },
  settings: Settings,
): string {
  const key = keySetting(settings);
  const project =
    s.op === "key-create" && s.projectId !== undefined ? `, and that project ${s.projectId} belongs to it` : "";
  return (
    `Neon answers 404 for an organization that does not exist or that the account of ${key} is not a member ` +
    `of. Check that orgId ${s.orgId} is right, and that ${key} is the personal key of a member of it (or an ` +
    `organization key of it)${project}: add the account to organization ${s.orgId} in the Neon console, or use a ` +
    `member's key. A project-scoped key cannot manage keys at all, and the service may refuse that with 404 rather ` +
    `than 403.`
  );
}

/** A 404 from a compute request: what does not exist, or what the key does not reach. */
function projectNotFound(projectId: string, branchId: string | undefined, settings: Settings, op?: ProjectOp): string {
  const branch =
    op === "project" ? "" : branchId === undefined ? " and the resource's branch" : ` and branch ${branchId}`;
  return (
    `Neon answers 404 both for what does not exist and for a project ${keySetting(settings)} does not reach (a project-scoped ` +
    `key outside its own project may be refused with 404 rather than 403, like an organization key outside its ` +
    `organization, or another account's key). If project ${projectId}${branch} exist${branch ? "" : "s"}, use a key ` +
    `that reaches project ${projectId}.`
  );
}

/** A project create refused (403): which keys may create one where. */
function projectCreateRefused(orgId: string | undefined, settings: Settings): string {
  const where = orgId === undefined ? "" : ` in organization ${orgId}`;
  return (
    `${keySetting(settings)} may not create a project${where}: a project-scoped key cannot create projects, and an ` +
    `organization key creates them in its own organization only. Use a personal key of a member (with orgId for an ` +
    `organization's project) or an organization key of that organization.`
  );
}

function forbiddenHint(s: Situation, settings: Settings): string {
  if (s.op === "key-create") return createRefused(s, settings);
  if (s.op === "project-create") return projectCreateRefused(s.orgId, settings);
  if (inProject(s)) return projectRefused(s.projectId, settings);
  return keysRefused(s, settings);
}

function notFoundHint(s: Situation, settings: Settings): string | undefined {
  if (inProject(s)) return projectNotFound(s.projectId, s.branchId, settings, s.op);
  return s.orgId === undefined ? undefined : organizationNotFound({ ...s, orgId: s.orgId }, settings);
}

/** A stack made against an earlier world of the emulator (client/errors.ts `replaced_world`; docs/emulator.md, "Its world"). */
const REPLACED_WORLD =
  "This stack's resources were in that world: remove its state with `pulumi stack rm --force` and run `pulumi up` " +
  "again with the new key, and start the emulator without --fresh to keep its world across restarts " +
  "(docs/emulator.md, Its world).";

/** The status of a client error, or undefined. */
function statusOf(error: unknown): number | undefined {
  return typeof error === "object" && error !== null && "status" in error ? Number(error.status) : undefined;
}

/** The advice for a refused request in this situation, or undefined when there is none. */
export function hintFor(
  error: unknown,
  situation: Situation,
  settings: Settings = currentSettings(),
): string | undefined {
  const kind = errorKind(error);
  if (isUnreachable(error)) return unreachableHint(settings);
  if (kind === "auth") return statusOf(error) === 403 ? forbiddenHint(situation, settings) : authHint(settings);
  if (kind === "not_found") return urlPathHint(settings) ?? notFoundHint(situation, settings);
  if (kind === "replaced_world") return REPLACED_WORLD;
  return undefined;
}

/** The first client error (one with a `kind`) in an error's chain of causes: the one a provider's message explains. */
function clientErrorIn(error: unknown): unknown {
  for (let e = error, depth = 0; e !== undefined && e !== null && depth < 10; depth++) {
    if (errorKind(e) !== undefined) return e;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * A 404 whose URL's path is wrong explains itself before anything the provider concluded from it (a compute gone, a
 * project out of reach): with that URL, nothing the provider read back was the API's answer.
 */
function wrongPath(error: unknown, settings: Settings): Error | undefined {
  const client = clientErrorIn(error);
  if (client === undefined || client === error || errorKind(client) !== "not_found") return undefined;
  const hint = urlPathHint(settings);
  return hint === undefined ? undefined : new Error(`${(client as Error).message}. ${hint}`, { cause: error });
}

/**
 * Wraps a provider method so that a refused request (401: a wrong key, or a rotated one? 403: outside the key's reach?
 * 404: not there, not reachable, or a wrong URL?) and an address where nothing answers say, after the service's own
 * message (or the client's), what it may mean here and how to recover.
 */
export function withHints<A extends unknown[], R>(
  situationOf: (...args: NoInfer<A>) => Situation,
  method: (...args: A) => Promise<R>,
): (...args: A) => Promise<R> {
  return async (...args: A) => {
    try {
      return await method(...args);
    } catch (error) {
      const settings = currentSettings();
      const misdirected = wrongPath(error, settings);
      if (misdirected) throw misdirected;
      const hint = hintFor(error, situationOf(...args), settings);
      if (hint === undefined) throw error;
      throw once(new Error(`${(error as Error).message}. ${hint}`, { cause: error }));
    }
  };
}
