#!/usr/bin/env node
import { parseArgs } from "node:util";
import { BRANCH_MOVES, POOLER_REQUESTS, type BranchMove, type PoolerRequests } from "./behaviours";
import { parseFaultSpec } from "./faults";
import { startEmulator, type EmulatorOptions, type Plan } from "./index";

const USAGE = `Usage: neon-emulator [options]
  --port N                   port to listen on (0 = any free port; default 0)
  --host H                   address to bind (default 127.0.0.1)
  --api-key KEY              the console key (default: a fresh 64-character key, printed once)
  --time-scale X             service seconds per real second (default 1; 60 = a 5-minute autosuspend in 5 s)
  --state-file F             keep the world in F (atomic writes) and reload it at start
  --fixture F                starting world from a JSON fixture (accounts, projects, branches, computes)
  --faults SPEC              random faults, e.g. seed=1,rate=0.1,kinds=500+502+503+reset+slow+ambiguous+423+429
  --operation-duration-ms N  service ms an operation spends scheduling and running (default 1000)
  --latency-ms N             real ms added before every response (default 0)
  --rate-limit N[,B]         N requests/minute per account, bursts of B/s per route (default 700,40)
  --no-rate-limit            switch the rate limit off
  --plan free|paid           plan of the default account (free: sizes up to 2 CU, autosuspend delay fixed)
  --org ID                   the default account is an admin of organization ID, which holds the default project
  --no-delete-operations     deletes return no operations (default: a running suspend_compute, as the real service)
  --retry-after              429s carry Retry-After (default: none, as the real service)
  --pooler-fields            responses carry the deprecated pooler_enabled / pooler_mode (default: absent)
  --pooler-requests MODE     what a request's pooler fields get: accepted (default: ignored, or applied with
                             --pooler-fields) or refused (400: a plausible service once Neon removes them)
  --idle-restart             restart of an idle compute is allowed (default: 422, as the real service)
  --branch-ready-delay-ms N  service ms a new branch stays "not ready" after its create_branch (default 0)
  --branch-move MODE         what branch_id in an update does: moves (default, the real service today), or
                             refused / ignored (the two plausible behaviours once Neon removes the deprecated field)
  --verbose                  one line per request on stderr (never a key)
Prints NEON_API_HOST (the base URL, ending in /api/v2), NEON_API_KEY and NEON_PROJECT_ID (and NEON_ORG_ID with
--org) on stdout, and the service behaviours it runs with on stderr.`;

function num(name: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n)) throw new Error(`--${name} needs a number, got "${v}"`);
  return n;
}

/** Command-line flags to emulator options; a bad flag fails before anything listens. */
export function parseCli(argv: string[]): EmulatorOptions & { help?: boolean } {
  const { values: v } = parseArgs({
    args: argv,
    options: {
      port: { type: "string" },
      host: { type: "string" },
      "api-key": { type: "string" },
      "time-scale": { type: "string" },
      "state-file": { type: "string" },
      fixture: { type: "string" },
      faults: { type: "string" },
      "operation-duration-ms": { type: "string" },
      "latency-ms": { type: "string" },
      "rate-limit": { type: "string" },
      "no-rate-limit": { type: "boolean" },
      plan: { type: "string" },
      org: { type: "string" },
      "no-delete-operations": { type: "boolean" },
      "retry-after": { type: "boolean" },
      "pooler-fields": { type: "boolean" },
      "pooler-requests": { type: "string" },
      "idle-restart": { type: "boolean" },
      "branch-ready-delay-ms": { type: "string" },
      "branch-move": { type: "string" },
      verbose: { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
  const [perMinute, burst] = (v["rate-limit"] ?? "").split(",").map((x) => num("rate-limit", x || undefined));
  if (v.plan !== undefined && v.plan !== "free" && v.plan !== "paid") {
    throw new Error(`--plan: "${v.plan}" is not allowed; allowed: free, paid`);
  }
  const branchMove = v["branch-move"];
  if (branchMove !== undefined && !(BRANCH_MOVES as readonly string[]).includes(branchMove)) {
    throw new Error(`--branch-move: "${branchMove}" is not allowed; allowed: ${BRANCH_MOVES.join(", ")}`);
  }
  const poolerRequests = v["pooler-requests"];
  if (poolerRequests !== undefined && !(POOLER_REQUESTS as readonly string[]).includes(poolerRequests)) {
    throw new Error(`--pooler-requests: "${poolerRequests}" is not allowed; allowed: ${POOLER_REQUESTS.join(", ")}`);
  }
  return {
    help: v.help,
    port: num("port", v.port) ?? 0,
    host: v.host,
    apiKey: v["api-key"],
    timeScale: num("time-scale", v["time-scale"]),
    stateFile: v["state-file"],
    fixture: v.fixture,
    faults: v.faults === undefined ? undefined : parseFaultSpec(v.faults),
    operationDurationMs: num("operation-duration-ms", v["operation-duration-ms"]),
    latencyMs: num("latency-ms", v["latency-ms"]),
    rateLimit: v["no-rate-limit"] ? false : { perMinute, burstPerSecondPerRoute: burst },
    log: v.verbose ? (line) => process.stderr.write(`${line}\n`) : undefined,
    plan: v.plan as Plan | undefined,
    organization: v.org,
    deleteOperations: v["no-delete-operations"] ? false : undefined,
    retryAfter: v["retry-after"] || undefined,
    omitPoolerFields: v["pooler-fields"] ? false : undefined,
    poolerRequests: poolerRequests as PoolerRequests | undefined,
    restartRequiresActive: v["idle-restart"] ? false : undefined,
    branchReadyDelayMs: num("branch-ready-delay-ms", v["branch-ready-delay-ms"]),
    branchMove: branchMove as BranchMove | undefined,
  };
}

async function main(): Promise<void> {
  const options = parseCli(process.argv.slice(2));
  if (options.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const em = await startEmulator(options);
  process.stdout.write(`NEON_API_HOST=${em.baseUrl}\nNEON_API_KEY=${em.apiKey}\nNEON_PROJECT_ID=${em.projectId}\n`);
  if (options.organization) process.stdout.write(`NEON_ORG_ID=${options.organization}\n`);
  process.stderr.write(`neon-emulator: service behaviours: ${em.describe()}\n`);
  const stop = (signal: string): void => {
    process.stderr.write(`neon-emulator: ${signal}, saving state and closing\n`);
    em.close().then(
      () => process.exit(0),
      (err: unknown) => {
        process.stderr.write(`neon-emulator: could not save state: ${String(err)}\n`);
        process.exit(1);
      },
    );
  };
  process.once("SIGTERM", () => stop("SIGTERM"));
  process.once("SIGINT", () => stop("SIGINT"));
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`neon-emulator: ${err instanceof Error ? err.message : String(err)}\n${USAGE}\n`);
    process.exit(2);
  });
}
