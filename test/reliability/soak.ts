/**
 * The fault soak (issue 6, part 1), shared by the full run (test/soak/run.ts) and the seeded jest version.
 *
 * A run: a fresh emulator and stack; a few `pulumi up --skip-preview` of random successive worlds with faults on
 * (random HTTP faults at `rate`, plus failed and stuck operations armed with operations.failNext/stickNext), each
 * preceded (faults off) by bystander keys named like the world's new keys, as another stack's would be; then, faults
 * off, up to three repairing `up`s and one more that must plan nothing and send no write; then the audit (audit.ts)
 * and a destroy that must leave the projects as the fixture made them and every bystander key working.
 *
 * A lost key create may leave a key nobody holds: that is a reported stray when a warning of the `up` that made it
 * named its id, and is counted apart; an unreported one is a failure (an orphan key), as is any bystander revoked.
 *
 * Reproducible from the seed: run r draws its worlds, its operation faults and the emulator's fault seed from
 * `seed` and r. The emulator's faults follow the order requests arrive in, which parallel resources and
 * polling may vary slightly, so a rerun meets nearly (not always exactly) the same faults.
 */
import { Emulator, FaultKind, RequestLogEntry } from "../../emulator";
import {
  AuditResult,
  auditWorld,
  Bystander,
  bystandersTaken,
  createBystander,
  failuresOf,
  inState,
  statusWith,
  unexplained,
} from "./audit";
import { leaks, secretsInState } from "./leaks";
import { API_KEY, COMPUTE, Rig } from "./rig";
import { emptyFigures, progress, SoakFigures } from "./soak-figures";
import { DeclaredWorld, EMPTY_WORLD, nextWorld, pick, programOf, Random, seeded } from "./worlds";

export { progress, SoakFigures } from "./soak-figures";

export interface SoakOptions {
  runs: number;
  seed: number;
  /** Faulty `up`s per run. Default 3. */
  steps?: number;
  /** Share of requests given a random fault. Default 0.15. */
  rate?: number;
  kinds?: FaultKind[];
  /** Chance per `up` of one failed operation / one stuck operation. Defaults 0.3 / 0.05. */
  failRate?: number;
  stickRate?: number;
  log?: (line: string) => void;
}

const ACTIONS = ["start_compute", "apply_config", "suspend_compute"];

export async function soak(options: SoakOptions): Promise<SoakFigures> {
  const figures = emptyFigures();
  for (let r = 0; r < options.runs; r++) {
    const runSeed = (options.seed * 100_003 + r) >>> 0;
    await soakRun(options, runSeed, figures, `run ${r} (seed ${options.seed}, run seed ${runSeed})`);
    figures.runs++;
    options.log?.(progress(figures));
  }
  return figures;
}

/** One run; adds its figures and problems. */
export async function soakRun(
  options: SoakOptions,
  runSeed: number,
  figures: SoakFigures,
  label: string,
): Promise<void> {
  const random = seeded(runSeed);
  const rig = await Rig.start({ projects: 2, waitTimeoutSeconds: 2 });
  const tag = `soak${runSeed.toString(36)}`;
  const problem = (text: string) => figures.problems.push(`${label}: ${text}`);
  const errors: Error[] = [];
  const secrets = new Set<string>([rig.emulator.apiKey]);
  const bystanders: Bystander[] = [];
  let world: DeclaredWorld = EMPTY_WORLD;
  try {
    for (let step = 0; step < (options.steps ?? 3); step++) {
      world = nextWorld(random, world, rig.projects.length, tag);
      await addBystanders(rig, world, bystanders, step > 0);
      for (const b of bystanders) secrets.add(b.key);
      await rig.restartEmulator({
        seed: Math.floor(random() * 2 ** 32),
        rate: options.rate ?? 0.15,
        kinds: options.kinds,
      });
      armOperationFaults(rig.emulator, random, options, figures);
      const { errors: seen } = await rig.up(programOf(world, rig.projects));
      errors.push(...seen);
      collectSecrets(secrets, rig);
    }
    await rig.restartEmulator(undefined); // faults off; stuck operations ended
    const repaired = await repair(rig, world, errors, secrets);
    if (!repaired.converged) problem(`did not converge: ${repaired.why}`);
    else figures.converged++;
    const audit = await auditWorld(rig, world, tag, bystanders);
    for (const line of failuresOf(audit)) problem(line);
    countAudit(figures, audit);
    await destroyAndCheck(rig, bystanders, problem);
  } catch (error) {
    problem(`the run itself failed: ${(error as Error).stack}`);
  } finally {
    finishRun(rig, figures, errors, secrets, problem);
    await rig.stop();
  }
}

/**
 * Bystander keys (made with the console key, faults off) for each key name of `world` that has none yet. After the
 * first step the running emulator is the previous step's faulty one: it is restarted with faults off first.
 */
async function addBystanders(rig: Rig, world: DeclaredWorld, bystanders: Bystander[], faulty: boolean) {
  const names = world.keys.map((k) => k.keyName).filter((name) => !bystanders.some((b) => b.name === name));
  if (names.length === 0) return;
  if (faulty) await rig.restartEmulator(undefined, { unstick: false });
  for (const name of names) bystanders.push(await createBystander(rig, name));
}

function countAudit(figures: SoakFigures, audit: AuditResult): void {
  figures.duplicates += audit.duplicates.length;
  figures.orphans += audit.orphans.length;
  figures.lostKeys += audit.lostKeys.length;
  figures.orphanKeys += audit.orphanKeys.length;
  figures.taken += audit.taken.length;
  figures.mismatches += audit.mismatches.length;
  figures.reportedStrays.push(...audit.reportedStrays);
}

/** Unexplained errors, leaks and request figures of a run, counted whether or not it got to its end. */
function finishRun(
  rig: Rig,
  figures: SoakFigures,
  errors: Error[],
  secrets: Set<string>,
  problem: (t: string) => void,
) {
  for (const error of errors) {
    const why = unexplained(error);
    if (why) {
      figures.unexplainedErrors++;
      problem(`unexplained error: ${why}`);
    }
  }
  const hits = leaks(rig, errors, secrets);
  figures.leaks += hits.length;
  for (const hit of hits) problem(`secret in plain text: ${hit}`);
  figures.errorsSeen += errors.length;
  const totals = rig.totals();
  figures.requests += totals.requests;
  figures.faultsInjected += totals.faults;
  figures.faultyRequests += totals.faultyRequests;
  for (const [status, n] of Object.entries(totals.byStatus))
    figures.byStatus[status] = (figures.byStatus[status] ?? 0) + n;
}

function armOperationFaults(emulator: Emulator, random: Random, options: SoakOptions, figures: SoakFigures): void {
  if (random() < (options.failRate ?? 0.3)) {
    emulator.operations.failNext({ action: pick(random, ACTIONS), error: "soak: injected operation failure" });
    figures.failedOperations++;
  }
  if (random() < (options.stickRate ?? 0.05)) {
    emulator.operations.stickNext({ action: pick(random, ACTIONS) });
    figures.stuckOperations++;
  }
}

/** Up to three repairing `up`s, then one that must change nothing and send no write. */
async function repair(
  rig: Rig,
  world: DeclaredWorld,
  errors: Error[],
  secrets: Set<string>,
): Promise<{ converged: boolean; why?: string }> {
  let last: Error[] = [];
  for (let attempt = 0; attempt < 3; attempt++) {
    const { errors: seen } = await rig.up(programOf(world, rig.projects));
    errors.push(...seen);
    collectSecrets(secrets, rig);
    last = seen;
    if (seen.length === 0) break;
  }
  if (last.length > 0)
    return { converged: false, why: `3 repairing ups failed; last: ${last.map((e) => e.message).join(" | ")}` };
  const again = await rig.up(programOf(world, rig.projects));
  errors.push(...again.errors);
  const changed = again.steps.filter((s) => s.op !== "same");
  const writes = (again.result.requests as RequestLogEntry[]).filter((r) => r.method !== "GET");
  if (again.errors.length > 0 || changed.length > 0 || writes.length > 0) {
    const what = [
      ...changed.map((s) => `${s.op} ${s.name}`),
      ...writes.map((w) => `${w.method} ${w.path}`),
      ...again.errors.map((e) => e.message),
    ];
    return { converged: false, why: `the up after repair was not empty: ${what.join(", ")}` };
  }
  return { converged: true };
}

/**
 * Destroy with faults off: every compute and key of the stack must be gone (keys answer 401), every bystander key
 * still working.
 */
async function destroyAndCheck(rig: Rig, bystanders: Bystander[], problem: (text: string) => void): Promise<void> {
  const ids = inState(rig, COMPUTE).map((r) => r.id);
  const keys = secretsInState(rig);
  const destroyed = await rig.destroy();
  if (destroyed.error) problem(`destroy failed: ${destroyed.error.message}`);
  const api = rig.api();
  for (const project of rig.projects) {
    const left = (await api.endpoints.list(project.id)).map((c) => c.id).filter((id) => ids.includes(id));
    if (left.length > 0) problem(`destroy left computes ${left.join(", ")}`);
  }
  for (const key of keys)
    if ((await statusWith(rig, key)) !== 401) problem(`destroy left a key working (…${key.slice(-4)})`);
  if (inState(rig, API_KEY).length > 0) problem("destroy left keys in state");
  for (const line of await bystandersTaken(rig, bystanders)) problem(`after destroy: taken: ${line}`);
}

function collectSecrets(secrets: Set<string>, rig: Rig): void {
  const exported = rig.stack.outputs({ showSecrets: true }).keys;
  for (const key of Array.isArray(exported) ? exported : []) if (typeof key === "string") secrets.add(key);
  for (const key of secretsInState(rig)) secrets.add(key);
}
