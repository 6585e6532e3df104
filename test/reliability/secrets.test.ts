/**
 * Secrets (issue 6, part 5): after every scenario (create, rotation, a lost key create, a failed create,
 * destroy) no API key used or created appears in plain text in the state as a backend writes it, any command's
 * diagnostics (every line the plugin wrote) or printed outputs, any error (message and stack), `__provider`, or the
 * emulator's state file (leaks.ts). Also: a revoked key fails on the next request; another account's compute
 * answers 404; the state file holds no secret.
 */
import { getWith, statusWith } from "./audit";
import { leaks, secretsInState } from "./leaks";
import { Rig } from "./rig";
import { DeclaredWorld, programOf } from "./worlds";

const TAG = "secrets";
let rig: Rig;
const secrets = new Set<string>();
const errors: Error[] = [];

beforeAll(async () => {
  rig = await Rig.start({ projects: 1 });
  secrets.add(rig.emulator.apiKey);
});
afterAll(() => rig?.stop());

const keys = (...names: string[]): DeclaredWorld => ({
  computes: [{ name: "db", project: 0, branch: "dev", type: "read_write", min: 0.25, max: 1, trigger: 0 }],
  keys: names.map((n) => ({ name: n.split(":")[0], keyName: `${TAG}-${n.replace(":", "-")}` })),
});

/** One `up`; keeps its errors and every secret it produced. */
async function up(world: DeclaredWorld) {
  const result = await rig.up(programOf(world, rig.projects));
  errors.push(...result.errors);
  for (const key of (result.exports.keys as string[] | undefined) ?? []) if (key) secrets.add(key);
  for (const key of secretsInState(rig)) secrets.add(key);
  return result;
}

async function expectNoLeak() {
  await rig.restartEmulator(undefined); // flushes the state file, which is searched too
  expect(leaks(rig, errors, secrets)).toEqual([]);
}

describe("no key in plain text, after every scenario", () => {
  it("create: keys and a compute", async () => {
    expect((await up(keys("ci:1", "deploy:1"))).errors).toEqual([]);
    expect(secrets.size).toBe(3);
    await expectNoLeak();
  });

  it("rotation: the new key works, the old one answers 401 on the next request", async () => {
    const old = secretsInState(rig);
    expect((await up(keys("ci:2", "deploy:1"))).errors).toEqual([]);
    const now = secretsInState(rig);
    const revoked = old.filter((k) => !now.includes(k));
    expect(revoked).toHaveLength(1);
    expect(await statusWith(rig, revoked[0])).toBe(401);
    for (const key of now) expect(await statusWith(rig, key)).toBe(200);
    await expectNoLeak();
  });

  it("a key create whose response is lost: sent again, the key it may have made named in a warning", async () => {
    rig.emulator.faults.add({ method: "POST", path: /^\/api_keys$/, kind: "ambiguous" });
    const lost = await up(keys("ci:2", "deploy:1", "extra:1"));
    expect(lost.errors).toEqual([]);
    expect(rig.totals().faults).toBe(1);
    expect(lost.warnings.join("\n")).toMatch(/Keys of that name created since the first attempt: \d+/);
    await expectNoLeak();
  });

  it("a compute create answered 500 (resent under a new name), whose start then fails; then the repairing up", async () => {
    rig.emulator.faults.add({ method: "POST", path: /\/endpoints$/, kind: "500" });
    rig.emulator.operations.failNext({ action: "start_compute", error: "injected: the start failed" });
    const world = keys("ci:2", "deploy:1", "extra:1");
    world.computes.push({
      name: "replica",
      project: 0,
      branch: "main",
      type: "read_only",
      min: 0.25,
      max: 0.25,
      trigger: 0,
    });
    expect((await up(world)).errors[0]?.message).toMatch(/exists but is not ready: .*start_compute/);
    expect(rig.totals().faults).toBe(2); // the lost key create's, and this 500
    await rig.restartEmulator(undefined);
    expect((await up(world)).errors).toEqual([]);
    await expectNoLeak();
  });

  it("destroy: every key revoked (401), nothing leaked", async () => {
    const last = secretsInState(rig);
    expect((await rig.destroy()).error).toBeUndefined();
    for (const key of last) expect(await statusWith(rig, key)).toBe(401);
    await expectNoLeak();
  });
});

describe("isolation and storage", () => {
  it("another account's compute answers 404 to our key, and the provider cannot adopt it", async () => {
    const other = rig.emulator.createAccount();
    secrets.add(other.apiKey);
    const theirs = await statusListed(other.apiKey, other.projectId);
    expect(theirs.status).toBe(200);
    const endpointId = theirs.ids[0];
    expect((await statusListed(rig.emulator.apiKey, other.projectId)).status).toBe(404);
    const mine = await fetchWith(rig.emulator.apiKey, `/projects/${other.projectId}/endpoints/${endpointId}`);
    expect(mine).toBe(404);
    const { Compute } = await import("../../provider");
    const branchId = rig.projects[0].branches.dev;
    const result = await rig.up(
      () => new Compute("stolen", { projectId: other.projectId, branchId, adoptId: endpointId }),
    );
    errors.push(...result.errors);
    expect(result.errors[0]?.message).toMatch(/not found|does not exist|404/);
    await expectNoLeak();
  });

  it("the emulator's state file holds no secret", async () => {
    await rig.restartEmulator(undefined);
    const text = require("fs").readFileSync(rig.stateFile, "utf8") as string;
    for (const key of secrets) expect(text.includes(key)).toBe(false);
    expect(text.length).toBeGreaterThan(100);
  });
});

async function fetchWith(key: string, path: string): Promise<number> {
  return (await getWith(rig, key, path)).status;
}

async function statusListed(key: string, projectId: string): Promise<{ status: number; ids: string[] }> {
  const response = await getWith(rig, key, `/projects/${projectId}/endpoints`);
  return { status: response.status, ids: (response.data?.endpoints ?? []).map((e: { id: string }) => e.id) };
}
