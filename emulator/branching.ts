import { newRolePassword } from "./ids";
import type { Store } from "./store";
import type { Branch, DatabaseRecord, RoleRecord } from "./types";

/**
 * What a branch holds besides its computes, its roles and databases, and how they travel between branches: a new
 * project's, a child's copies of its parent's, a restore's copies of its source's.
 */

/**
 * What a new Neon project's default branch holds (Neon docs, Manage roles: "if your database is named `neondb`, the
 * project is created with a role named `neondb_owner`. This role owns the database"; glossary: "A Postgres role named
 * `neondb_owner` is created with each Neon project by default. This role owns the ready-to-use `neondb` database").
 */
export const DEFAULT_DATABASE = "neondb";
export const DEFAULT_OWNER = "neondb_owner";

export function newRole(
  store: Store,
  branch: Branch,
  name: string,
  now: number,
  login: { noLogin?: boolean; password?: string } = {},
): RoleRecord {
  const role: RoleRecord = {
    projectId: branch.projectId,
    branchId: branch.id,
    name,
    ...(login.noLogin ? { noLogin: true } : { password: login.password ?? newRolePassword() }),
    createdAt: now,
    updatedAt: now,
    seq: store.nextSeq(),
  };
  store.addRole(role);
  return role;
}

export function newDatabase(
  store: Store,
  branch: Branch,
  name: string,
  ownerName: string,
  now: number,
): DatabaseRecord {
  const db: DatabaseRecord = {
    id: store.nextDatabaseId++,
    projectId: branch.projectId,
    branchId: branch.id,
    name,
    ownerName,
    createdAt: now,
    updatedAt: now,
    seq: store.nextSeq(),
  };
  store.addDatabase(db);
  return db;
}

/** A new project's `neondb_owner` and `neondb`. */
export function seedDefaults(store: Store, branch: Branch, now: number): void {
  newRole(store, branch, DEFAULT_OWNER, now);
  newDatabase(store, branch, DEFAULT_DATABASE, DEFAULT_OWNER, now);
}

export interface CopyOptions {
  /**
   * Only what existed at this time (a branch from a point in time): Neon docs, Manage roles and Manage databases: a
   * role or database "created in the parent branch after that point in time … is not duplicated in the child branch".
   */
  asOf?: number;
  /** New passwords instead of the source's (a child of a protected branch: Neon docs, Protected branches). */
  newPasswords?: boolean;
}

/** A branch's roles and databases at one time, detached from the store. */
export interface Contents {
  roles: RoleRecord[];
  databases: DatabaseRecord[];
}

/** Copies of `branch`'s roles and databases (those that existed at `asOf`, when given). */
export function contentsOf(store: Store, branch: Branch, asOf?: number): Contents {
  const existed = (x: { createdAt: number }): boolean => asOf === undefined || x.createdAt <= asOf;
  return {
    roles: store
      .rolesOf(branch.id)
      .filter(existed)
      .map((r) => ({ ...r })),
    databases: store
      .databasesOf(branch.id)
      .filter(existed)
      .map((d) => ({ ...d })),
  };
}

/**
 * Puts copies of `contents` on `to`, which holds none: the same names, owners, passwords and times (**guess**: the
 * roles and databases are duplicated, so their times are kept; database ids are new, as the ids of copies are not
 * documented).
 */
export function putContents(store: Store, contents: Contents, to: Branch, now: number, newPasswords = false): void {
  for (const r of contents.roles) {
    const fresh = newPasswords && r.password !== undefined;
    store.addRole({
      ...r,
      projectId: to.projectId,
      branchId: to.id,
      ...(fresh ? { password: newRolePassword(), updatedAt: now } : {}),
      seq: store.nextSeq(),
    });
  }
  for (const d of contents.databases) {
    store.addDatabase({
      ...d,
      id: store.nextDatabaseId++,
      projectId: to.projectId,
      branchId: to.id,
      seq: store.nextSeq(),
    });
  }
}

/**
 * Copies `from`'s roles and databases onto `to` (Neon docs, Manage roles: "When you create a child branch, roles in the
 * parent branch are duplicated in the child branch"; Manage branches: "the branch will have the same Postgres role
 * passwords as the parent branch"; Manage databases: "databases from the parent branch are copied to the child branch").
 */
export function copyRolesAndDatabases(
  store: Store,
  from: Branch,
  to: Branch,
  now: number,
  options: CopyOptions = {},
): void {
  putContents(store, contentsOf(store, from, options.asOf), to, now, options.newPasswords);
}

/** Removes the branch's roles and databases (before a restore puts its source's in their place). */
export function clearRolesAndDatabases(store: Store, branch: Branch): void {
  for (const r of store.rolesOf(branch.id)) store.removeRole(r);
  for (const d of store.databasesOf(branch.id)) store.removeDatabase(d);
}

/** The branches whose parent is `branch`. */
export function childrenOf(store: Store, branch: Branch): Branch[] {
  return store.branchesOf(branch.projectId).filter((b) => b.parentId === branch.id);
}

/**
 * A world saved before roles and databases were modelled: every branch gets what it would have had, a new project's
 * `neondb_owner` and `neondb` on a root branch, copies of its parent's on a child (**guess**: the least surprising
 * reading of such a file).
 */
export function seedOlderWorld(store: Store, now: number): void {
  for (const b of [...store.branches.values()].sort((x, y) => x.seq - y.seq)) {
    const parent = b.parentId ? store.branches.get(b.parentId) : undefined;
    if (parent) copyRolesAndDatabases(store, parent, b, now);
    else seedDefaults(store, b, now);
  }
}
