/**
 * What each kind of key may reach (docs, Manage API keys): a personal key, its account's projects and those of the
 * organizations the account belongs to; an organization key, every project of its organization and nothing personal,
 * and its organization's keys, which it lists and revokes but cannot create (docs, Manage organizations using the API);
 * a project-scoped key, its one project and nothing else ("cannot perform organization-related actions or create new
 * projects"; the Neon CLI: "it cannot create projects, mint API keys, or read any other project").
 *
 * Every route finds its project through {@link projectFor}, and the server refuses a path outside a key's reach with
 * {@link scopeRefusal} before any route runs, so no route can hand a scoped key more than its project.
 */
import { ApiError, notFound } from "./errors";
import type { Store } from "./store";
import type { KeyRecord, Project } from "./types";

/** 403: a key used outside its reach. The status and the wording are a guess (no source gives them). */
export const forbidden = (message: string): ApiError => new ApiError(403, message);

/**
 * 404 for an organization the account does not belong to (OpenAPI, the consumption routes: "Account is not a member of
 * the organization specified by `org_id`"); an unknown organization answers the same.
 */
export const notMember = (orgId: string): ApiError =>
  new ApiError(404, `account is not a member of the organization ${orgId}`);

/** True when the key may use the project (see the module comment). */
export function canUse(store: Store, key: KeyRecord, project: Project): boolean {
  if (key.orgId !== undefined) {
    return project.orgId === key.orgId && (key.projectId === undefined || project.id === key.projectId);
  }
  if (project.accountId === key.accountId) return true;
  return project.orgId !== undefined && store.roleIn(project.orgId, key.accountId) !== undefined;
}

/** The project if the key may use it; else 404, like a project that does not exist (as for another account's). */
export function projectFor(store: Store, key: KeyRecord, projectId: string): Project {
  const project = store.projects.get(projectId);
  if (!project || !canUse(store, key, project)) throw notFound("project");
  return project;
}

/**
 * The projects `GET /projects` lists. A personal key: without `org_id` its account's own projects; with it, every
 * project of that organization for a member (OpenAPI, listProjects: "If using a personal API key, include the `org_id`
 * parameter"), 404 for others. An organization key: its organization's ("`org_id` is automatically inferred from the
 * key"); another `org_id` lists nothing (guess).
 */
export function listedProjects(store: Store, key: KeyRecord, orgId: string | null): Project[] {
  const all = [...store.projects.values()];
  if (key.orgId !== undefined) return all.filter((p) => p.orgId === key.orgId && (orgId ?? key.orgId) === key.orgId);
  if (orgId === null) return store.projectsOf(key.accountId);
  if (store.roleIn(orgId, key.accountId) === undefined) throw notMember(orgId);
  return all.filter((p) => p.orgId === orgId);
}

/**
 * What an organization key may not do, from the matrix of Neon's docs ("Manage organizations using the API", Matrix of
 * operations and key types): of the operations marked ❌ for it (create an organization API key, remove a member,
 * create invitations), the emulator models the first; it lists and revokes its organization's keys (✅ in the same
 * matrix). The personal key routes (`/api_keys`) are refused too: an organization key belongs to no account whose keys
 * they would show (**guess**: no source says what the service answers).
 */
const ORGANIZATION_KEY_REFUSED: { method: string; path: RegExp; what: string }[] = [
  { method: "POST", path: /^\/organizations\/[^/]+\/api_keys$/, what: "create API keys" },
  { method: "*", path: /^\/api_keys(\/|$)/, what: "use the personal API key routes" },
];

/**
 * The refusal of a request outside the key's reach, decided from the method and path alone before the route runs (so
 * a route the emulator does not model is refused too, and a scoped key's project create never runs); undefined lets
 * the request through. A project-scoped key may reach only `/projects/{its project}` and below; an organization key anything but
 * {@link ORGANIZATION_KEY_REFUSED}. Status 403: **guess** (no source gives one; a client must not depend on it).
 */
export function scopeRefusal(key: KeyRecord, method: string, path: string): ApiError | undefined {
  if (key.projectId !== undefined) {
    const own = `/projects/${key.projectId}`;
    if (path === own || path.startsWith(`${own}/`)) return undefined;
    return forbidden(
      `this API key is scoped to project ${key.projectId}: it can use only that project (its branches, computes ` +
        `and operations), not list projects, create projects or API keys, or reach another project`,
    );
  }
  if (key.orgId === undefined) return undefined;
  const refused = ORGANIZATION_KEY_REFUSED.find((r) => (r.method === "*" || r.method === method) && r.path.test(path));
  if (!refused) return undefined;
  return forbidden(
    `an organization API key cannot ${refused.what}: use the personal API key of a member of organization ${key.orgId}`,
  );
}

/**
 * Who owns a project a key creates (OpenAPI `createProject`: "If using a personal API key, include the `org_id`
 * parameter to specify which organization to create the project in. If using an org API key, `org_id` is automatically
 * inferred from the key"). A personal key: its account's, or `orgId`'s when the account is a member (admins and members
 * alike create projects: docs, Organizations, "User roles and permissions"); else 404 as for the project list. An
 * organization key: its organization's; another `orgId` is refused 403 (**guess**). A project-scoped key never gets
 * here: {@link scopeRefusal} refuses `POST /projects` ("Cannot … create new projects").
 */
export function projectOwner(store: Store, key: KeyRecord, orgId?: string): { accountId: string; orgId?: string } {
  if (key.projectId !== undefined)
    throw forbidden(`this API key is scoped to project ${key.projectId}: it cannot create projects`);
  if (key.orgId !== undefined) {
    if (orgId !== undefined && orgId !== key.orgId) {
      throw forbidden(
        `project.org_id ${orgId}: an organization API key creates projects only in its organization ${key.orgId}`,
      );
    }
    return { accountId: key.accountId, orgId: key.orgId };
  }
  if (orgId === undefined) return { accountId: key.accountId };
  if (store.roleIn(orgId, key.accountId) === undefined) throw notMember(orgId);
  return { accountId: key.accountId, orgId };
}

/**
 * Why the key may not delete the project (one it may use), or undefined. Docs, Organizations, "User roles and
 * permissions": only an admin deletes an organization's projects, a member does not; Manage API keys: project-scoped keys
 * "have member-level access, meaning they cannot delete the project they are associated with". An organization key has
 * admin-level access (docs, Manage organizations using the API). Status 403 and the wording: **guess**.
 */
export function deleteRefusal(store: Store, key: KeyRecord, project: Project): ApiError | undefined {
  if (key.projectId !== undefined) {
    return forbidden(
      `this API key is scoped to project ${project.id}: a project-scoped key has member-level access and cannot ` +
        `delete its project; use an organization API key or an admin's personal key`,
    );
  }
  if (key.orgId !== undefined || project.orgId === undefined) return undefined;
  if (store.roleIn(project.orgId, key.accountId) === "admin") return undefined;
  return forbidden(
    `project ${project.id} belongs to organization ${project.orgId}: only an admin of the organization can delete ` +
      `its projects, not a member`,
  );
}
