/**
 * Which list and routes an ApiKey lives in: a personal key under `/api_keys`, an organization key (organization-wide
 * or project-scoped) under `/organizations/{orgId}/api_keys`. Chosen from the key's properties (the inputs at create,
 * the state afterwards), so that refresh and destroy never look for a key in the wrong list, where it would seem
 * revoked. The client is taken at call time: nothing here captures a credential.
 */
import type { OrgApiKey, OrgApiKeyCreated } from "../../client";
import { API_KEY, declaredValue } from "./declaration";
import { errorKind } from "../shared/errors";
import { deleteUnlessGone } from "../shared/lifecycle";
import { client } from "../shared/runtime";

type Props = Record<string, unknown>;

/** What makes a key personal, organization-wide or project-scoped. */
export interface KeyScope {
  orgId?: string;
  projectId?: string;
}

/** A key as either list shows it: a personal key is an organization key's shape without `project_id`. */
export type ListedKey = OrgApiKey;

/** A create response: the only place the secret appears. */
export type CreatedKey = OrgApiKeyCreated;

export interface KeyRoutes {
  create(keyName: string): Promise<CreatedKey>;
  list(): Promise<ListedKey[]>;
  revoke(id: number): Promise<void>;
}

/**
 * The declared scope of a key from its inputs or state (where the declared `projectId` is recorded apart from the
 * service's answer): `projectId` counts only with an `orgId`.
 */
export function scopeOf(props: Props): KeyScope {
  const orgId = typeof props.orgId === "string" && props.orgId !== "" ? props.orgId : undefined;
  const declared = declaredValue(props, "projectId");
  const projectId = orgId !== undefined && typeof declared === "string" ? declared : undefined;
  return { ...(orgId !== undefined ? { orgId } : {}), ...(projectId !== undefined ? { projectId } : {}) };
}

/** The routes of the key's list. */
export function keyRoutes(scope: KeyScope): KeyRoutes {
  return scope.orgId === undefined ? personalRoutes() : organizationRoutes(scope.orgId, scope.projectId);
}

function personalRoutes(): KeyRoutes {
  return {
    create: (keyName) => client().apiKeys.create({ key_name: keyName }),
    list: () => client().apiKeys.list(),
    revoke: async (id) => void (await client().apiKeys.revoke(id)),
  };
}

function organizationRoutes(orgId: string, projectId: string | undefined): KeyRoutes {
  const scoped = projectId === undefined ? {} : { project_id: projectId };
  return {
    create: (keyName) => client().orgApiKeys.create(orgId, { key_name: keyName, ...scoped }),
    list: () => client().orgApiKeys.list(orgId),
    revoke: async (id) => void (await client().orgApiKeys.revoke(orgId, id)),
  };
}

/** The declared inputs of a key, as `read` hands them back: keyName, and orgId / projectId only when declared. */
export function declaredInputs(keyName: string, scope: KeyScope): Props {
  return { keyName, ...scope };
}

/**
 * A revoke answered 404 means the key is gone only if the key's list still answers: an organization answers 404 to an
 * account that is not (or no longer) its member, and taking that for "revoked" would report as destroyed a key that
 * still works.
 */
async function confirmGone(routes: KeyRoutes, id: number, refusal: unknown): Promise<void> {
  try {
    await routes.list();
  } catch (error) {
    if (errorKind(error) !== "not_found") throw error;
    throw new Error(
      `API key ${id} could not be revoked: ${(refusal as Error).message}; its list answers 404 too, so neon:apiKey ` +
        `does not reach it (an account that is not a member of the key's organization, or the organization is ` +
        `gone). Nothing was changed: revoke it with a member's personal key, or in the Neon console ` +
        `(${API_KEY.docs}).`,
      { cause: error },
    );
  }
}

/**
 * Revokes a key; one already revoked or gone is fine once its list answers (confirmGone). A revoke whose outcome is
 * unknown is read back (the key still listed → sent again), a few times, so that a run of lost responses neither fails
 * the step nor leaves a key nobody holds (shared/lifecycle.ts, deleteUnlessGone).
 */
export function revokeKey(routes: KeyRoutes, id: number): Promise<void> {
  const revoke = async () => {
    await routes.revoke(id); // a key not there answers 404, thrown
    return true;
  };
  const revoked = async () => !(await routes.list()).some((key) => key.id === id);
  return deleteUnlessGone(revoke, (refusal) => confirmGone(routes, id, refusal), revoked);
}
