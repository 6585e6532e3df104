/**
 * The full reliability run (issue 6): `npm run test:soak [-- --runs N --seed S]`.
 * Prints the figures of each part; exits 1 when any part found a problem (each printed with its seed).
 */
import { applies, operationCases, POINTS, pointProblems, runPoint } from "../reliability/failure-points";
import { INTERRUPTIONS, runInterruption } from "../reliability/interruption";
import { runLoad } from "../reliability/load";
import { progress, soak } from "../reliability/soak";

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
    for (const stray of figures.reportedStrays) console.log(`  reported stray: ${stray}`);
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

/** Failure at every point: every operation × point, each on a rig of its own. */
async function points(): Promise<string[]> {
  const problems: string[] = [];
  let passed = 0;
  for (const operation of operationCases("points")) {
    for (const point of POINTS.filter((p) => applies(operation, p))) {
      const found = pointProblems(await runPoint(operation, point, "points"), operation, point);
      if (found.length === 0) passed++;
      for (const line of found) problems.push(`failure point ${operation.name}, ${point}: ${line}`);
    }
  }
  console.log(`failure points: ${passed} passed, ${problems.length} problems`);
  return problems;
}

/** A pulumi up killed mid-wait of each kind of change and of each create (interruption.ts). */
async function interrupt(): Promise<string[]> {
  const problems: string[] = [];
  for (const c of INTERRUPTIONS) {
    for (const line of await runInterruption(c, "interrupt")) problems.push(`interruption during ${c.label}: ${line}`);
  }
  console.log(`interruption: ${INTERRUPTIONS.length} cases, ${problems.length} problems`);
  return problems;
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 2;
});
