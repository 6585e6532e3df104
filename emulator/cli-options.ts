import { parseArgs } from "node:util";
import { BRANCH_MOVES, POOLER_REQUESTS, type BranchMove, type PoolerRequests } from "./behaviours";
import { parseFaultSpec } from "./faults";
import type { EmulatorOptions, Plan } from "./index";

/** The CLI's flags: their usage text, and their parsing into emulator options (neon-emulator, cli.ts). */

export const USAGE = `Usage: neon-emulator [options]
  --port N                   port to listen on (0 = any free port; default 0)
  --host H                   address to bind (default 127.0.0.1)
  --api-key KEY              the console key (default: the one kept beside --state-file, else a fresh
                             64-character key, printed once)
  --time-scale X             service seconds per real second (default 1; 60 = a 5-minute autosuspend in 5 s)
  --state-file F             keep the world in F (atomic writes) and reload it at start; the console key is kept
                             in F.key and role passwords in F.passwords (mode 0600; F holds no secret), so a restart
                             prints the same key and ids (default: .neon-emulator/world.json, a git-ignored folder)
  --fresh                    start a new world (new key and ids) in place of the one kept in the state file
  --fixture F                starting world from a JSON fixture (accounts, projects, branches, computes, roles,
                             databases)
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
  --page-size N              items a page of a paged list (projects, branches, operations) holds when the request
                             gives no limit (default: the documented 10 for projects, else a guess: operations 10,
                             branches all; also from NEON_EMULATOR_PAGE_SIZE)
  --verbose                  one line per request on stderr (never a key)
Prints on stdout, one NAME=value line each: NEON_API_HOST (the base URL, ending in /api/v2), NEON_API_KEY,
NEON_PROJECT_ID (the default project), NEON_ORG_ID (with --org), and NEON_BRANCH_<NAME> for each branch of the
default project (NEON_BRANCH_MAIN, which holds the primary compute, NEON_BRANCH_DEV, NEON_BRANCH_STAGING); on
stderr, the service behaviours it runs with.`;

function num(name: string, v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n)) throw new Error(`--${name} needs a number, got "${v}"`);
  return n;
}

/** --page-size (or NEON_EMULATOR_PAGE_SIZE): an integer ≥ 1. */
function pageSizeOf(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^[1-9]\d{0,4}$/.test(raw))
    throw new Error(`--page-size (or NEON_EMULATOR_PAGE_SIZE) needs an integer ≥ 1, got "${raw}"`);
  return Number(raw);
}
/**
 * Where the CLI keeps its world when no --state-file says: restarting `npm run emulator` must not break every stack
 * made against it (a new key and new ids would: 401 on refresh, replacements on up). Relative to the working directory.
 */
export const DEFAULT_STATE_FILE = ".neon-emulator/world.json";

/** Command-line flags to emulator options; a bad flag fails before anything listens. */
export function parseCli(argv: string[], env: NodeJS.ProcessEnv = process.env): EmulatorOptions & { help?: boolean } {
  const { values: v } = parseArgs({
    args: argv,
    options: {
      port: { type: "string" },
      host: { type: "string" },
      "api-key": { type: "string" },
      "time-scale": { type: "string" },
      "state-file": { type: "string" },
      fresh: { type: "boolean" },
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
      "page-size": { type: "string" },
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
    stateFile: v["state-file"] ?? DEFAULT_STATE_FILE,
    fresh: v.fresh,
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
    pageSize: pageSizeOf(v["page-size"] ?? (env.NEON_EMULATOR_PAGE_SIZE || undefined)),
  };
}
