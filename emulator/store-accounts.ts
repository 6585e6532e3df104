import { createHash, timingSafeEqual } from "node:crypto";
import type { Account, KeyRecord, Organization, OrgRole } from "./types";

/** sha256 hex of a key secret: the only form in which a key is kept (in memory and in the state file). */
export const hashKey = (secret: string): string => createHash("sha256").update(secret).digest("hex");

/**
 * Who may call: the world's accounts, their organizations and their API keys (kept as hashes only), the part of the
 * store that auth reads. The base of `Store` (store.ts), which adds the projects and everything in them.
 */
export class AccountStore {
  readonly accounts = new Map<string, Account>();
  readonly organizations = new Map<string, Organization>();
  readonly keys = new Map<number, KeyRecord>();
  private readonly keysByHash = new Map<string, KeyRecord>();
  nextKeyId = 100001;
  /** Set by every mutation; the persistence layer saves and clears it. */
  dirty = false;

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

  /** Puts a key record in place (a new one, or one a state file holds: snapshot.ts). */
  insertKey(rec: KeyRecord): void {
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
}
