/**
 * The full reliability run (issue 6): `npm run test:soak [-- --runs N --seed S]`.
 * Prints the figures of each part; exits 1 when any part found a problem (each printed with its seed).
 */
import { progress, soak } from "../reliability/soak";

interface Args {
  runs: number;
  seed: number;
  parts: string[];
}

function parseArgs(argv: string[]): Args {
  const args: Args = { runs: 200, seed: 1, parts: ["soak"] };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = argv[i + 1];
    if (flag === "--runs") args.runs = Number(value);
    else if (flag === "--seed") args.seed = Number(value);
    else if (flag === "--parts") args.parts = String(value).split(",");
    else throw new Error(`unknown option ${flag} (--runs N, --seed S, --parts soak,...)`);
    i++;
  }
  if (!(args.runs > 0) || !Number.isInteger(args.seed)) throw new Error("--runs must be positive and --seed an integer");
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
  for (const line of problems) console.log(`PROBLEM ${line}`);
  process.exitCode = problems.length > 0 ? 1 : 0;
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 2;
});
