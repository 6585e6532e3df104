import { promises as fsp, readFileSync } from "node:fs";
import { dirname } from "node:path";
import type { RolePasswords, Snapshot } from "./snapshot";

/**
 * The state file: written to a temporary file, fsynced, then renamed over the old one, so a crash or a
 * SIGTERM mid-write leaves either the old or the new state, never half a file. It holds key hashes only.
 */
export async function writeAtomic(file: string, data: string): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  const fh = await fsp.open(tmp, "w", 0o600);
  try {
    await fh.writeFile(data);
    await fh.sync();
  } finally {
    await fh.close();
  }
  await fsp.rename(tmp, file);
  await fsyncDir(dirname(file));
}

async function fsyncDir(dir: string): Promise<void> {
  try {
    const dh = await fsp.open(dir, "r");
    try {
      await dh.sync();
    } finally {
      await dh.close();
    }
  } catch {
    // some platforms cannot fsync a directory; the rename itself is still atomic
  }
}

/** The saved world, or undefined when the file does not exist yet (a first start). */
export function readState(file: string): Snapshot | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw err;
  }
  return JSON.parse(text) as Snapshot;
}

/** The state file's companion holding the role passwords (mode 0600), so that the state file itself holds no secret. */
export const passwordFileOf = (stateFile: string): string => `${stateFile}.passwords`;

/** The role passwords kept beside a state file; none when the companion does not exist (then roles get new ones). */
export function readPasswords(stateFile: string): RolePasswords {
  try {
    return JSON.parse(readFileSync(passwordFileOf(stateFile), "utf8")) as RolePasswords;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw err;
  }
}

/**
 * Saves after mutations, debounced (one write per burst), one write at a time; `flush()` writes whatever is
 * pending, for close and SIGTERM, so nothing acknowledged to a client is lost on an orderly stop.
 */
export class Saver {
  private timer: NodeJS.Timeout | undefined;
  private chain: Promise<void> = Promise.resolve();
  private lastError: unknown;

  /**
   * `serialize` gives the state file's text, or undefined when nothing changed; `companion`, the text of the role
   * password file, written (first) whenever the state file is.
   */
  constructor(
    private readonly file: string,
    private readonly serialize: () => string | undefined,
    private readonly debounceMs = 50,
    private readonly companion?: () => string,
  ) {}

  schedule(): void {
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.save();
    }, this.debounceMs);
    this.timer.unref();
  }

  /** Writes now if anything changed; resolves when every write so far is on disk. */
  async flush(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    await this.save();
    if (this.lastError) throw this.lastError;
  }

  private save(): Promise<void> {
    this.chain = this.chain.then(async () => {
      const data = this.serialize();
      if (data === undefined) return;
      try {
        if (this.companion) await writeAtomic(passwordFileOf(this.file), this.companion());
        await writeAtomic(this.file, data);
        this.lastError = undefined;
      } catch (err) {
        this.lastError = err;
      }
    });
    return this.chain;
  }
}
