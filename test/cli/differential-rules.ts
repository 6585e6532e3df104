/**
 * The engine's rules in the differential suite: programs of recording resources (test/engine/recorder.ts, whose
 * provider logs every call it gets) run through the local engine and through the real Pulumi CLI, one stack on each,
 * and each command compared: the program's steps, the diagnostics, the stack outputs, the state of each resource, and
 * what the engine sent the provider, per resource and in order (each call's method, plugin process and arguments).
 * What the engine sends the plugin is where most of its rules show (Check's olds and news, Diff's, what a refresh
 * reads, which configuration a delete runs with), and the provider's log shows it on both sides alike.
 *
 * Ids (`<value>-<random>`) become labels by resource and generation (`{r}`, `{r#2}`), plugin processes ordinals in
 * the order they first called (`p1`, `p2`, …), the serialized provider `{provider}`; call timestamps are left out.
 */
import * as pulumi from "@pulumi/pulumi";
import { CommandResult, ConfigInput, Program, ResourceState } from "../../testing";
import { Call, recordedStack, Recorded } from "../engine/recorded";
import { Recorder, RecorderArgs } from "../engine/recorder";
import { isProgramResource, isSubsequence, severity, stepLines } from "./differential-compare";

type Props = Record<string, unknown>;

/** A recorder whose every call names it: its inputs carry `label`, its name. */
export function rec(name: string, args: RecorderArgs, opts?: pulumi.CustomResourceOptions): Recorder {
  return new Recorder(name, { ...args, label: name } as RecorderArgs, opts);
}

export interface RulesView {
  failed: boolean;
  steps: string[];
  errors: string[];
  warnings: string[];
  outputs: Record<string, unknown>;
  preview?: { steps: string[]; errors: string[] };
  /** Per resource, the calls it got in order: "p2 update {olds} {news}". */
  calls: Record<string, string[]>;
  /** Per program resource in state: URN, id, inputs, outputs and the engine's marks. */
  state: Record<string, unknown>;
  /** What the scenario reads besides (the order of two calls, how many ran at once, the exported state). */
  extra?: unknown;
}

/** What a scenario reads of one side after a command, besides the view: `calls` are the command's. */
export type Extra = (side: RulesSide, result: CommandResult, calls: Call[]) => unknown;

export interface RulesOptions {
  config?: Record<string, ConfigInput>;
  parallel?: number;
  project?: string;
}

/** One side: a recorded stack on one engine, with the labels its ids and processes get. */
export class RulesSide {
  readonly recorded: Recorded;
  private readonly ids = new Map<string, string>();
  private readonly generations = new Map<string, number>();
  private readonly pids = new Map<number, string>();

  constructor(
    readonly engine: "model" | "cli",
    program: Program,
    options: RulesOptions,
    cliRoot: string,
  ) {
    this.recorded = recordedStack(program, { ...options, engine, cliRoot });
  }

  get stack() {
    return this.recorded.stack;
  }

  /** Gives every id in the state a label, by resource name, in the order the ids appear. */
  learnIds(): void {
    for (const state of this.stack.state.resources.filter((r) => r.custom && isProgramResource(r))) {
      if (!state.id || this.ids.has(state.id)) continue;
      const name = state.urn.split("::").pop() ?? "?";
      const generation = (this.generations.get(name) ?? 0) + 1;
      this.generations.set(name, generation);
      this.ids.set(state.id, generation === 1 ? `{${name}}` : `{${name}#${generation}}`);
    }
  }

  text(value: string): string {
    let out = value;
    for (const [id, label] of this.ids) out = out.split(id).join(label);
    return out.replace(/\b[\w.]+-[0-9a-f]{4,8}\b(?![-\w])/g, "{id:?}");
  }

  /** Runs the command and views what it did. */
  async run(command: (stack: Recorded["stack"]) => Promise<CommandResult>, extra?: Extra): Promise<RulesView> {
    this.learnIds();
    const mark = this.recorded.mark();
    const result = await command(this.stack);
    this.learnIds();
    const calls = this.recorded.calls(mark);
    return {
      failed: result.error !== undefined,
      steps: stepLines(result.steps, this),
      errors: lines(severity(result.diagnostics, "error", this)),
      warnings: lines(severity(result.diagnostics, "warning", this)),
      outputs: this.normalized(result.outputs) as Record<string, unknown>,
      ...(result.preview
        ? {
            preview: {
              steps: stepLines(result.preview.steps, this),
              errors: lines(severity(result.preview.diagnostics, "error", this)),
            },
          }
        : {}),
      calls: this.callLines(calls),
      state: this.stateView(this.stack.state.resources),
      ...(extra ? { extra: extra(this, result, calls) } : {}),
    };
  }

  private callLines(calls: Call[]): Record<string, string[]> {
    const lines: Record<string, string[]> = {};
    for (const call of calls) {
      if (call.method === "checked" || call.method === "created") continue;
      const { pid, method, at, ...args } = call; // eslint-disable-line @typescript-eslint/no-unused-vars
      const owner = method === "configure" ? "(provider)" : this.ownerOf(call);
      (lines[owner] ??= []).push(`${this.process(pid)} ${method} ${this.text(JSON.stringify(this.normalized(args)))}`);
    }
    return lines;
  }

  /** The resource a call was for: its `label` input, else the owner of its id. */
  ownerOf(call: Call): string {
    for (const key of ["news", "inputs", "props", "olds"]) {
      const label = (call[key] as Props | undefined)?.label;
      if (typeof label === "string") return label;
    }
    return this.ids.get(String(call.id))?.replace(/[{}]|#\d+/g, "") ?? "(unknown)";
  }

  private process(pid: number): string {
    if (!this.pids.has(pid)) this.pids.set(pid, `p${this.pids.size + 1}`);
    return this.pids.get(pid) as string;
  }

  private stateView(resources: ResourceState[]): Record<string, unknown> {
    const view: Record<string, unknown> = {};
    for (const r of resources.filter((s) => s.custom && isProgramResource(s))) {
      const name = r.urn.split("::").pop() ?? "?";
      const key = r.delete ? `${name} (delete)` : name;
      view[key] = this.normalized({
        urn: r.urn,
        id: r.id,
        inputs: r.inputs,
        outputs: r.outputs,
        ...(r.protect ? { protect: true } : {}),
        ...(r.retainOnDelete ? { retainOnDelete: true } : {}),
        ...(r.pendingReplacement ? { pendingReplacement: true } : {}),
        ...(r.initErrors?.length ? { initErrors: r.initErrors } : {}),
      });
    }
    return view;
  }

  /** A copy with ids labelled and the serialized provider as `{provider}`. */
  private normalized(value: unknown): unknown {
    return JSON.parse(this.text(JSON.stringify(value)), (key, v: unknown) =>
      key === "__provider" && typeof v === "string" ? "{provider}" : v,
    );
  }
}

/** The same program, with the same options, on the local engine and on the real CLI. */
export class RulesPair {
  readonly model: RulesSide;
  readonly cli: RulesSide;

  constructor(program: Program, options: RulesOptions, cliRoot: string) {
    this.model = new RulesSide("model", program, options, cliRoot);
    this.cli = new RulesSide("cli", program, options, cliRoot);
  }

  /** Runs the command on the model, then on the CLI (one inline program at a time), and views both. */
  async both(
    command: (stack: Recorded["stack"]) => Promise<CommandResult>,
    extra?: Extra,
    documented: Documented[] = [],
  ): Promise<[RulesView, RulesView]> {
    const local = await this.model.run(command, extra);
    const real = await this.cli.run(command, extra);
    const aligned = (view: RulesView) => documented.reduce((v, d) => d(v), view);
    return [aligned(local), aligned(raceAfterFailure(local, real))];
  }

  setConfig(changes: Parameters<Recorded["stack"]["setConfig"]>[0]): void {
    this.model.stack.setConfig(changes);
    this.cli.stack.setConfig(changes);
  }

  async close(): Promise<void> {
    await this.model.recorded.cleanup();
    await this.cli.recorded.cleanup();
  }
}

/**
 * A difference testing/README.md ("Checked against the real CLI") documents, taken out of both views of a command:
 * what the comparison still holds is everything else.
 */
export type Documented = (view: RulesView) => RulesView;

const onSteps = (view: RulesView, change: (line: string) => string): RulesView => ({
  ...view,
  steps: view.steps.map(change),
  ...(view.preview ? { preview: { ...view.preview, steps: view.preview.steps.map(change) } } : {}),
});

/**
 * After a failed step, which other registrations got steps is a race in the CLI (testing/README.md; the same rule as
 * differential-compare.ts withoutDocumented): the CLI's steps of the other resources may be some of the model's.
 */
function raceAfterFailure(local: RulesView, real: RulesView): RulesView {
  if (!local.failed || !real.failed) return real;
  const name = (line: string) => line.slice(0, line.indexOf(": "));
  const failing = new Set(local.steps.filter((line) => line.endsWith(" failed")).map(name));
  const others = (lines: string[]) => lines.filter((line) => !failing.has(name(line)));
  if (!isSubsequence(others(real.steps), others(local.steps))) return real;
  const merged = [...others(local.steps), ...real.steps.filter((line) => failing.has(name(line)))];
  const steps = merged.sort((a, b) => (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0));
  // The same race for the calls: a registration the CLI never reached got none, or only its first ones.
  const calls = { ...real.calls };
  for (const [owner, lines] of Object.entries(local.calls)) {
    if (failing.has(owner) || owner === "(provider)") continue;
    if (isSubsequence(real.calls[owner] ?? [], lines)) calls[owner] = lines;
  }
  return { ...real, steps, calls };
}

/** The keys the model blames a dependent's `replace` step on (the CLI's event has none for a dependent). */
export const dependentKeys =
  (...names: string[]): Documented =>
  (view) =>
    onSteps(view, (line) => (names.some((n) => line.startsWith(`${n}: replace keys`)) ? line.split(" keys")[0] : line));

/** An update's changed secret input among its `diffs` (the CLI's events show every secret as `[secret]`). */
export const secretDiffs =
  (name: string, key: string): Documented =>
  (view) =>
    onSteps(view, (line) =>
      line.startsWith(`${name}: update diffs `)
        ? line.replace(
            new RegExp(`(diffs )(.*)`),
            (_, d: string, list: string) =>
              d +
              list
                .split(",")
                .filter((k) => k !== key)
                .join(","),
          )
        : line,
    );

/** The `delete-replaced` step the CLI's preview shows for a protected resource's replacement, which it refuses. */
export const protectedReplacement =
  (name: string): Documented =>
  (view) => {
    const kept = (line: string) => line !== `${name}: delete-replaced`;
    return {
      ...view,
      steps: view.steps.filter(kept),
      ...(view.preview ? { preview: { ...view.preview, steps: view.preview.steps.filter(kept) } } : {}),
    };
  };

/**
 * The `diffs` of the update that finishes an object left with init errors: the model lists none (its Diff answered no
 * change), the CLI the inputs that differ from the old ones a partially failed update kept.
 */
export const initErrorUpdateDiffs =
  (name: string): Documented =>
  (view) =>
    onSteps(view, (line) => (line.startsWith(`${name}: update diffs `) ? `${name}: update` : line));

/** The wording of an init failure's error (the model: the provider's message; the CLI: its reasons, as a list). */
export const initErrorWording: Documented = (view) => ({
  ...view,
  errors: view.errors.filter((line) => !/^(recorder: made but not ready|1 error occurred:|\* not ready)$/.test(line)),
});

/** Messages as lines: `CliStack` reads a message of several lines as one diagnostic per line, as the CLI shows it. */
function lines(messages: string[]): string[] {
  return messages
    .flatMap((message) => message.split("\n").map((line) => line.trim()))
    .filter(Boolean)
    .sort();
}

/** Whether each "method name" call came before the other of its pair: `before(["delete dep", "delete base"])`. */
export function before(...pairs: [string, string][]): Extra {
  return (side, _result, calls) => {
    const at = (line: string) => calls.findIndex((c) => `${c.method} ${side.ownerOf(c)}` === line);
    return pairs.map(([first, second]) => `${first} < ${second}: ${at(first) >= 0 && at(first) < at(second)}`);
  };
}

/** The most Check calls, and the most Create calls, that ran at once. */
export const overlap: Extra = (_side, _result, calls) => ({
  check: maxOverlap(calls, "check", "checked"),
  create: maxOverlap(calls, "create", "created"),
});

/** The most `start` calls running at once, each ended by the next `end` call. */
export function maxOverlap(calls: Call[], start: string, end: string): number {
  const events = calls
    .filter((c) => c.method === start || c.method === end)
    .map((c) => ({ at: Number(c.at), delta: c.method === start ? 1 : -1 }))
    .sort((a, b) => a.at - b.at || a.delta - b.delta);
  let running = 0;
  let most = 0;
  for (const event of events) most = Math.max(most, (running += event.delta));
  return most;
}
