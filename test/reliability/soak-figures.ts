/**
 * The fault soak's figures and the summary line it prints, each figure named for what it counts: failures (a
 * duplicate or orphan compute, a lost key, a key nobody holds and nobody was told of, a bystander's object taken,
 * a mismatch, an unexplained error, a leak) apart from reported strays, which the provider told the user of.
 */
export interface SoakFigures {
  runs: number;
  requests: number;
  /** Requests answered while faults were on: the base of the fault ratio. */
  faultyRequests: number;
  faultsInjected: number;
  failedOperations: number;
  stuckOperations: number;
  errorsSeen: number;
  converged: number;
  /** Computes outside state, copies of a declared one, that nobody reported. */
  duplicates: number;
  /** Other computes outside state that nobody reported. */
  orphans: number;
  lostKeys: number;
  /** Keys outside state that no warning of the command that made them named. */
  orphanKeys: number;
  /** Fixture computes or bystander keys deleted, revoked or held. */
  taken: number;
  mismatches: number;
  unexplainedErrors: number;
  leaks: number;
  /** Not failures: computes and keys outside state that a warning told the user of, one line each. */
  reportedStrays: string[];
  byStatus: Record<string, number>;
  /** One line per problem, each with the run and its seed. */
  problems: string[];
}

export function emptyFigures(): SoakFigures {
  return {
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
    taken: 0,
    mismatches: 0,
    unexplainedErrors: 0,
    leaks: 0,
    reportedStrays: [],
    byStatus: {},
    problems: [],
  };
}

/** The summary line: what was injected, then each failure count, then the reported strays. */
export function progress(f: SoakFigures): string {
  const ratio = f.faultyRequests > 0 ? ((100 * f.faultsInjected) / f.faultyRequests).toFixed(1) : "0";
  const strayKeys = f.reportedStrays.filter((s) => s.startsWith("key ")).length;
  return [
    `runs ${f.runs}`,
    `requests ${f.requests}`,
    `faults injected ${f.faultsInjected} (${ratio}% of the ${f.faultyRequests} requests made with faults on)`,
    `failed operations ${f.failedOperations}`,
    `stuck operations ${f.stuckOperations}`,
    `errors seen ${f.errorsSeen}`,
    `converged ${f.converged}/${f.runs}`,
    `duplicate computes ${f.duplicates}`,
    `orphan computes (unreported) ${f.orphans}`,
    `lost keys ${f.lostKeys}`,
    `orphan keys (unreported) ${f.orphanKeys}`,
    `bystander objects taken ${f.taken}`,
    `mismatches ${f.mismatches}`,
    `unexplained errors ${f.unexplainedErrors}`,
    `leaks ${f.leaks}`,
    `reported strays ${f.reportedStrays.length} (${strayKeys} keys, ${f.reportedStrays.length - strayKeys} computes; not failures: a warning named each)`,
  ].join(", ");
}
