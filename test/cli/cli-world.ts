/**
 * The world the real-CLI scenario suites run in: the emulator on port 0, and stacks driven by the real Pulumi CLI
 * (`CliStack`, the Automation API with an inline program, a file backend of its own) beside the model of the engine
 * (`LocalStack`) for the same program, so a test can say where the two agree and where they differ.
 *
 * Each CLI command costs seconds (a CLI process, its plugins, the inline program's language server): tests run one
 * command at a time per file, and `noChange` is the check Pulumi's own provider tests make after every `up`: a
 * preview shows only `same` steps and sends nothing, and a refresh finds nothing changed.
 */
import { Emulator, EmulatorOptions, startEmulator } from "../../emulator";
import { NeonClient } from "../../client";
import { CommandResult, ConfigInput, LocalStack, Program, StepRecord } from "../../testing";
import { CliStack } from "../../testing/cli-stack";
import { findPulumiCli } from "../../testing/cli";
import { REPO_ROOT, SMALL_PAGE } from "../plugin/world";

export interface CliStackOptions {
  /** Stack config besides neon:apiKey (secret) and neon:apiUrl, which point at the emulator. */
  config?: Record<string, ConfigInput>;
  /** The CLI's environment (NEON_API_KEY and NEON_API_HOST are cleared unless given here). */
  env?: NodeJS.ProcessEnv;
  stack?: string;
  project?: string;
}

/** Either engine: the same commands, the same results. */
export type AnyStack = CliStack | LocalStack;

export interface CliWorld {
  emulator: Emulator;
  /** A client with the console key, to look at the service or change it out of band. */
  api: NeonClient;
  projectId: string;
  /** Branch ids by name (main, dev, staging). */
  branches: Record<string, string>;
  /** The CLI's install root (`<root>/bin/pulumi`). */
  cliRoot: string;
  /** A stack driven by the real Pulumi CLI. Dispose of it (`stack.dispose()`) when done. */
  stack(program: Program, options?: CliStackOptions): CliStack;
  /** The same program on the model of the engine (testing/), for comparison. */
  model(program: Program, options?: CliStackOptions): LocalStack;
  stop(): Promise<void>;
}

/** The CLI's install root, or a thrown error saying how to build it. */
export function cliRootOrThrow(): string {
  const root = findPulumiCli();
  if (!root) throw new Error("no Pulumi CLI: run `npm run pulumi:install` (it builds .pulumi-cli/bin/pulumi)");
  return root;
}

export async function cliWorld(options: { emulator?: EmulatorOptions } = {}): Promise<CliWorld> {
  const cliRoot = cliRootOrThrow();
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
  const settings = (program: Program, stackOptions: CliStackOptions = {}) => ({
    program,
    cwd: REPO_ROOT,
    project: stackOptions.project,
    stack: stackOptions.stack,
    requestLog: emulator,
    env: { ...process.env, NEON_API_KEY: "", NEON_API_HOST: "", ...stackOptions.env },
    config: {
      "neon:apiKey": { secret: emulator.apiKey },
      "neon:apiUrl": emulator.baseUrl,
      ...stackOptions.config,
    },
  });
  return {
    emulator,
    api,
    projectId: emulator.projectId,
    branches,
    cliRoot,
    stack: (program, stackOptions) => new CliStack({ ...settings(program, stackOptions), cliRoot }),
    model: (program, stackOptions) => new LocalStack({ ...settings(program, stackOptions), engine: "model" }),
    stop: () => emulator.close(),
  };
}

interface Logged {
  method: string;
  path: string;
  status: number;
}

/** The command's requests. */
export function requests(result: CommandResult): Logged[] {
  return result.requests as Logged[];
}

/** The type tokens of the provider's resources: `pulumi-nodejs:dynamic/neon:Compute`, `…:ApiKey`. */
export const NEON_TYPES = "pulumi-nodejs:dynamic/neon:";

/** "METHOD /path" of the requests of a command that change something (everything but GET). */
export function writes(result: CommandResult): string[] {
  return requests(result)
    .filter((r) => r.method !== "GET")
    .map((r) => `${r.method} ${r.path}`);
}

/** "METHOD /path status" of every request of a command, in arrival order. */
export function calls(result: CommandResult): string[] {
  return requests(result).map((r) => `${r.method} ${r.path} ${r.status}`);
}

/**
 * "op name" of the steps of the named resources, in the order the engine reported them (default: every resource
 * of the provider's types).
 */
export function ops(result: { steps: { op: string; name: string; type: string }[] }, ...names: string[]): string[] {
  return result.steps
    .filter((s) => (names.length > 0 ? names.includes(s.name) : s.type.startsWith(NEON_TYPES)))
    .map((s) => `${s.op} ${s.name}`);
}

/** Throws the command's error, so a test fails with the engine's or the provider's message. */
export function ok<T extends CommandResult>(result: T): T {
  if (result.error) throw result.error;
  return result;
}

/** The stack's outputs, secrets shown (`pulumi stack output --show-secrets`). */
export async function outputsOf(stack: AnyStack): Promise<Record<string, unknown>> {
  return await stack.outputs({ showSecrets: true });
}

/** The ids the state holds for resources named `name` (pending deletes included, flagged). */
export async function stateIds(stack: AnyStack, name: string): Promise<string[]> {
  const resources =
    stack instanceof CliStack
      ? ((JSON.parse(await stack.exportState()) as { resources?: StateResource[] }).resources ?? [])
      : (stack.state.resources as StateResource[]);
  return resources
    .filter((r) => r.urn.endsWith(`::${name}`))
    .map((r) => (r.delete ? `${r.id} (delete)` : (r.id ?? "")));
}

interface StateResource {
  urn: string;
  id?: string;
  delete?: boolean;
  inputs?: Record<string, unknown>;
  outputs?: Record<string, unknown>;
}

/** The state's inputs and outputs of the one live resource named `name` (secrets as the backend keeps them). */
export async function stateOf(
  stack: AnyStack,
  name: string,
): Promise<{ inputs: Record<string, unknown>; outputs: Record<string, unknown> }> {
  const resources =
    stack instanceof CliStack
      ? ((JSON.parse(await stack.exportState()) as { resources?: StateResource[] }).resources ?? [])
      : (stack.state.resources as StateResource[]);
  const found = resources.filter((r) => r.urn.endsWith(`::${name}`) && !r.delete);
  if (found.length !== 1) throw new Error(`${found.length} resources named ${name} in state`);
  return { inputs: found[0].inputs ?? {}, outputs: found[0].outputs ?? {} };
}

/**
 * What a no-change check saw: the preview's steps ("op name" of the provider's resources) and requests, the
 * refresh's findings ("name same|update|delete", from either engine's way of reporting them) and writes, the
 * warnings of both, and whether the outputs moved. `expectNoChange` asserts the clean answer; `noChange` only records
 * it (for the model, whose answer is compared with the CLI's rather than asserted).
 */
export interface NoChange {
  previewOps: string[];
  previewRequests: string[];
  refreshFound: string[];
  refreshWrites: string[];
  warnings: string[];
  outputsKept: boolean;
}

export async function noChange(stack: AnyStack, options: NoChangeOptions = {}): Promise<NoChange> {
  const before = await outputsOf(stack);
  const preview = ok(await stack.preview());
  const programReads = options.programReads;
  const refresh = ok(await stack.refresh({ skipPreview: true }));
  // The provider's resources only: the engine's own (the default provider) and the root stack are reported
  // differently by the two engines (a CLI refresh reports the stack "same"; the model reports no step for it).
  const shown = (steps: StepRecord[]) => steps.filter((s) => s.type.startsWith(NEON_TYPES));
  return {
    previewOps: byResource(
      shown(preview.steps).map((s) => `${s.op} ${s.name}`),
      (op) => op.split(" ")[1],
    ),
    previewRequests: calls(preview).filter((call) => !programReads?.test(call)),
    refreshFound: shown(refresh.steps)
      .map((s) => `${s.name} ${refreshFinding(s)}`)
      .sort(),
    refreshWrites: writes(refresh),
    warnings: [...preview.warnings, ...refresh.warnings],
    outputsKept: JSON.stringify(await outputsOf(stack)) === JSON.stringify(before),
  };
}

/**
 * What a refresh found for a resource ("failed" for a failed read): op "refresh" with `found` (LocalStack, and CliStack
 * from the op of the resource's outputs event); from an op of its own (same, update, delete) where a CliStack
 * reports the outputs event's op as the step's.
 */
export function refreshFinding(step: { op: string; found?: string; diffs?: string[]; error?: string }): string {
  if (step.error) return "failed";
  if (step.found) return step.found;
  if (step.op === "refresh") return (step.diffs?.length ?? 0) > 0 ? "update" : "same";
  return step.op;
}

export interface NoChangeOptions {
  /**
   * Requests the program itself makes (an invoke such as getProjects runs in every preview): "METHOD /path status"
   * matching this is left out of the preview's requests.
   */
  programReads?: RegExp;
}

/** The no-change check after an `up`: only `same` steps and no request in a preview, nothing found by a refresh. */
export async function expectNoChange(stack: AnyStack, options: NoChangeOptions = {}): Promise<NoChange> {
  const seen = await noChange(stack, options);
  expect(seen).toEqual({
    previewOps: seen.previewOps.map((op) => op.replace(/^\S+ /, "same ")),
    previewRequests: [],
    refreshFound: seen.refreshFound.map((found) => found.replace(/ \S+$/, " same")),
    refreshWrites: [],
    warnings: [],
    outputsKept: true,
  });
  return seen;
}

/**
 * What a scenario showed, entry by entry, with the service's ids replaced by their order of appearance (`ep#1`,
 * `key#1`), so that the CLI's run and the model's, each with its own computes and keys, compare as equal when they
 * did the same.
 */
export class Transcript {
  readonly entries: Record<string, unknown> = {};
  private readonly ids = new Map<string, string>();

  /** A command's steps (its preview's too), writes in order, and its errors and warnings. */
  command(label: string, result: CommandResult): CommandResult {
    if (result.preview)
      this.entries[`${label}: preview steps`] = byResource(ops(result.preview), (op) => op.split(" ")[1]);
    // Steps and writes of different resources run in parallel: each kept in its own order, grouped by resource.
    this.entries[`${label}: steps`] = byResource(ops(result), (op) => op.split(" ")[1]);
    if (result.command === "refresh") {
      const found = (steps: StepRecord[]) =>
        steps
          .filter((s) => s.type.startsWith(NEON_TYPES))
          .map((s) => `${s.name} ${refreshFinding(s)}`)
          .sort();
      if (result.preview) this.entries[`${label}: preview found`] = found(result.preview.steps);
      this.entries[`${label}: found`] = found(result.steps);
    }
    const diffs = result.steps.filter((s) => s.type.startsWith(NEON_TYPES) && (s.diffs?.length ?? 0) > 0);
    if (diffs.length > 0)
      this.entries[`${label}: diffs`] = diffs.map((s) => `${s.name}: ${[...(s.diffs ?? [])].sort()}`);
    const previewDiffs = (result.preview?.steps ?? []).filter(
      (s) => s.type.startsWith(NEON_TYPES) && (s.diffs?.length ?? 0) > 0,
    );
    if (previewDiffs.length > 0)
      this.entries[`${label}: preview diffs`] = previewDiffs.map((s) => `${s.name}: ${[...(s.diffs ?? [])].sort()}`);
    if (result.preview)
      this.entries[`${label}: preview warnings`] = warningsOf(result.preview).map((w) => this.normalize(w));
    this.entries[`${label}: writes`] = byResource(writes(result), (w) =>
      w.includes("/api_keys") ? "key" : "compute",
    ).map((w) => this.normalize(w));
    this.entries[`${label}: failed`] = byResource(
      result.steps.filter((s) => s.error).map((s) => `${s.op} ${s.name}`),
      (op) => op.split(" ")[1],
    );
    this.entries[`${label}: errors`] = providerErrors(result)
      .map((e) => this.normalize(e))
      .sort();
    this.entries[`${label}: warnings`] = result.warnings.map((w) => this.normalize(w));
    return result;
  }

  /** Any other observation (a no-change check, what the service or the state holds). */
  note(label: string, value: unknown): void {
    this.entries[label] = JSON.parse(this.normalize(JSON.stringify(value ?? null)));
  }

  /** Ids → their order of appearance in this transcript. */
  normalize(text: string): string {
    return (
      text
        .replace(/ep-[a-z]+-[a-z]+-\d+/g, (id) => this.label(id, "ep"))
        .replace(/api_keys\/(\d+)/g, (_, id: string) => `api_keys/${this.label(id, "key")}`)
        .replace(/request ID: [0-9a-f-]+/g, "request ID: <id>")
        // A compute's name (compute/owner-tag.ts): its owner tag hashes the stack's names, which differ between the two
        // engines' stacks, then a random part.
        .replace(/\bpulumi-[0-9a-f]{12}-[0-9a-f]{8}\b/g, "pulumi-{tag}-{mark}")
    );
  }

  private label(id: string, kind: string): string {
    let label = this.ids.get(id);
    if (!label) {
      label = `${kind}#${[...this.ids.values()].filter((l) => l.startsWith(kind)).length + 1}`;
      this.ids.set(id, label);
    }
    return label;
  }
}

/** A stable sort by resource: each resource's entries keep their order. */
function byResource<T>(items: T[], resource: (item: T) => string): T[] {
  return [...items].sort((a, b) => resource(a).localeCompare(resource(b)));
}

/** The warnings among a preview's diagnostics. */
export function warningsOf(preview: { diagnostics: { severity: string; message: string }[] }): string[] {
  return preview.diagnostics.filter((d) => d.severity === "warning").map((d) => d.message);
}

/**
 * The errors a command's diagnostics carry, without the engine's summary lines ("update failed", "preview failed"):
 * what the provider (or the engine, for a resource) said.
 */
export function providerErrors(result: CommandResult): string[] {
  return result.diagnostics
    .filter((d) => d.severity === "error" && !/^(update|preview|refresh|destroy) failed$/.test(d.message))
    .map((d) => d.message);
}

/**
 * The model's transcript against the CLI's: every entry equal, except the recorded disagreements, where the model
 * must show exactly the recorded value (or, once the model is fixed, the CLI's). Returns the disagreements that still
 * held, for the test to log.
 */
export function compareWithModel(
  cli: Transcript,
  model: Transcript,
  known: Record<string, unknown> = {},
): Record<string, { cli: unknown; model: unknown }> {
  const held: Record<string, { cli: unknown; model: unknown }> = {};
  const keys = new Set([...Object.keys(cli.entries), ...Object.keys(model.entries)]);
  for (const key of keys) {
    const [c, m] = [cli.entries[key], model.entries[key]];
    if (JSON.stringify(c) === JSON.stringify(m)) continue;
    // A difference not recorded fails here, showing both sides.
    expect({ key, model: m }).toEqual({ key, model: key in known ? known[key] : c });
    held[key] = { cli: c, model: m };
  }
  return held;
}

export type Engine = "cli" | "model";

/**
 * Runs a scenario on one engine (stack "cli" or "model"), recording it in a Transcript. The scenario ends with its
 * own destroy; if it throws, what is left is destroyed (with the program, so the current config) and the error stands.
 * The stack is disposed of and the run's duration logged whatever happens.
 */
export async function runOn(
  world: CliWorld,
  engine: Engine,
  program: Program,
  options: CliStackOptions,
  scenario: (stack: AnyStack, t: Transcript) => Promise<void>,
): Promise<Transcript> {
  const stack =
    engine === "cli"
      ? world.stack(program, { stack: "cli", ...options })
      : world.model(program, { stack: "model", ...options });
  const t = new Transcript();
  const start = Date.now();
  try {
    await scenario(stack, t);
  } catch (error) {
    await stack.destroy({ skipPreview: true, runProgram: true }).catch(() => undefined);
    throw error;
  } finally {
    if (stack instanceof CliStack) await stack.dispose();
    console.log(`${expect.getState().currentTestName} [${engine}]: ${since(start)} ms`);
  }
  return t;
}

/** The no-change check after an `up`: asserted on the CLI, recorded for the model (compared with the CLI's). */
export async function checkNoChange(
  stack: AnyStack,
  t: Transcript,
  engine: Engine,
  label: string,
  options: NoChangeOptions = {},
): Promise<void> {
  const seen = engine === "cli" ? await expectNoChange(stack, options) : await noChange(stack, options);
  t.note(`${label}: no-change check`, seen);
}

/** The compute ids on a branch, sorted. */
export async function computesOn(world: CliWorld, branch: string): Promise<string[]> {
  return (await world.api.endpoints.listForBranch(world.projectId, branch)).map((c) => c.id).sort();
}

/** Milliseconds since `start`, rounded: for the durations a test logs. */
export function since(start: number): number {
  return Math.round(Date.now() - start);
}
