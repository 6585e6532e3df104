/**
 * Advice added to a refused request's error: the service's own message first, then what the refusal may mean for the
 * request the provider was making, and what to do. Which kind of key may do what is Neon's docs' ("Manage API keys";
 * "Manage organizations using the API", Matrix of operations and key types); the status of a refusal is documented
 * only for 401 (a wrong or revoked key) and for an organization that the account is not a member of (404, OpenAPI), so
 * advice that depends on a status is worded as a possibility, and a refusal answered 404 where 403 was expected (or the
 * other way round) still gets advice.
 */
import { isUnreachable } from "../../client";
import { once } from "./diagnostics";
import { errorKind } from "./errors";
import {
  authHint,
  currentSettings,
  keySetting,
  maySaveAnotherKey,
  savedKey,
  type Settings,
  unreachableHint,
  urlPathHint,
} from "./settings-advice";

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

/** A stack made against an earlier world of the emulator (client/errors.ts `replaced_world`, detected in client/axios-errors.ts; docs/emulator.md, "Its world"). */
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
