import { createHash, timingSafeEqual } from "node:crypto";
import { ApiError, notFound } from "./errors";
import { newRolePassword, newWorldId } from "./ids";
import type {
  Account,
  Branch,
  DatabaseRecord,
  EndpointRecord,
  KeyRecord,
  OperationRecord,
  Organization,
  OrgRole,
  Project,
  RoleRecord,
} from "./types";
import type { WorldIdentity } from "./world-identity";

/** sha256 hex of a key secret: the only form in which a key is kept (in memory and in the state file). */
export const hashKey = (secret: string): string => createHash("sha256").update(secret).digest("hex");

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

/** The key of a branch's role or database in the store's maps (a name may hold any character but NUL). */
const named = (branchId: string, name: string): string => `${branchId}\u0000${name}`;

/**
 * The world: accounts, keys, projects, branches, computes and operations, with ownership checks in the
 * lookups so no route can hand out another account's object (they answer 404, like the real service).
 */
export class Store {
  readonly accounts = new Map<string, Account>();
  readonly organizations = new Map<string, Organization>();
  readonly keys = new Map<number, KeyRecord>();
  private readonly keysByHash = new Map<string, KeyRecord>();
  readonly projects = new Map<string, Project>();
  readonly branches = new Map<string, Branch>();
  readonly endpoints = new Map<string, EndpointRecord>();
  readonly operations = new Map<string, OperationRecord>();
  readonly opsByProject = new Map<string, OperationRecord[]>();
  readonly roles = new Map<string, RoleRecord>();
  readonly databases = new Map<string, DatabaseRecord>();
  seq = 0;
  nextKeyId = 100001;
  nextDatabaseId = 1000001;
  /** Which world this is, and the worlds it replaced (world-identity.ts). */
  world: WorldIdentity = { id: newWorldId(), previous: [] };
  /** Set by every mutation; the persistence layer saves and clears it. */
  dirty = false;

  nextSeq(): number {
    return ++this.seq;
  }

  addAccount(account: Account): Account {
    this.accounts.set(account.id, account);
    this.dirty = true;
    return account;
  }

  /** The organization, creating it when absent; `accountId` joins it with `role` unless already a member. */
  joinOrganization(org: { id: string; name?: string }, accountId: string, role: OrgRole, now: number): Organization {
    let o = this.organizations.get(org.id);
    if (!o) this.organizations.set(org.id, (o = { id: org.id, name: org.name ?? org.id, members: {}, createdAt: now }));
    o.members[accountId] ??= role;
    this.dirty = true;
    return o;
  }

  /** The account's role in the organization, or undefined for a non-member (or an unknown organization). */
  roleIn(orgId: string, accountId: string): OrgRole | undefined {
    return this.organizations.get(orgId)?.members[accountId];
  }

  /** A key; `scope` makes it an organization key (`orgId`) or a project-scoped one (`orgId` and `projectId`). */
  addKey(
    accountId: string,
    name: string,
    secret: string,
    now: number,
    scope: { orgId?: string; projectId?: string } = {},
  ): KeyRecord {
    const rec: KeyRecord = {
      id: this.nextKeyId++,
      accountId,
      name,
      ...(scope.orgId ? { orgId: scope.orgId } : {}),
      ...(scope.orgId && scope.projectId ? { projectId: scope.projectId } : {}),
      hash: hashKey(secret),
      createdAt: now,
      lastUsedAt: null,
      lastUsedFromAddr: "",
      revoked: false,
    };
    this.insertKey(rec);
    return rec;
  }

  private insertKey(rec: KeyRecord): void {
    this.keys.set(rec.id, rec);
    this.keysByHash.set(rec.hash, rec);
    this.dirty = true;
  }

  /** The key for a presented secret, revoked included (the caller decides); hashes compared in constant time. */
  findKey(secret: string): KeyRecord | undefined {
    const hash = hashKey(secret);
    const rec = this.keysByHash.get(hash);
    if (!rec) return undefined;
    return timingSafeEqual(Buffer.from(rec.hash, "hex"), Buffer.from(hash, "hex")) ? rec : undefined;
  }

  /** A project of this account, else 404 (another account's project is indistinguishable from none). */
  project(accountId: string, projectId: string): Project {
    const p = this.projects.get(projectId);
    if (!p || p.accountId !== accountId) throw notFound("project");
    return p;
  }

  projectsOf(accountId: string): Project[] {
    const out: Project[] = [];
    for (const p of this.projects.values()) if (p.accountId === accountId) out.push(p);
    return out;
  }

  branch(projectId: string, branchId: string): Branch {
    const b = this.branches.get(branchId);
    if (!b || b.projectId !== projectId) throw notFound("branch");
    return b;
  }

  branchesOf(projectId: string): Branch[] {
    return [...this.branches.values()].filter((b) => b.projectId === projectId);
  }

  endpoint(projectId: string, endpointId: string): EndpointRecord {
    const e = this.endpoints.get(endpointId);
    if (!e || e.projectId !== projectId) throw notFound("endpoint");
    return e;
  }

  endpointsOf(projectId: string, branchId?: string): EndpointRecord[] {
    const out: EndpointRecord[] = [];
    for (const e of this.endpoints.values()) {
      if (e.projectId === projectId && (branchId === undefined || e.branchId === branchId)) out.push(e);
    }
    return out;
  }

  addProject(p: Project): void {
    if (this.projects.has(p.id)) throw new ApiError(409, `project ${p.id} already exists`);
    this.projects.set(p.id, p);
    this.dirty = true;
  }

  addBranch(b: Branch): void {
    this.branches.set(b.id, b);
    this.dirty = true;
  }

  /** A role of the branch, else 404 `role not found`. */
  role(branchId: string, name: string): RoleRecord {
    const r = this.roles.get(named(branchId, name));
    if (!r) throw notFound("role");
    return r;
  }

  findRole(branchId: string, name: string): RoleRecord | undefined {
    return this.roles.get(named(branchId, name));
  }

  rolesOf(branchId: string): RoleRecord[] {
    return [...this.roles.values()].filter((r) => r.branchId === branchId).sort((a, b) => a.seq - b.seq);
  }

  addRole(r: RoleRecord): void {
    this.roles.set(named(r.branchId, r.name), r);
    this.dirty = true;
  }

  removeRole(r: RoleRecord): void {
    this.roles.delete(named(r.branchId, r.name));
    this.dirty = true;
  }

  /** A database of the branch, else 404 `database not found`. */
  database(branchId: string, name: string): DatabaseRecord {
    const d = this.databases.get(named(branchId, name));
    if (!d) throw notFound("database");
    return d;
  }

  findDatabase(branchId: string, name: string): DatabaseRecord | undefined {
    return this.databases.get(named(branchId, name));
  }

  databasesOf(branchId: string): DatabaseRecord[] {
    return [...this.databases.values()].filter((d) => d.branchId === branchId).sort((a, b) => a.seq - b.seq);
  }

  addDatabase(d: DatabaseRecord): void {
    this.databases.set(named(d.branchId, d.name), d);
    this.dirty = true;
  }

  removeDatabase(d: DatabaseRecord): void {
    this.databases.delete(named(d.branchId, d.name));
    this.dirty = true;
  }

  /** Renames a database in place (its id and record stay). */
  renameDatabase(d: DatabaseRecord, name: string): void {
    this.databases.delete(named(d.branchId, d.name));
    d.name = name;
    this.databases.set(named(d.branchId, d.name), d);
    this.dirty = true;
  }

  /** Removes a branch with everything on it: its computes, roles and databases. */
  removeBranch(id: string): void {
    for (const e of [...this.endpoints.values()]) if (e.branchId === id) this.endpoints.delete(e.id);
    for (const r of this.rolesOf(id)) this.removeRole(r);
    for (const d of this.databasesOf(id)) this.removeDatabase(d);
    this.branches.delete(id);
    this.dirty = true;
  }

  addEndpoint(e: EndpointRecord): void {
    this.endpoints.set(e.id, e);
    this.dirty = true;
  }

  removeEndpoint(id: string): void {
    this.endpoints.delete(id);
    this.dirty = true;
  }

  addOperation(op: OperationRecord): void {
    this.operations.set(op.id, op);
    let list = this.opsByProject.get(op.projectId);
    if (!list) this.opsByProject.set(op.projectId, (list = []));
    list.push(op);
    this.dirty = true;
  }

  snapshot(clockNow: number): Snapshot {
    return {
      version: 1,
      clockNow,
      seq: this.seq,
      nextKeyId: this.nextKeyId,
      accounts: [...this.accounts.values()],
      organizations: [...this.organizations.values()],
      keys: [...this.keys.values()],
      projects: [...this.projects.values()],
      branches: [...this.branches.values()],
      endpoints: [...this.endpoints.values()],
      operations: [...this.operations.values()],
      roles: [...this.roles.values()].map(({ password: _secret, ...r }) => r),
      databases: [...this.databases.values()],
      nextDatabaseId: this.nextDatabaseId,
      world: this.world,
    };
  }

  /** The role passwords, for the state file's `.passwords` companion. */
  passwords(): RolePasswords {
    const out: RolePasswords = {};
    for (const r of this.roles.values()) if (r.password !== undefined) (out[r.branchId] ??= {})[r.name] = r.password;
    return out;
  }

  /**
   * The world of a state file. `passwords`: its `.passwords` companion; a login role whose password it lacks (the
   * companion deleted, say) gets `newPassword()`.
   */
  static restore(s: Snapshot, passwords: RolePasswords = {}): Store {
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
}
