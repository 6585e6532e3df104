/**
 * One test world: the emulator on port 0, the real plugin started in the program's directory and
 * configured with the stack config (neon:apiKey, neon:apiUrl), and a step driver.
 */
import * as path from "path";
import { Emulator, EmulatorOptions, startEmulator } from "../../emulator";
import { StepEngine } from "./engine";
import { Plugin } from "./plugin";

export const REPO_ROOT = path.resolve(__dirname, "../../..");

export interface World {
  emulator: Emulator;
  plugin: Plugin;
  engine: StepEngine;
  /** Requests the emulator received since the last mark. */
  requestsSince(mark: number): { method: string; path: string; status: number }[];
  mark(): number;
  stop(): Promise<void>;
}

export interface WorldOptions {
  emulator?: EmulatorOptions;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Extra stack config for Configure (neon:apiKey and neon:apiUrl are set). */
  config?: Record<string, string>;
}

export async function startWorld(options: WorldOptions = {}): Promise<World> {
  const emulator = await startEmulator({ operationDurationMs: 20, rateLimit: false, ...options.emulator });
  const env = { ...process.env, NEON_API_KEY: "", NEON_API_HOST: "", ...options.env };
  const plugin = await Plugin.start({ cwd: options.cwd ?? REPO_ROOT, env });
  await plugin.configure({ "neon:apiKey": emulator.apiKey, "neon:apiUrl": emulator.baseUrl, ...options.config });
  const engine = new StepEngine(plugin);
  return {
    emulator,
    plugin,
    engine,
    mark: () => emulator.requests.length,
    requestsSince: (mark) => emulator.requests.slice(mark),
    stop: async () => {
      await plugin.close();
      await emulator.close();
    },
  };
}

/** "METHOD /path" lines of the requests that change something (everything but GET). */
export function writes(requests: { method: string; path: string }[]): string[] {
  return requests.filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path}`);
}
