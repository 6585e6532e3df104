import { newRolePassword } from "./ids";
import { Store } from "./store";
import type {
  Account,
  Branch,
  DatabaseRecord,
  EndpointRecord,
  KeyRecord,
  OperationRecord,
  Organization,
  Project,
  RoleRecord,
} from "./types";
import type { WorldIdentity } from "./world-identity";

/**
 * The world as a state file holds it, and back: the store's collections as plain arrays, key hashes only and no role
 * password (those go to the `.passwords` companion), so that the state file holds no secret and can be shared.
 */

/** The serializable world, as written to the state file (key hashes only, never a secret). */
export interface Snapshot {
  version: 1;
  clockNow: number;
  seq: number;
  nextKeyId: number;
  accounts: Account[];
  organizations?: Organization[]; // absent in files written before organizations were modelled
  keys: KeyRecord[]; // with their scope (orgId, projectId)
  projects: Project[];
  branches: Branch[];
  endpoints: EndpointRecord[];
  operations: OperationRecord[];
  deletedEndpoints?: [string, string][]; // written by earlier versions; ignored (a delete of any absent id is 204)
  roles?: RoleRecord[]; // without their passwords (see RolePasswords); absent in files written before roles were modelled
  databases?: DatabaseRecord[];
  nextDatabaseId?: number;
  world?: WorldIdentity; // absent in files written before worlds had ids
}

/**
 * The role passwords, branch id → role name → password: the state file's `.passwords` companion (mode 0600), so that
 * the state file itself holds no secret and can be shared.
 */
export type RolePasswords = Record<string, Record<string, string>>;

/** The serializable form of the world at `clockNow`. */
export function snapshotOf(store: Store, clockNow: number): Snapshot {
  return {
    version: 1,
    clockNow,
    seq: store.seq,
    nextKeyId: store.nextKeyId,
    accounts: [...store.accounts.values()],
    organizations: [...store.organizations.values()],
    keys: [...store.keys.values()],
    projects: [...store.projects.values()],
    branches: [...store.branches.values()],
    endpoints: [...store.endpoints.values()],
    operations: [...store.operations.values()],
    roles: [...store.roles.values()].map(({ password: _secret, ...r }) => r),
    databases: [...store.databases.values()],
    nextDatabaseId: store.nextDatabaseId,
    world: store.world,
  };
}

/** The role passwords, for the state file's `.passwords` companion. */
export function passwordsOf(store: Store): RolePasswords {
  const out: RolePasswords = {};
  for (const r of store.roles.values()) if (r.password !== undefined) (out[r.branchId] ??= {})[r.name] = r.password;
  return out;
}

/**
 * The world of a state file. `passwords`: its `.passwords` companion; a login role whose password it lacks (the
 * companion deleted, say) gets a new one.
 */
export function restoreStore(s: Snapshot, passwords: RolePasswords = {}): Store {
  if (s.version !== 1) throw new Error(`unsupported state file version ${String(s.version)}`);
  const st = new Store();
  st.seq = s.seq;
  st.nextKeyId = s.nextKeyId;
  for (const a of s.accounts) st.accounts.set(a.id, a);
  for (const o of s.organizations ?? []) st.organizations.set(o.id, o);
  for (const k of s.keys) st.insertKey(k);
  for (const p of s.projects) st.projects.set(p.id, p);
  for (const b of s.branches) st.branches.set(b.id, b);
  for (const e of s.endpoints) st.endpoints.set(e.id, e);
  for (const o of [...s.operations].sort((a, b) => a.seq - b.seq)) st.addOperation(o);
  let regenerated = false;
  for (const r of s.roles ?? []) {
    const kept = passwords[r.branchId]?.[r.name];
    regenerated ||= !r.noLogin && kept === undefined;
    st.addRole(r.noLogin ? r : { ...r, password: kept ?? newRolePassword() });
  }
  for (const d of s.databases ?? []) st.addDatabase(d);
  st.nextDatabaseId = s.nextDatabaseId ?? st.nextDatabaseId;
  if (s.world) st.world = s.world;
  else regenerated = true; // the id a world written before worlds had ids gets now is kept
  st.dirty = regenerated; // a new password is saved at the next write
  return st;
}
