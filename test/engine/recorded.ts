/**
 * A local stack of Recorder resources, with the calls its provider recorded (see recorder.ts).
 */
import { mkdtempSync, readFileSync, rmSync } from "fs";
import { tmpdir } from "os";
import * as path from "path";
import { ConfigInput, EngineChoice, LocalStack, Program } from "../../testing";

export const REPO_ROOT = path.resolve(__dirname, "../../..");
export const RECORDER = "pulumi-nodejs:dynamic/test:Recorder";

export interface Call {
  pid: number;
  method: string;
  [key: string]: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

export interface Recorded {
  stack: LocalStack;
  /** Every call since the stack was made (or since `mark`). */
  calls(since?: number): Call[];
  /** Calls of one method since `mark`. */
  callsOf(method: string, since?: number): Call[];
  mark(): number;
  /** The URN of a recorder named `name` (under the stack, no parent). */
  urn(name: string, parentChain?: string): string;
  /** Removes the log, and on the CLI engine the stack's directory. */
  cleanup(): Promise<void>;
}

export function recordedStack(
  program: Program,
  options: {
    config?: Record<string, ConfigInput>;
    parallel?: number;
    project?: string;
    stack?: string;
    /** The engine the commands run on (the differential suite runs both); default: the model. */
    engine?: EngineChoice;
    cliRoot?: string;
  } = {},
): Recorded {
  const dir = mkdtempSync(path.join(tmpdir(), "recorder-"));
  const log = path.join(dir, "calls.jsonl");
  const project = options.project ?? "project";
  const stackName = options.stack ?? "dev";
  const stack = new LocalStack({
    program,
    project,
    stack: stackName,
    cwd: REPO_ROOT,
    config: options.config,
    parallel: options.parallel,
    env: { ...process.env, RECORDER_LOG: log },
    engine: options.engine ?? "model",
    cliRoot: options.cliRoot,
  });
  const read = (): Call[] => {
    try {
      return readFileSync(log, "utf8")
        .split("\n")
        .filter(Boolean)
        .map((line) => JSON.parse(line) as Call);
    } catch {
      return [];
    }
  };
  return {
    stack,
    calls: (since = 0) => read().slice(since),
    callsOf: (method, since = 0) =>
      read()
        .slice(since)
        .filter((call) => call.method === method),
    mark: () => read().length,
    urn: (name, parentChain) =>
      `urn:pulumi:${stackName}::${project}::${parentChain ? `${parentChain}$` : ""}${RECORDER}::${name}`,
    cleanup: async () => {
      await stack.dispose();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
