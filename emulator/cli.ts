#!/usr/bin/env node
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { parseArgs } from "node:util";
import { BRANCH_MOVES, POOLER_REQUESTS, type BranchMove, type PoolerRequests } from "./behaviours";
import { parseFaultSpec } from "./faults";
import { startEmulator, type Emulator, type EmulatorOptions, type Plan } from "./index";
import { writeAtomic } from "./persistence";

const USAGE = `Usage: neon-emulator [options]
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

/** The variable a branch's id is printed as: NEON_BRANCH_ and its name in capitals, other characters `_`. */
export function branchVariable(branchName: string): string {
  const suffix = branchName
    .toUpperCase()
    .replace(/[^A-Z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "");
  return `NEON_BRANCH_${suffix || "_"}`;
}

/**
 * What a script reads on stdout: NAME=value lines (a shell can `eval` them, `grep` and `cut` pick one). The key is
 * printed here and nowhere else. A branch whose variable an earlier branch already took is left out.
 */
export function readyLines(
  em: Pick<Emulator, "baseUrl" | "apiKey" | "projectId" | "branches">,
  organization?: string,
): string[] {
  const lines = [`NEON_API_HOST=${em.baseUrl}`, `NEON_API_KEY=${em.apiKey}`, `NEON_PROJECT_ID=${em.projectId}`];
  if (organization) lines.push(`NEON_ORG_ID=${organization}`);
  const taken = new Set<string>();
  for (const [name, id] of Object.entries(em.branches)) {
    const variable = branchVariable(name);
    if (!taken.has(variable)) lines.push(`${variable}=${id}`);
    taken.add(variable);
  }
  return lines;
}

/**
 * Where the CLI keeps the console key of a state file: beside it, not in it. The state file holds key hashes only
 * (a key cannot be read back from it, and it may be shared or attached to a report), so without this file every
 * start with a reloaded state would make a new console key, and a stack configured with the last one would fail.
 */
export function keyFileOf(stateFile: string): string {
  return `${stateFile}.key`;
}

function readKeyFile(file: string): string | undefined {
  try {
    return readFileSync(file, "utf8").trim() || undefined;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
}

/** The state file's folder, when it does not exist yet: made private (0700), with a .gitignore keeping it out of git. */
function prepareFolder(dir: string): void {
  if (existsSync(dir)) return;
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  writeFileSync(`${dir}/.gitignore`, "# the emulator's world (neon-emulator): never commit it\n*\n");
}

/** What stderr says about the world: kept, or replaced by a fresh one (whose stacks must go). */
function worldNote(em: Emulator, options: EmulatorOptions): string {
  if (options.fresh) {
    return (
      `a fresh world ${em.worldId} replaces the one kept in ${options.stateFile}: stacks made against that one ` +
      `fail until removed (pulumi stack rm --force); start without --fresh to keep a world across restarts`
    );
  }
  return `world ${em.worldId}, kept in ${options.stateFile} (--fresh starts a new one)`;
}

/**
 * Starts the emulator. With a state file, the console key is the one kept in its key file (unless --api-key gives
 * one), and the key in use is kept there (mode 0600) for the next start; a kept key the world refuses (revoked
 * through the API, or the key file of another world) is replaced by a new one, saying so.
 */
async function start(options: EmulatorOptions): Promise<{ em: Emulator; notes: string[] }> {
  if (!options.stateFile) return { em: await startEmulator(options), notes: [] };
  const keyFile = keyFileOf(options.stateFile);
  prepareFolder(dirname(options.stateFile));
  const kept = options.apiKey === undefined && !options.fresh ? readKeyFile(keyFile) : undefined;
  const notes: string[] = [];
  let em: Emulator;
  try {
    em = await startEmulator({ ...options, apiKey: options.apiKey ?? kept });
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    if (kept === undefined || !/api ?key/i.test(message)) throw err;
    em = await startEmulator(options);
    notes.push(`the console key kept in ${keyFile} was refused (${message}): a new one is printed and kept there`);
  }
  if (em.apiKey !== kept) await writeAtomic(keyFile, `${em.apiKey}\n`);
  if (em.apiKey === kept) notes.push(`console key reused from ${keyFile}`);
  else if (notes.length === 0) notes.push(`console key kept in ${keyFile} for the next start`);
  notes.push(worldNote(em, options));
  return { em, notes };
}

async function main(): Promise<void> {
  const options = parseCli(process.argv.slice(2));
  if (options.help) {
    process.stdout.write(`${USAGE}\n`);
    return;
  }
  const { em, notes } = await start(options);
  const stop = (signal: string): void => {
    const what = options.stateFile ? `saving state to ${options.stateFile} and closing` : "closing";
    process.stderr.write(`neon-emulator: ${signal}, ${what}\n`);
    em.close().then(
      () => process.exit(0),
      (err: unknown) => {
        const failed = options.stateFile ? "could not save state" : "could not close";
        process.stderr.write(`neon-emulator: ${failed}: ${String(err)}\n`);
        process.exit(1);
      },
    );
  };
  // Before the ready lines: a supervisor may signal as soon as it reads them, and a signal with no handler yet ends
  // the process without saving its world (seen in CI on a busy machine).
  process.once("SIGTERM", () => stop("SIGTERM"));
  process.once("SIGINT", () => stop("SIGINT"));
  for (const note of notes) process.stderr.write(`neon-emulator: ${note}\n`);
  process.stderr.write(`neon-emulator: service behaviours: ${em.describe()}\n`);
  process.stdout.write(`${readyLines(em, options.organization).join("\n")}\n`);
}

if (require.main === module) {
  main().catch((err: unknown) => {
    process.stderr.write(`neon-emulator: ${err instanceof Error ? err.message : String(err)}\n${USAGE}\n`);
    process.exit(2);
  });
}
