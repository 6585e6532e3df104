/**
 * Advice added to a refused request's error: the service's own message first, then what the refusal may mean for the
 * request the provider was making, and what to do. Which kind of key may do what is Neon's docs' ("Manage API keys";
 * "Manage organizations using the API", Matrix of operations and key types); the status of a refusal is documented
 * only for 401 (a wrong or revoked key) and for an organization that the account is not a member of (404, OpenAPI), so
 * advice that depends on a status is worded as a possibility, and a refusal answered 404 where 403 was expected (or the
 * other way round) still gets advice.
 */
import { errorKind } from "./errors";

/** The request a provider method was making, as far as the advice depends on it. */
export type Situation =
  | { op: "key-create"; orgId?: string; projectId?: string }
  | { op: "key-list" | "key-revoke"; orgId?: string }
  | { op: "compute"; projectId: string };

/**
 * `pulumi refresh` and `pulumi destroy` configure the provider from the configuration saved by the last `pulumi up`
 * (pulumi/pulumi registry.go: providers are loaded from their state), so a key changed since is not the one they use.
 */
const SAVED_KEY =
  "`pulumi refresh` and `pulumi destroy` use the neon:apiKey saved by the last `pulumi up`: run `pulumi up` once " +
  "with the new key (it changes nothing else), or `pulumi destroy --run-program`.";

/** What to do about a refused key (401). */
export const AUTH_HINT = `If the key was rotated: ${SAVED_KEY} NEON_API_KEY is used only when the stack config has no neon:apiKey.`;

const NO_KEY_FROM_KEYS = "organization and project-scoped keys cannot create API keys";

/** A create refused (403): which key may create this kind of key. */
function createRefused(s: { orgId?: string; projectId?: string }): string {
  if (s.orgId === undefined) {
    return (
      `Personal API keys are created with a personal key (${NO_KEY_FROM_KEYS}): if neon:apiKey is an organization ` +
      `or project-scoped key, use your personal key for the stacks that manage ApiKey resources.`
    );
  }
  if (s.projectId === undefined) {
    return (
      `Only an admin of organization ${s.orgId} can create an organization-wide key, with their personal key ` +
      `(${NO_KEY_FROM_KEYS}). If neon:apiKey is a member's personal key, use an admin's, or give the ApiKey a ` +
      `projectId: Neon's docs let members create keys limited to one project of the organization.`
    );
  }
  return (
    `Keys limited to a project of organization ${s.orgId} are created with the personal key of a member (some of ` +
    `Neon's docs say of an admin; ${NO_KEY_FROM_KEYS}). If neon:apiKey is an organization or project-scoped key, use ` +
    `a member's personal key; if it is a member's, try an admin's.`
  );
}

/** A list or revoke of keys refused (403): which key may do it. */
function keysRefused(s: { op: "key-list" | "key-revoke"; orgId?: string }): string {
  if (s.orgId === undefined) {
    return (
      `Personal API keys are listed and revoked with a personal key of their own account; organization and ` +
      `project-scoped keys cannot: set neon:apiKey to it. ${SAVED_KEY}`
    );
  }
  const who =
    s.op === "key-list"
      ? `a member's personal key or an organization key of ${s.orgId}`
      : `an admin's personal key or an organization key of ${s.orgId} (a member's key may revoke only the keys it created)`;
  return `The keys of organization ${s.orgId} are ${s.op === "key-list" ? "listed" : "revoked"} with ${who}; a project-scoped key cannot. ${SAVED_KEY}`;
}

/** A compute request refused (403): the key does not reach the project. */
function computeRefused(projectId: string): string {
  return (
    `neon:apiKey is valid but may not do this in project ${projectId}. A project-scoped API key can use only its own ` +
    `project (its branches, computes and operations): check that the resource's projectId is that key's project, ` +
    `or use a key whose scope covers project ${projectId} (an organization key of its organization, or a member's ` +
    `personal key).`
  );
}

/** A 404 from an organization's key routes: the account is not a member (OpenAPI), or the ids are wrong. */
function organizationNotFound(s: { op: Situation["op"]; orgId: string; projectId?: string }): string {
  const project =
    s.op === "key-create" && s.projectId !== undefined ? `, and that project ${s.projectId} belongs to it` : "";
  return (
    `Neon answers 404 for an organization that does not exist or that the account of neon:apiKey is not a member ` +
    `of. Check that orgId ${s.orgId} is right, and that neon:apiKey is the personal key of a member of it (or an ` +
    `organization key of it)${project}: add the account to organization ${s.orgId} in the Neon console, or use a ` +
    `member's key. A project-scoped key cannot manage keys at all, and the service may refuse that with 404 rather ` +
    `than 403.`
  );
}

/** A 404 from a compute request: what does not exist, or what the key does not reach. */
function computeNotFound(projectId: string): string {
  return (
    `Neon answers 404 both for what does not exist and for a project neon:apiKey does not reach (a project-scoped ` +
    `key outside its own project may be refused with 404 rather than 403, like an organization key outside its ` +
    `organization, or another account's key). If project ${projectId} and the resource's branch exist, use a key ` +
    `that reaches project ${projectId}.`
  );
}

function forbiddenHint(s: Situation): string {
  if (s.op === "key-create") return createRefused(s);
  if (s.op === "compute") return computeRefused(s.projectId);
  return keysRefused(s);
}

function notFoundHint(s: Situation): string | undefined {
  if (s.op === "compute") return computeNotFound(s.projectId);
  return s.orgId === undefined ? undefined : organizationNotFound({ ...s, orgId: s.orgId });
}

/** The status of a client error, or undefined. */
function statusOf(error: unknown): number | undefined {
  return typeof error === "object" && error !== null && "status" in error ? Number(error.status) : undefined;
}

/** The advice for a refused request in this situation, or undefined when there is none. */
export function hintFor(error: unknown, situation: Situation): string | undefined {
  const kind = errorKind(error);
  if (kind === "auth") return statusOf(error) === 403 ? forbiddenHint(situation) : AUTH_HINT;
  if (kind === "not_found") return notFoundHint(situation);
  return undefined;
}

/**
 * Wraps a provider method so that a refused request (401: rotated? 403: outside the key's reach? 404: not there, or not
 * reachable?) says, after the service's own message, what it may mean here and how to recover.
 */
export function withHints<A extends unknown[], R>(
  situationOf: (...args: NoInfer<A>) => Situation,
  method: (...args: A) => Promise<R>,
): (...args: A) => Promise<R> {
  return async (...args: A) => {
    try {
      return await method(...args);
    } catch (error) {
      const hint = hintFor(error, situationOf(...args));
      if (hint === undefined) throw error;
      throw new Error(`${(error as Error).message}. ${hint}`, { cause: error });
    }
  };
}
