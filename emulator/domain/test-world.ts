import { resolveBehaviours, type ServiceBehaviours } from "../behaviours";
import { DEFAULT_PROJECT, seedAccount } from "../fixture";
import type { FixtureAccount } from "../fixture-format";
import { Store } from "../store";
import type { Branch, KeyRecord, Plan, Project } from "../types";
import { createService, settledProject, type Service } from "./service";

/** The instant a test world starts at (service-clock ms). */
export const T0 = Date.parse("2026-11-01T00:00:00Z");

/** A world of one account, as the emulator starts it, for domain tests: no server, no HTTP. */
export interface TestWorld {
  svc: Service;
  key: KeyRecord;
  project: Project;
  /** The default project's branch of that name (main, dev, staging), as the store holds it now. */
  branch(name: string): Branch;
}

/**
 * The default world (main with its active primary compute, dev and staging; `neondb_owner` owning `neondb` on each),
 * or `account`'s, with `behaviours` set; operations take `operationDurationMs` (1 s) of service time per phase.
 */
export function testWorld(
  options: { behaviours?: Partial<ServiceBehaviours>; account?: FixtureAccount; plan?: Plan } = {},
): TestWorld {
  const store = new Store();
  const account = options.account ?? { projects: [DEFAULT_PROJECT], ...(options.plan ? { plan: options.plan } : {}) };
  const seeded = seedAccount(store, account, T0);
  const svc = createService(store, resolveBehaviours(options.behaviours), 1000);
  const key = store.findKey(seeded.apiKey) as KeyRecord;
  const project = settledProject(svc, key, seeded.projectId, T0);
  const branch = (name: string): Branch => {
    const b = store.branchesOf(project.id).find((x) => x.name === name);
    if (!b) throw new Error(`no branch ${name}`);
    return b;
  };
  return { svc, key, project, branch };
}
