/**
 * Load (issue 6, part 6): many changes across many projects at once through one plugin process (one `pulumi up`),
 * against the
 * emulator with its rate limit on (700 requests per minute per account, 40 per second per route). All must
 * succeed in bounded time (no deadlock between the per-project locks), and 429s, if any, must all have been
 * retried to success.
 */
import { inState } from "./audit";
import { COMPUTE, Rig } from "./rig";
import { ComputeDecl, DeclaredWorld, programOf } from "./worlds";

export interface LoadFigures {
  projects: number;
  changes: number;
  createMs: number;
  changeMs: number;
  errors: string[];
  requests: number;
  status429: number;
  /** Final check: every compute as declared. */
  converged: boolean;
}

/** `perProject` computes in each project: primaries on dev and staging, replicas on main. */
export function loadWorld(projects: number, perProject: number, min: number): DeclaredWorld {
  const computes: ComputeDecl[] = [];
  for (let p = 0; p < projects; p++) {
    for (let i = 0; i < perProject; i++) {
      const branch = i === 0 ? "dev" : i === 1 ? "staging" : "main";
      computes.push({
        name: `p${p}c${i}`,
        project: p,
        branch,
        type: i < 2 ? "read_write" : "read_only",
        min,
        max: min * 2,
        trigger: 0,
      });
    }
  }
  return { computes, keys: [] };
}

/** Creates projects × perProject computes in one up, then changes all of them in a second up. */
export async function runLoad(projects: number, perProject: number, timeoutMs: number): Promise<LoadFigures> {
  const rig = await Rig.start({ projects, rateLimit: {}, waitTimeoutSeconds: 60 });
  try {
    const errors: string[] = [];
    const created = loadWorld(projects, perProject, 0.25);
    const changed = loadWorld(projects, perProject, 1);
    const t0 = Date.now();
    const first = await withTimeout(rig.up(programOf(created, rig.projects)), timeoutMs, "the creating up");
    const t1 = Date.now();
    const second = await withTimeout(rig.up(programOf(changed, rig.projects)), timeoutMs, "the changing up");
    const t2 = Date.now();
    errors.push(...[...first.errors, ...second.errors].map((e) => e.message));
    const steps = second.steps.filter((s) => s.type === COMPUTE && s.op === "update").length;
    const held = inState(rig, COMPUTE);
    const api = rig.api();
    let converged = true;
    for (const [p, project] of rig.projects.entries()) {
      const listed = await api.endpoints.list(project.id);
      for (const decl of changed.computes.filter((c) => c.project === p)) {
        const id = held.find((r) => r.urn.endsWith(`::${decl.name}`))?.id;
        const actual = listed.find((c) => c.id === id);
        if (!actual || actual.autoscaling_limit_min_cu !== decl.min || actual.autoscaling_limit_max_cu !== decl.max)
          converged = false;
      }
      if (listed.length !== project.fixtureComputes.length + perProject) converged = false;
    }
    const stats = rig.totals();
    return {
      projects,
      changes: steps,
      createMs: t1 - t0,
      changeMs: t2 - t1,
      errors,
      requests: stats.requests,
      status429: stats.byStatus["429"] ?? 0,
      converged,
    };
  } finally {
    await rig.stop();
  }
}

async function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>(
    (_, reject) => (timer = setTimeout(() => reject(new Error(`${what} did not finish in ${ms} ms (deadlock?)`)), ms)),
  );
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
