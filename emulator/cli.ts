#!/usr/bin/env node
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { parseCli, USAGE } from "./cli-options";
import { startEmulator, type Emulator, type EmulatorOptions } from "./index";
import { writeAtomic } from "./persistence";

/** neon-emulator: starts the emulator, keeps its console key beside the state file, prints the ready lines. */

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
