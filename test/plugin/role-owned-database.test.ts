/**
 * Issue 23, item 19: a Role and a Database it owns, removed from the program together, go in one `up`. The database's
 * `ownerName` is a plain string (`"app"` beside `new Role("app", { name: "app" })`), so the engine sees no dependency
 * and sends both deletes at once; both go through one plugin process and its project lock. When the role's DELETE is
 * sent first, Neon refuses it (the role owns a database) while the database's delete is still coming: the role's delete
 * must wait for it and then delete, not fail with a raw 422 that only a second `up` gets past.
 *
 * The order is made certain by the emulator: the database delete's first read (its identity check, a GET of the
 * branch's databases) is held back, so the role's DELETE reaches the service first and is refused. Whether Neon still
 * counts a database whose delete was answered until that delete's operations finish is not documented: the emulator
 * plays both (behaviour `databaseOwnedUntil`), and the last cases delete the database from outside just before the
 * `up`, so that the role's DELETE arrives while that delete's operation runs: 423 by default (retried), 422 under
 * `finished` (waited out by provider/role/refusal.ts).
 */
import { Database, Role } from "../../provider";
import type { DatabaseOwnedUntil } from "../../emulator/behaviours";
import { neonWorld, NeonWorld, ok, ops, requests, writes } from "./world";

let world: NeonWorld;
let declared: { role: boolean; database: boolean };

beforeAll(async () => {
  world = await neonWorld();
});
afterAll(() => world.stop());

const base = () => `/projects/${world.projectId}/branches/${world.branches.dev}`;

describe("a role and the database it owns (a plain-string ownerName)", () => {
  const stack = () =>
    world.stack(() => {
      const where = { projectId: world.projectId, branchId: world.branches.dev };
      const out: Record<string, unknown> = {};
      if (declared.role) out.role = new Role("app", { ...where, name: "app" }).id;
      if (declared.database) out.database = new Database("appdb", { ...where, name: "appdb", ownerName: "app" }).id;
      return out;
    });

  it("are both deleted in one up: the role's refused delete waits for the database's, then deletes", async () => {
    declared = { role: true, database: false };
    const both = stack();
    ok(await both.up());
    declared = { role: true, database: true };
    ok(await both.up());

    declared = { role: false, database: false };
    world.emulator.faults.add({ method: "GET", path: /\/databases$/, kind: "slow", delayMs: 1500, times: 1 });
    const up = await both.up({ skipPreview: true });
    world.emulator.faults.clear();
    expect(up.error?.message).toBeUndefined();
    expect(ops(up, "app", "appdb")).toEqual(["delete app", "delete appdb"]);
    // the role's first DELETE was refused (the database still stood), and sent again once the database was gone
    expect(writes(up)).toEqual([
      `DELETE ${base()}/roles/app`,
      `DELETE ${base()}/databases/appdb`,
      `DELETE ${base()}/roles/app`,
    ]);
    expect(requests(up).map((r) => `${r.method} ${r.path} ${r.status}`)).toContain(`DELETE ${base()}/roles/app 422`);
    expect(both.state.resources.filter((r) => /::(app|appdb)$/.test(r.urn))).toEqual([]);
    const roles = (await world.api.roles.list(world.projectId, world.branches.dev)).map((r) => r.name);
    const databases = (await world.api.databases.list(world.projectId, world.branches.dev)).map((d) => d.name);
    expect(roles).not.toContain("app");
    expect(databases).not.toContain("appdb");
  });

  it("the role alone removed: refused at once (nothing deletes the database), naming it and ownerName: role.name", async () => {
    declared = { role: true, database: false };
    const alone = stack();
    ok(await alone.up());
    declared = { role: true, database: true };
    ok(await alone.up());
    declared = { role: false, database: true };
    const up = await alone.up({ skipPreview: true });
    expect(up.error?.message).toContain(
      `Neon refused to delete role app of branch ${world.branches.dev} (HTTP 422: role app owns database`,
    );
    expect(up.error?.message).toContain(
      "it owns database appdb, and a role that owns a database cannot be deleted. Delete it first, or give it " +
        "another owner",
    );
    expect(up.error?.message).toContain("declare ownerName: role.name (the Role's output)");
    expect(up.error?.message).not.toContain("\n");
    expect(writes(up)).toEqual([`DELETE ${base()}/roles/app`]);
    declared = { role: false, database: false };
    ok(await alone.up());
    expect(alone.state.resources.filter((r) => /::(app|appdb)$/.test(r.urn))).toEqual([]);
  });
});

describe.each<[DatabaseOwnedUntil, number]>([
  ["answered", 423],
  ["finished", 422],
])("a role deleted while another's delete of its database runs (counted until its delete is %s)", (until, refusal) => {
  let own: NeonWorld;
  // Service time moves with real time, a tick every 20 ms, except while held: the other process's delete of the
  // database stays unfinished until the up's role DELETE has met it, however slow a loaded machine is.
  let held = false;
  let ticker: NodeJS.Timeout;
  beforeAll(async () => {
    own = await neonWorld({ emulator: { operationDurationMs: 1000, manualClock: true, databaseOwnedUntil: until } });
    ticker = setInterval(() => held || own.emulator.clock.advance(20), 20);
  });
  afterAll(async () => {
    clearInterval(ticker);
    await own.stop();
  });

  /** Resolves once the emulator has answered a request that `matches` (fails after a minute without one). */
  async function answered(matches: (entry: { method: string; path: string }) => boolean): Promise<void> {
    for (const deadline = Date.now() + 60_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 20)))
      if (own.emulator.requests.some(matches)) return;
    throw new Error("the up sent no DELETE of role app within a minute");
  }

  it(`the up removing both converges: the role's DELETE meets ${refusal} first, then goes`, async () => {
    const main = own.branches.main; // its running primary gives a role's or database's change an operation
    const shown = { role: true, database: true };
    const stack = own.stack(() => {
      const where = { projectId: own.projectId, branchId: main };
      const out: Record<string, unknown> = {};
      if (shown.role) out.role = new Role("app", { ...where, name: "app" }).id;
      if (shown.database) out.database = new Database("appdb", { ...where, name: "appdb", ownerName: "app" }).id;
      return out;
    });
    shown.database = false;
    ok(await stack.up({ skipPreview: true }));
    shown.database = true;
    ok(await stack.up({ skipPreview: true }));

    // Another process (the console, another stack) deletes the database; its operation runs for a while. This
    // process's own deletes are ordered by its project lock, so only another's can leave the window open.
    held = true;
    const url = `${own.emulator.baseUrl}/projects/${own.projectId}/branches/${main}/databases/appdb`;
    const deleted = await fetch(url, { method: "DELETE", headers: { authorization: `Bearer ${own.emulator.apiKey}` } });
    expect(deleted.status).toBe(200);

    shown.role = shown.database = false;
    const upping = stack.up({ skipPreview: true });
    await answered((r) => r.method === "DELETE" && r.path.endsWith("/roles/app")).finally(() => (held = false));
    const up = await upping;
    expect(up.error?.message).toBeUndefined();
    expect(ops(up, "app", "appdb")).toEqual(["delete app", "delete appdb"]);
    const roleDeletes = requests(up).filter((r) => r.method === "DELETE" && r.path.endsWith("/roles/app"));
    expect(roleDeletes.map((r) => r.status)).toContain(refusal);
    expect(roleDeletes[roleDeletes.length - 1].status).toBe(200);
    expect((await own.api.roles.list(own.projectId, main)).map((r) => r.name)).not.toContain("app");
  });
});
