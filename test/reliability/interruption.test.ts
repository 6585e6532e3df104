/**
 * Interruption (issue 6, part 3): the plugin killed in the middle of a wait for a slow operation; a new plugin's
 * next `up` converges and nothing is duplicated. See interruption.ts for what the provider can do mid-create.
 */
import { auditWorld } from "./audit";
import { killDuringWait } from "./interruption";
import { Rig } from "./rig";
import { ComputeDecl, DeclaredWorld, primaryDecl, programOf } from "./worlds";

const TAG = "interrupt";
let rig: Rig;
const ENDPOINTS = /^\/projects\/[^/]+\/endpoints$/;
const ONE = /^\/projects\/[^/]+\/endpoints\/ep-[^/]+$/;

beforeAll(async () => {
  // Operations take 0.8 s in each phase: the kill lands while the plugin waits.
  rig = await Rig.start({ projects: 1, operationDurationMs: 800, waitTimeoutSeconds: 20 });
});
afterAll(() => rig?.stop());

const compute = primaryDecl;
const world = (...computes: ComputeDecl[]): DeclaredWorld => ({ computes, keys: [] });

/** Two `up`s with the new plugin: the first converges, the second plans nothing; then the service is audited. */
async function expectConverged(declared: DeclaredWorld) {
  const next = await rig.up(programOf(declared, rig.projects));
  const again = await rig.up(programOf(declared, rig.projects));
  const audit = await auditWorld(rig, declared, TAG);
  return {
    nextErrors: next.errors.map((e) => e.message),
    againSteps: rig.engine.steps.map((s) => `${s.op} ${s.name}`),
    again: again.errors,
    audit,
  };
}

async function cleanUp() {
  await rig.up(programOf(world(), rig.projects));
  // Whatever an earlier case left behind (an orphan it reported) is removed, so the next case starts clean.
  const api = rig.api();
  for (const c of await api.endpoints.list(rig.projects[0].id)) {
    if (!rig.projects[0].fixtureComputes.includes(c.id)) await api.endpoints.delete(rig.projects[0].id, c.id);
  }
}

describe("the plugin killed in the middle of a wait", () => {
  afterEach(cleanUp);

  it.each([
    ["a resize", compute("db"), compute("db", { min: 1, max: 2 })],
    ["a branch move", compute("db"), compute("db", { branch: "staging" })],
    ["a restart trigger", compute("db"), compute("db", { trigger: 1 })],
  ])("during %s: the next up converges, nothing duplicated", async (_label, before, after) => {
    expect((await rig.up(programOf(world(before), rig.projects))).errors).toEqual([]);
    const write =
      after.trigger !== before.trigger ? { method: "POST", path: /\/restart$/ } : { method: "PATCH", path: ONE };
    await killDuringWait(rig, world(after), write);
    const result = await expectConverged(world(after));
    expect(result.nextErrors).toEqual([]);
    expect(result.againSteps).toEqual(["same db"]);
    expect(result.audit).toEqual({ duplicates: [], orphans: [], lostKeys: [], orphanKeys: [], mismatches: [] });
  });

  it.each([
    ["a read replica", compute("replica", { type: "read_only", branch: "main" })],
    ["a primary", compute("db")],
  ])("during the create of %s: the next up converges and leaves no duplicate or orphan", async (_label, declared) => {
    await killDuringWait(rig, world(declared), { method: "POST", path: ENDPOINTS });
    expect(rig.engine.state.size).toBe(0); // the engine never got an id, as real Pulumi
    const result = await expectConverged(world(declared));
    expect(result.nextErrors).toEqual([]);
    expect(result.audit).toEqual({ duplicates: [], orphans: [], lostKeys: [], orphanKeys: [], mismatches: [] });
  });
});
