import { newWorldId } from "./ids";
import type { Snapshot } from "./snapshot";
import { hashKey } from "./store-accounts";

/**
 * Which world an emulator serves, so that a client can tell "this emulator was started fresh" from "this key is
 * wrong". Not a behaviour of Neon (its responses carry no such header): it exists only to explain, to a stack made
 * against an earlier world of the same emulator, why its key (401) and its projects (404) are unknown now.
 */

/** Every response carries it: the id of the world the emulator serves (docs/emulator.md, "Its world"). */
export const WORLD_HEADER = "X-Neon-Emulator-World";
/** A 401 or 404 carries it when the request's key or project belongs to a world this one replaced (`--fresh`). */
export const PREVIOUS_WORLD_HEADER = "X-Neon-Emulator-Previous-World";

/** A world replaced by a fresh one: only what recognises its requests (key hashes, never a key; project ids). */
export interface RetiredWorld {
  id: string;
  keyHashes: string[];
  projectIds: string[];
}

export interface WorldIdentity {
  id: string;
  /** The worlds this one replaced, latest first (at most `KEPT`). */
  previous: RetiredWorld[];
}

const KEPT = 5;

/** The identity of a world that replaces a saved one (`fresh`): it remembers that one, and that one's predecessors. */
export function replacing(replaced: Snapshot): WorldIdentity {
  const retired: RetiredWorld = {
    id: replaced.world?.id ?? "an unnamed world",
    keyHashes: replaced.keys.map((k) => k.hash),
    projectIds: replaced.projects.map((p) => p.id),
  };
  return { id: newWorldId(), previous: [retired, ...(replaced.world?.previous ?? [])].slice(0, KEPT) };
}

const BEARER = /^Bearer +(\S{1,512}) *$/i;
const PROJECT = /^\/projects\/([^/]+)/;

/** The replaced world a refused request belongs to (by its key, else by the project in its path), if any. */
export function previousWorldOf(
  identity: WorldIdentity,
  authorization: string | undefined,
  path: string,
): string | undefined {
  const key = authorization ? BEARER.exec(authorization)?.[1] : undefined;
  const hash = key === undefined ? undefined : hashKey(key);
  const projectId = PROJECT.exec(path)?.[1];
  const owner = identity.previous.find(
    (w) => (hash !== undefined && w.keyHashes.includes(hash)) || (projectId && w.projectIds.includes(projectId)),
  );
  return owner?.id;
}
