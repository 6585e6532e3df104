/**
 * The full reliability run (issue 6): `npm run test:soak [-- --runs N --seed S]`.
 * Prints the figures of each part; exits 1 when any part found a problem (each printed with its seed).
 */
import { applies, operationCases, POINTS, pointProblems, runPoint } from "../reliability/failure-points";
import { auditWorld } from "../reliability/audit";
import { killDuringWait } from "../reliability/interruption";
import { runLoad } from "../reliability/load";
import { Rig } from "../reliability/rig";
import { progress, soak } from "../reliability/soak";
import { programOf } from "../reliability/worlds";

interface Args {
  runs: number;
  seed: number;
  parts: string[];
}

function parseArgs(argv: string[]): Args {
  const args: Args = { runs: 200, seed: 1, parts: ["soak", "points", "interrupt", "load"] };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    if (flag === "--runs") args.runs = Number(value);
    else if (flag === "--seed") args.seed = Number(value);
    else if (flag === "--parts") args.parts = String(value).split(",");
    else throw new Error(`unknown option ${flag} (--runs N, --seed S, --parts soak,...)`);
    i++;
  }
  if (!(args.runs > 0) || !Number.isInteger(args.seed))
    throw new Error("--runs must be positive and --seed an integer");
  return args;
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  let problems: string[] = [];
  if (args.parts.includes("soak")) {
    const figures = await soak({ runs: args.runs, seed: args.seed, log: (line) => process.stderr.write(`${line}\n`) });
    console.log(`fault soak: ${progress(figures)}`);
    console.log(`  statuses: ${JSON.stringify(figures.byStatus)}`);
    problems = problems.concat(figures.problems);
  }
  if (args.parts.includes("points")) problems = problems.concat(await points());
  if (args.parts.includes("interrupt")) problems = problems.concat(await interrupt());
  if (args.parts.includes("load")) {
    const figures = await runLoad(10, 5, 120_000);
    console.log(`load: ${JSON.stringify(figures)}`);
    if (figures.errors.length > 0 || !figures.converged)
      problems.push(`load: ${figures.errors.join(" | ") || "not converged"}`);
  }
  for (const line of problems) console.log(`PROBLEM ${line}`);
  process.exitCode = problems.length > 0 ? 1 : 0;
}

/** Failure at every point: every operation × point, on one rig. */
async function points(): Promise<string[]> {
  const rig = await Rig.start({ projects: 1, waitTimeoutSeconds: 1 });
  const problems: string[] = [];
  let passed = 0;
  try {
    for (const operation of operationCases("points")) {
      for (const point of POINTS.filter((p) => applies(operation, p))) {
        const found = pointProblems(await runPoint(rig, operation, point, "points"), point);
        if (found.length === 0) passed++;
        for (const line of found) problems.push(`failure point ${operation.name}, ${point}: ${line}`);
      }
    }
  } finally {
    await rig.stop();
  }
  console.log(`failure points: ${passed} passed, ${problems.length} problems`);
  return problems;
}

/** The plugin killed mid-wait of each kind of change; orphans and duplicates counted. */
async function interrupt(): Promise<string[]> {
  const rig = await Rig.start({ projects: 1, operationDurationMs: 800, waitTimeoutSeconds: 20 });
  const problems: string[] = [];
  const db = {
    name: "db",
    project: 0,
    branch: "dev" as const,
    type: "read_write" as const,
    min: 0.25,
    max: 1,
    trigger: 0,
  };
  const replica = { ...db, name: "replica", branch: "main" as const, type: "read_only" as const };
  const cases = [
    {
      label: "resize",
      before: [db],
      after: [{ ...db, min: 1, max: 2 }],
      write: { method: "PATCH", path: /endpoints\/ep-/ },
    },
    {
      label: "move",
      before: [db],
      after: [{ ...db, branch: "staging" as const }],
      write: { method: "PATCH", path: /endpoints\/ep-/ },
    },
    { label: "restart", before: [db], after: [{ ...db, trigger: 1 }], write: { method: "POST", path: /\/restart$/ } },
    { label: "create replica", before: [], after: [replica], write: { method: "POST", path: /endpoints$/ } },
    { label: "create primary", before: [], after: [db], write: { method: "POST", path: /endpoints$/ } },
  ];
  try {
    for (const c of cases) {
      await rig.up(programOf({ computes: c.before, keys: [] }, rig.projects));
      const world = { computes: c.after, keys: [] };
      await killDuringWait(rig, world, c.write);
      const next = await rig.up(programOf(world, rig.projects));
      const audit = await auditWorld(rig, world, "interrupt");
      for (const e of next.errors) problems.push(`interruption during ${c.label}: the next up failed: ${e.message}`);
      for (const [kind, list] of Object.entries(audit))
        for (const item of list as string[]) problems.push(`interruption during ${c.label}: ${kind}: ${item}`);
      await rig.up(programOf({ computes: [], keys: [] }, rig.projects));
      const api = rig.api();
      for (const e of await api.endpoints.list(rig.projects[0].id))
        if (!rig.projects[0].fixtureComputes.includes(e.id)) await api.endpoints.delete(rig.projects[0].id, e.id);
    }
  } finally {
    await rig.stop();
  }
  console.log(`interruption: ${cases.length} cases, ${problems.length} problems`);
  return problems;
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 2;
});
