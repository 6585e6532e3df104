import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { copyRolesAndDatabases, newDatabase, newRole, seedDefaults } from "./branching";
import type {
  Fixture,
  FixtureAccount,
  FixtureBranch,
  FixtureEndpoint,
  FixtureMembership,
  FixtureProject,
} from "./fixture-format";
import { newApiKeySecret, newBranchId, newEndpointId, newProjectId } from "./ids";
import { databaseName, roleName } from "./pg-input";
import { Store } from "./store";
import type { Branch, EndpointConfig, EndpointRecord } from "./types";

/** The default config of a new compute: a fixed 0.25 CU, default autosuspend, the neonvm provisioner. */
export function defaultConfig(): EndpointConfig {
  return {
    autoscaling_limit_min_cu: 0.25,
    autoscaling_limit_max_cu: 0.25,
    suspend_timeout_seconds: 0,
    provisioner: "k8s-neonvm",
    pooler_enabled: false,
    pooler_mode: "transaction",
    disabled: false,
    passwordless_access: true,
    settings: { pg_settings: {} },
  };
}

/** The default world's project: branch main with its primary compute, and branches dev and staging. */
export const DEFAULT_PROJECT: FixtureProject = {
  name: "emulator-project",
  region_id: "aws-us-east-2",
  branches: [
    { name: "main", endpoints: [{ type: "read_write", current_state: "active" }] },
    { name: "dev" },
    { name: "staging" },
  ],
};

/** Reads a fixture file (or takes the object), so a bad fixture fails at start with the file named. */
export function loadFixture(fixture: string | Fixture | undefined): Fixture {
  if (fixture === undefined) return { accounts: [{ projects: [DEFAULT_PROJECT] }] };
  const f = typeof fixture === "string" ? (JSON.parse(readFileSync(fixture, "utf8")) as Fixture) : fixture;
  if (!f || !Array.isArray(f.accounts) || f.accounts.length === 0) {
    throw new Error(`fixture${typeof fixture === "string" ? ` ${fixture}` : ""} needs a non-empty "accounts" array`);
  }
  return f;
}

export interface Seeded {
  accountId: string;
  apiKey: string;
  projectId: string;
}

/** Adds one account with its key and projects; returns its ids and the secret (kept only by the caller). */
export function seedAccount(store: Store, a: FixtureAccount, now: number, apiKey?: string): Seeded {
  const accountId = a.id ?? randomUUID();
  if (a.plan !== undefined && a.plan !== "free" && a.plan !== "paid") {
    throw new Error(`fixture account plan ${JSON.stringify(a.plan)} is not allowed; allowed: free, paid`);
  }
  store.addAccount({ id: accountId, name: a.name ?? "Emulator User", ...(a.plan === "free" ? { plan: "free" } : {}) });
  const secret = apiKey ?? a.apiKey ?? newApiKeySecret();
  store.addKey(accountId, "console", secret, now);
  for (const m of a.organizations ?? []) joinFixtureOrganization(store, accountId, m, now);
  const projectIds = (a.projects ?? []).map((p) => seedProject(store, accountId, p, now));
  return { accountId, apiKey: secret, projectId: projectIds[0] ?? "" };
}

/** A membership of the fixture: a bad id or role fails at start, naming it. */
function joinFixtureOrganization(store: Store, accountId: string, m: FixtureMembership, now: number): void {
  if (typeof m?.id !== "string" || !/^[a-z0-9-]{1,60}$/.test(m.id)) {
    throw new Error(`fixture organization id ${JSON.stringify(m?.id)} must match ^[a-z0-9-]{1,60}$`);
  }
  if (m.role !== undefined && m.role !== "admin" && m.role !== "member") {
    throw new Error(`fixture organization role ${JSON.stringify(m.role)} is not allowed; allowed: admin, member`);
  }
  store.joinOrganization(m, accountId, m.role ?? "admin", now);
}

/**
 * Adds one project (its branches and computes); an `org_id` puts it in that organization, and its owner joins it (as an
 * admin unless the account's `organizations` say otherwise).
 */
export function seedProject(store: Store, accountId: string, p: FixtureProject, now: number): string {
  const id = p.id ?? newProjectId();
  if (p.org_id) joinFixtureOrganization(store, accountId, { id: p.org_id }, now);
  const regionId = p.region_id ?? "aws-us-east-2";
  const seq = store.nextSeq();
  store.addProject({
    id,
    accountId,
    name: p.name ?? id,
    regionId,
    pgVersion: p.pg_version ?? 17,
    ...(p.org_id ? { orgId: p.org_id } : {}),
    createdAt: now,
    updatedAt: now,
    seq,
  });
  let root: Branch | undefined;
  (p.branches ?? [{ name: "main" }]).forEach((b, i) => {
    const branchId = b.id ?? newBranchId();
    const base = { projectId: id, name: b.name, isDefault: i === 0, createdAt: now, updatedAt: now };
    if (b.protected) Object.assign(base, { protected: true });
    const branch: Branch = { id: branchId, ...base, ...(root ? { parentId: root.id } : {}), seq: store.nextSeq() };
    store.addBranch(branch);
    seedRolesAndDatabases(store, branch, b, root, now);
    root ??= branch;
    for (const e of b.endpoints ?? []) store.addEndpoint(seedEndpoint(store, id, branchId, regionId, e, now));
  });
  return id;
}

/**
 * A fixture branch's roles and databases: those it declares (either list declared: both from the declaration), else a
 * new project's `neondb_owner` and `neondb` on the first branch and copies of the first's on the others (its children).
 * A bad name or an unknown owner fails at start, naming it.
 */
function seedRolesAndDatabases(
  store: Store,
  branch: Branch,
  b: FixtureBranch,
  root: Branch | undefined,
  now: number,
): void {
  if (b.roles === undefined && b.databases === undefined) {
    if (root) copyRolesAndDatabases(store, root, branch, now);
    else seedDefaults(store, branch, now);
    return;
  }
  const where = `fixture branch ${JSON.stringify(b.name)}`;
  try {
    for (const r of b.roles ?? []) {
      const name = roleName("roles[].name", r?.name);
      if (store.findRole(branch.id, name)) throw new Error(`role ${name} is declared twice`);
      if (r.password !== undefined && (typeof r.password !== "string" || r.password === "")) {
        throw new Error(`role ${name}: password must be a non-empty string`);
      }
      newRole(store, branch, name, now, { noLogin: r.no_login === true, password: r.password });
    }
    for (const d of b.databases ?? []) {
      const name = databaseName("databases[].name", d?.name);
      if (store.findDatabase(branch.id, name)) throw new Error(`database ${name} is declared twice`);
      if (typeof d.owner_name !== "string" || !store.findRole(branch.id, d.owner_name)) {
        throw new Error(`database ${name}: owner_name ${JSON.stringify(d.owner_name)} is not a role of the branch`);
      }
      newDatabase(store, branch, name, d.owner_name, now);
    }
  } catch (err) {
    throw new Error(`${where}: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
}

function seedEndpoint(
  store: Store,
  projectId: string,
  branchId: string,
  regionId: string,
  e: FixtureEndpoint,
  now: number,
): EndpointRecord {
  const { id, type, current_state, ...config } = e;
  const active = current_state !== "idle";
  return {
    id: id ?? newEndpointId(),
    projectId,
    branchId,
    regionId,
    type: type ?? "read_write",
    config: { ...defaultConfig(), ...config },
    creationSource: "console",
    createdAt: now,
    updatedAt: now,
    currentState: active ? "active" : "idle",
    lastActiveAt: now,
    startedAt: now,
    ...(active ? {} : { suspendedAt: now }),
    seq: store.nextSeq(),
  };
}
