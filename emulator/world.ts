import { seedOlderWorld } from "./branching";
import { createClock, type Clock } from "./clock";
import { DEFAULT_PROJECT, loadFixture, seedAccount, seedProject, type Seeded } from "./fixture";
import type { Fixture } from "./fixture-format";
import { newApiKeySecret, newOrgId } from "./ids";
import { readPasswords, readState } from "./persistence";
import { restoreStore } from "./snapshot";
import { Store } from "./store";
import { replacing } from "./world-identity";
import type { OrgRole, Plan } from "./types";

export interface WorldOptions {
  apiKey?: string;
  plan?: Plan; // of the first account (the console key's); a fixture's own plan is kept when this is absent
  manualClock?: boolean;
  timeScale?: number;
  stateFile?: string;
  fixture?: string | Fixture;
  organization?: string; // a fresh world's first account is an admin of this organization, which holds its first project
  fresh?: boolean; // a new world even when the state file holds one (which it then replaces, remembering its identity)
}

/**
 * The starting world: the saved state when a state file exists (its timeline continues, never going back),
 * else the fixture or the default world. The console key is the given one, or a fresh one printed once.
 */
export function loadWorld(options: WorldOptions): { store: Store; clock: Clock; seeded: Seeded } {
  if (options.apiKey !== undefined && !/^\S{1,512}$/.test(options.apiKey)) {
    throw new Error("apiKey must be 1..512 characters without whitespace");
  }
  const saved = options.stateFile ? readState(options.stateFile) : undefined;
  if (!saved || options.fresh) {
    const clock = createClock({ manual: options.manualClock, timeScale: options.timeScale });
    const store = new Store();
    const fixture = loadFixture(options.fixture);
    const now = clock.now();
    const first = options.plan ? { ...fixture.accounts[0], plan: options.plan } : fixture.accounts[0];
    const seeded = seedAccount(store, first, now, options.apiKey);
    for (const a of fixture.accounts.slice(1)) seedAccount(store, a, now);
    if (options.organization !== undefined) moveIntoOrganization(store, seeded, options.organization, now);
    if (saved) store.world = replacing(saved);
    return { store, clock, seeded };
  }
  const store = restoreStore(saved, readPasswords(options.stateFile as string));
  const startAt = options.manualClock ? saved.clockNow : Math.max(saved.clockNow, Date.now());
  const clock = createClock({ manual: options.manualClock, timeScale: options.timeScale, startAt });
  if (saved.roles === undefined) seedOlderWorld(store, clock.now());
  return { store, clock, seeded: consoleOf(store, clock.now(), options.apiKey) };
}

function consoleOf(store: Store, now: number, apiKey?: string): Seeded {
  const account = store.accounts.values().next().value;
  if (!account) throw new Error("the state file holds no account");
  let secret = apiKey;
  const existing = secret === undefined ? undefined : store.findKey(secret);
  if (existing?.revoked) throw new Error("the given API key was revoked (see the state file)");
  if (existing && existing.accountId !== account.id) throw new Error("the given API key belongs to another account");
  if (!existing) store.addKey(account.id, "console", (secret ??= newApiKeySecret()), now);
  const projects = store.projectsOf(account.id).sort((a, b) => a.seq - b.seq);
  return { accountId: account.id, apiKey: secret as string, projectId: projects[0]?.id ?? "" };
}

/** The `organization` option: the first account becomes its admin, and its first project moves into it. */
function moveIntoOrganization(store: Store, seeded: Seeded, orgId: string, now: number): void {
  if (!/^[a-z0-9-]{1,60}$/.test(orgId))
    throw new Error(`organization ${JSON.stringify(orgId)} must match ^[a-z0-9-]{1,60}$`);
  store.joinOrganization({ id: orgId }, seeded.accountId, "admin", now);
  const project = store.projects.get(seeded.projectId);
  if (project) project.orgId = orgId;
}

export interface OrganizationOptions {
  id?: string; // default: a fresh org-<words>-<digits>
  name?: string;
  members?: Record<string, OrgRole>; // account id → role; default: the first account, admin
  projects?: number; // new projects in it, each like the default world's, owned by the first admin; default 1
}

/** A new organization with members and projects of its own, for tests of organization and project-scoped keys. */
export function addOrganization(
  store: Store,
  now: number,
  consoleAccountId: string,
  options: OrganizationOptions = {},
): { orgId: string; projectIds: string[] } {
  const orgId = options.id ?? newOrgId();
  const members = Object.entries(options.members ?? { [consoleAccountId]: "admin" as OrgRole });
  for (const [accountId, role] of members) {
    if (!store.accounts.has(accountId)) throw new Error(`organization member ${accountId} is not an account`);
    store.joinOrganization({ id: orgId, name: options.name }, accountId, role, now);
  }
  const owner = members.find(([, role]) => role === "admin")?.[0] ?? members[0]?.[0] ?? consoleAccountId;
  const projects = Array.from({ length: options.projects ?? 1 }, () => ({ ...DEFAULT_PROJECT, org_id: orgId }));
  return { orgId, projectIds: projects.map((p) => seedProject(store, owner, p, now)) };
}

/** A second account with the default project, for isolation tests (and plan tests: `plan: "free"`). */
export function addAccount(store: Store, now: number, plan?: Plan): Seeded {
  return seedAccount(store, { projects: [DEFAULT_PROJECT], ...(plan ? { plan } : {}) }, now);
}
