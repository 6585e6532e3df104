import { randomUUID } from "node:crypto";
import { readFileSync } from "node:fs";
import { newApiKeySecret, newBranchId, newEndpointId, newProjectId } from "./ids";
import { Store } from "./store";
import type { EndpointConfig, EndpointRecord, Fixture, FixtureAccount, FixtureEndpoint, FixtureProject } from "./types";

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
  const projectIds = (a.projects ?? []).map((p) => seedProject(store, accountId, p, now));
  return { accountId, apiKey: secret, projectId: projectIds[0] ?? "" };
}

function seedProject(store: Store, accountId: string, p: FixtureProject, now: number): string {
  const id = p.id ?? newProjectId();
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
  let parentId: string | undefined;
  (p.branches ?? [{ name: "main" }]).forEach((b, i) => {
    const branchId = b.id ?? newBranchId();
    const base = { projectId: id, name: b.name, isDefault: i === 0, createdAt: now, updatedAt: now };
    if (b.protected) Object.assign(base, { protected: true });
    store.addBranch({ id: branchId, ...base, ...(parentId ? { parentId } : {}), seq: store.nextSeq() });
    parentId ??= branchId;
    for (const e of b.endpoints ?? []) store.addEndpoint(seedEndpoint(store, id, branchId, regionId, e, now));
  });
  return id;
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
