/**
 * The world the provider's suites run in: the emulator on port 0 and local stacks that drive the provider through
 * the real dynamic-provider plugin as the Pulumi CLI does (testing/: a new plugin process per command, the whole
 * stack config, previews before updates).
 */
import * as path from "path";
import { Emulator, EmulatorOptions, startEmulator } from "../../emulator";
import { Compute } from "../../provider";
import { NeonClient } from "../../client";
import { CommandResult, ConfigInput, LocalStack, Program } from "../../testing";

export const REPO_ROOT = path.resolve(__dirname, "../../..");
export const COMPUTE = "pulumi-nodejs:dynamic/neon:Compute";
export const API_KEY = "pulumi-nodejs:dynamic/neon:ApiKey";
/** The page size of the suites' emulators: the default world's three branches fill two pages. */
export const SMALL_PAGE = 2;

export interface StackOptions {
  /** Stack config besides neon:apiKey (secret) and neon:apiUrl, which point at the emulator. */
  config?: Record<string, ConfigInput>;
  /** Environment of the CLI (NEON_API_KEY and NEON_API_HOST are cleared unless given here). */
  env?: NodeJS.ProcessEnv;
  stack?: string;
  project?: string;
  parallel?: number;
  /** Leave neon:apiKey and neon:apiUrl out of the config. */
  noNeonConfig?: boolean;
}

export interface NeonWorld {
  emulator: Emulator;
  /** A client with the console key, to look at the service (or change it out of band). */
  api: NeonClient;
  projectId: string;
  /** Branch ids by name (main, dev, staging). */
  branches: Record<string, string>;
  stack(program: Program, options?: StackOptions): LocalStack;
  stop(): Promise<void>;
}

export async function neonWorld(options: { emulator?: EmulatorOptions } = {}): Promise<NeonWorld> {
  // small pages where the API pages (projects, branches, operations): a provider reading one page fails the suites
  const emulator = await startEmulator({
    operationDurationMs: 20,
    rateLimit: false,
    pageSize: SMALL_PAGE,
    ...options.emulator,
  });
  const api = new NeonClient({ apiKey: emulator.apiKey, apiUrl: emulator.baseUrl, rateLimit: false });
  const branches = Object.fromEntries(
    (await api.branches.list(emulator.projectId)).map((branch) => [branch.name, branch.id]),
  );
  return {
    emulator,
    api,
    projectId: emulator.projectId,
    branches,
    stack: (program, stackOptions = {}) =>
      new LocalStack({
        program,
        cwd: REPO_ROOT,
        project: stackOptions.project,
        stack: stackOptions.stack,
        parallel: stackOptions.parallel,
        requestLog: emulator,
        env: { ...process.env, NEON_API_KEY: "", NEON_API_HOST: "", ...stackOptions.env },
        config: {
          ...(stackOptions.noNeonConfig
            ? {}
            : { "neon:apiKey": { secret: emulator.apiKey }, "neon:apiUrl": emulator.baseUrl }),
          ...stackOptions.config,
        },
      }),
    stop: () => emulator.close(),
  };
}

interface Logged {
  method: string;
  path: string;
  status: number;
}

/** "METHOD /path" of the requests of a command that change something (everything but GET). */
export function writes(result: CommandResult): string[] {
  return (result.requests as Logged[]).filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path}`);
}

/** The command's requests. */
export function requests(result: CommandResult): Logged[] {
  return result.requests as Logged[];
}

/** "op name" of the steps of the named resources (default: every resource of the program's own types). */
export function ops(result: { steps: { op: string; name: string; type: string }[] }, ...names: string[]): string[] {
  return result.steps
    .filter((s) => (names.length > 0 ? names.includes(s.name) : s.type === COMPUTE || s.type === API_KEY))
    .map((s) => `${s.op} ${s.name}`)
    .sort();
}

/** The stack's outputs, secrets shown (pulumi stack output --show-secrets). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export function outputs(stack: LocalStack): Record<string, any> {
  return stack.outputs({ showSecrets: true });
}

/** Throws the command's error, so a test fails with the provider's message. */
export function ok<T extends CommandResult>(result: T): T {
  if (result.error) throw result.error;
  return result;
}

/**
 * A program of one read-only compute on the dev branch with a fixed size, and `resize` to change that size (so that
 * an `up` has a PATCH to send, a preview a restart warning to show).
 */
export function resizableReplica(
  where: { projectId: string; branches: Record<string, string> },
  name = "db",
): { program: Program; resize: (cu: number) => void } {
  let size = 1;
  const program: Program = () => ({
    id: new Compute(name, {
      projectId: where.projectId,
      branchId: where.branches.dev,
      type: "read_only",
      autoscalingLimitMinCu: size,
      autoscalingLimitMaxCu: size,
    }).id,
  });
  return { program, resize: (cu) => (size = cu) };
}
