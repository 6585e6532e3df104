import { ApiError, notFound } from "./errors";
import { newWorldId } from "./ids";
import { AccountStore } from "./store-accounts";
import type { Branch, DatabaseRecord, EndpointRecord, OperationRecord, Project, RoleRecord } from "./types";
import type { WorldIdentity } from "./world-identity";

/** The key of a branch's role or database in the store's maps (a name may hold any character but NUL). */
const named = (branchId: string, name: string): string => `${branchId}\u0000${name}`;

/**
 * The world: accounts and keys (their part in store-accounts.ts), projects, branches, computes and operations, with
 * ownership checks in the lookups so no route can hand out another account's object (they answer 404, like the real
 * service). Only the collections: the rules that change them are in domain/, their form in a state file in snapshot.ts.
 */
export class Store extends AccountStore {
  readonly projects = new Map<string, Project>();
  readonly branches = new Map<string, Branch>();
  readonly endpoints = new Map<string, EndpointRecord>();
  readonly operations = new Map<string, OperationRecord>();
  readonly opsByProject = new Map<string, OperationRecord[]>();
  readonly roles = new Map<string, RoleRecord>();
  readonly databases = new Map<string, DatabaseRecord>();
  seq = 0;
  nextDatabaseId = 1000001;
  /** Which world this is, and the worlds it replaced (world-identity.ts). */
  world: WorldIdentity = { id: newWorldId(), previous: [] };

  nextSeq(): number {
    return ++this.seq;
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

  /** Removes a project with everything in it: its branches (their computes, roles, databases) and its operations. */
  removeProject(id: string): void {
    for (const b of this.branchesOf(id)) this.removeBranch(b.id);
    for (const e of this.endpointsOf(id)) this.endpoints.delete(e.id);
    for (const op of this.opsByProject.get(id) ?? []) this.operations.delete(op.id);
    this.opsByProject.delete(id);
    this.projects.delete(id);
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
}
