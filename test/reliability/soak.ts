/**
 * The fault soak (issue 6, part 1), shared by the full run (test/soak/run.ts) and the seeded jest version.
 *
 * A run: a fresh emulator and plugin; a few `up`s of random successive worlds with faults on (random HTTP
 * faults at `rate`, plus failed and stuck operations armed with operations.failNext/stickNext); then, faults
 * off, up to three repairing `up`s and one more that must plan nothing and send no write; then the audit
 * (audit.ts) and a destroy that must leave the projects as the fixture made them.
 *
 * Reproducible from the seed: run r draws its worlds, its operation faults and the emulator's fault seed from
 * `seed` and r. The emulator's faults follow the order requests arrive in, which parallel resources and
 * polling may vary slightly, so a rerun meets nearly (not always exactly) the same faults.
 */
import { Emulator, FaultKind } from "../../emulator";
import { auditWorld, leaks, secretsInState, unexplained } from "./audit";
import { COMPUTE, Rig } from "./rig";
import { DeclaredWorld, EMPTY_WORLD, nextWorld, pick, programOf, Random, seeded } from "./worlds";

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

export interface SoakFigures {
  runs: number;
  requests: number;
  /** Requests while faults were on: the base of the fault ratio. */
  faultyRequests: number;
  faultsInjected: number;
  failedOperations: number;
  stuckOperations: number;
  errorsSeen: number;
  converged: number;
  duplicates: number;
  orphans: number;
  lostKeys: number;
  orphanKeys: number;
  mismatches: number;
  unexplainedErrors: number;
  leaks: number;
  byStatus: Record<string, number>;
  /** One line per problem, each with the run and its seed. */
  problems: string[];
}

const ACTIONS = ["start_compute", "apply_config", "suspend_compute"];

export async function soak(options: SoakOptions): Promise<SoakFigures> {
  const figures: SoakFigures = {
    runs: 0,
    requests: 0,
    faultyRequests: 0,
    faultsInjected: 0,
    failedOperations: 0,
    stuckOperations: 0,
    errorsSeen: 0,
    converged: 0,
    duplicates: 0,
    orphans: 0,
    lostKeys: 0,
    orphanKeys: 0,
    mismatches: 0,
    unexplainedErrors: 0,
    leaks: 0,
    byStatus: {},
    problems: [],
  };
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
  let world: DeclaredWorld = EMPTY_WORLD;
  let faulty = { requests: 0, faults: 0 };
  try {
    for (let step = 0; step < (options.steps ?? 3); step++) {
      world = nextWorld(random, world, rig.projects.length, tag);
      await rig.restartEmulator({
        seed: Math.floor(random() * 2 ** 32),
        rate: options.rate ?? 0.15,
        kinds: options.kinds,
      });
      armOperationFaults(rig.emulator, random, options, figures);
      const { errors: seen, exports } = await rig.up(programOf(world, rig.projects));
      errors.push(...seen);
      collectSecrets(secrets, rig, exports);
    }
    faulty = rig.totals();
    await rig.restartEmulator(undefined); // faults off; stuck operations ended
    const repaired = await repair(rig, world, errors, secrets);
    if (!repaired.converged) problem(`did not converge: ${repaired.why}`);
    else figures.converged++;
    const audit = await auditWorld(rig, world, tag);
    for (const [kind, list] of Object.entries(audit)) for (const item of list as string[]) problem(`${kind}: ${item}`);
    figures.duplicates += audit.duplicates.length;
    figures.orphans += audit.orphans.length;
    figures.lostKeys += audit.lostKeys.length;
    figures.orphanKeys += audit.orphanKeys.length;
    figures.mismatches += audit.mismatches.length;
    await destroyAndCheck(rig, problem);
  } catch (error) {
    problem(`the run itself failed: ${(error as Error).stack}`);
  } finally {
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
    figures.faultyRequests += faulty.requests || totals.requests;
    for (const [status, n] of Object.entries(totals.byStatus))
      figures.byStatus[status] = (figures.byStatus[status] ?? 0) + n;
    await rig.stop();
  }
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
    const { errors: seen, exports } = await rig.up(programOf(world, rig.projects));
    errors.push(...seen);
    collectSecrets(secrets, rig, exports);
    last = seen;
    if (seen.length === 0) break;
  }
  if (last.length > 0)
    return { converged: false, why: `3 repairing ups failed; last: ${last.map((e) => e.message).join(" | ")}` };
  const mark = rig.emulator.requests.length;
  const { errors: seen } = await rig.up(programOf(world, rig.projects));
  errors.push(...seen);
  const changed = rig.engine.steps.filter((s) => s.op !== "same");
  const writes = rig.emulator.requests.slice(mark).filter((r) => r.method !== "GET");
  if (seen.length > 0 || changed.length > 0 || writes.length > 0) {
    const what = [
      ...changed.map((s) => `${s.op} ${s.name}`),
      ...writes.map((w) => `${w.method} ${w.path}`),
      ...seen.map((e) => e.message),
    ];
    return { converged: false, why: `the up after repair was not empty: ${what.join(", ")}` };
  }
  return { converged: true };
}

/** Destroy with faults off: every compute but the fixture's and every key of the run must be gone. */
async function destroyAndCheck(rig: Rig, problem: (text: string) => void): Promise<void> {
  const ids = [...rig.engine.state.values()].filter((r) => r.type === COMPUTE).map((r) => r.id);
  await rig.engine.destroy();
  const api = rig.api();
  for (const project of rig.projects) {
    const left = (await api.endpoints.list(project.id)).map((c) => c.id).filter((id) => ids.includes(id));
    if (left.length > 0) problem(`destroy left computes ${left.join(", ")}`);
  }
}

function collectSecrets(secrets: Set<string>, rig: Rig, exports: Record<string, unknown>): void {
  for (const key of (exports.keys as unknown[] | undefined) ?? []) if (typeof key === "string") secrets.add(key);
  for (const key of secretsInState(rig)) secrets.add(key);
}

export function progress(f: SoakFigures): string {
  const ratio = f.faultyRequests > 0 ? ((100 * f.faultsInjected) / f.faultyRequests).toFixed(1) : "0";
  return [
    `runs ${f.runs}`,
    `requests ${f.requests}`,
    `faults injected ${f.faultsInjected} (${ratio}% of the ${f.faultyRequests} requests made with faults on)`,
    `failed operations ${f.failedOperations}`,
    `stuck operations ${f.stuckOperations}`,
    `errors seen ${f.errorsSeen}`,
    `converged ${f.converged}/${f.runs}`,
    `duplicates ${f.duplicates}`,
    `orphans ${f.orphans}`,
    `lost keys ${f.lostKeys}`,
    `orphan keys ${f.orphanKeys}`,
    `mismatches ${f.mismatches}`,
    `unexplained errors ${f.unexplainedErrors}`,
    `leaks ${f.leaks}`,
  ].join(", ");
}
