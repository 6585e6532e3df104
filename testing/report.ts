/**
 * A command's result for a terminal, in the manner of the Pulumi CLI's display (pulumi/pulumi
 * `pkg/backend/display`): one aligned line per step, then the diagnostics grouped by resource, the outputs (secrets
 * hidden) and the counts. Colour only when asked (a TTY); `quiet` prints the counts alone.
 *
 * What is shown and counted follows the CLI: the engine's internal steps (the default provider's, and dropping a
 * pending replacement: pkg/engine/update.go isInternalStep, isDefaultProviderStep) get no line (display.go drops
 * internal events) and no count; the root stack is a resource like the others, shown and counted (a first `up` of
 * three resources creates four).
 */
import { CommandResult } from "./stack";
import { StepRecord } from "./steps";
import { isProviderType, nameOf, typeOf } from "./urn";

export interface ReportOptions {
  color?: boolean;
  quiet?: boolean;
  /** Leave out the step lines (they were shown as progress). */
  noSteps?: boolean;
  /** The terminal's width, which a failed step's line is cut to (default: not cut). */
  width?: number;
}

/** How each step is drawn: symbol, verb, colour (ANSI). */
const LOOK: Record<string, { symbol: string; verb: string; color: string }> = {
  same: { symbol: " ", verb: "same", color: "" },
  create: { symbol: "+", verb: "create", color: "32" },
  update: { symbol: "~", verb: "update", color: "33" },
  replace: { symbol: "+-", verb: "replace", color: "35" },
  "create-replacement": { symbol: "++", verb: "create replacement", color: "35" },
  "delete-replaced": { symbol: "--", verb: "delete original", color: "31" },
  delete: { symbol: "-", verb: "delete", color: "31" },
  "remove-pending-replace": { symbol: "-", verb: "drop pending replace", color: "31" },
  skip: { symbol: " ", verb: "skip", color: "" },
  refresh: { symbol: "~", verb: "refresh", color: "36" },
};

/** The whole report of a command. */
export function renderResult(result: CommandResult, options: ReportOptions = {}): string {
  const paint = painter(options.color ?? false);
  const counts = countSteps(result.steps);
  if (options.quiet) return summaryLine(result, counts, paint);
  const lines: string[] = [];
  const shown = result.steps.filter(isShown);
  const widths = columnWidths(shown);
  if (!options.noSteps) {
    for (const step of shown) lines.push(renderStep(step, { widths, color: options.color, width: options.width }));
  }
  lines.push(...renderDiagnostics(result, paint));
  const outputs = Object.entries(result.outputs);
  if (outputs.length > 0) {
    lines.push("Outputs:");
    const keyWidth = Math.max(...outputs.map(([k]) => k.length));
    for (const [key, value] of outputs) lines.push(`    ${key.padEnd(keyWidth)}: ${JSON.stringify(value)}`);
  }
  lines.push(summaryLine(result, counts, paint));
  return lines.join("\n");
}

export interface StepLineOptions {
  /** The widths of the type and name columns (columnWidths of the lines shown together). */
  widths?: { type: number; name: number };
  color?: boolean;
  /** The terminal's width: a failed step's error is cut to fit it (the whole error is among the diagnostics). */
  width?: number;
  /** A finished step (a progress line): its verb in the past tense, as the CLI's "created" (not the plan's "create"). */
  done?: boolean;
}

/** The verbs of finished steps (the CLI's progress display: "created", "updated", "deleted original", …). */
const DONE_STEP: Record<string, string> = {
  create: "created",
  update: "updated",
  replace: "replaced",
  "create-replacement": "created replacement",
  "delete-replaced": "deleted original",
  delete: "deleted",
  "remove-pending-replace": "dropped pending replace",
};

/** One step as a line (also a progress line); a failed step carries the first line of its error. */
export function renderStep(step: StepRecord, options: StepLineOptions = {}): string {
  const paint = painter(options.color ?? false);
  const widths = options.widths ?? { type: 0, name: 0 };
  const look = LOOK[step.found === "update" ? "update" : step.op] ?? LOOK.same;
  const planned = step.found === "update" ? "update" : step.op;
  const verb =
    step.op === "refresh"
      ? `refresh: ${step.found ?? "read"}`
      : options.done && !step.error && DONE_STEP[planned]
        ? DONE_STEP[planned]
        : look.verb;
  const detail = step.keys?.length
    ? ` [replace: ${step.keys.join(", ")}]`
    : step.diffs?.length
      ? ` [diff: ${step.diffs.join(", ")}]`
      : "";
  const line = `${look.symbol.padStart(2)} ${shortType(step.type).padEnd(widths.type)}  ${step.name.padEnd(widths.name)}  ${verb}${detail}`;
  if (!step.error) return paint(look.color, line);
  const room = options.width ? Math.max(options.width - line.length, MIN_ERROR) : undefined;
  const failed = fit(` failed: ${step.error.split("\n")[0]}`, room);
  return `${paint(look.color, line)}${paint("31", failed)}`;
}

/** What a failed step's line keeps of its error however long the line: " failed: " and a little. */
const MIN_ERROR = 20;

/** `text` cut to `room` characters, ending in "…" when cut. */
function fit(text: string, room: number | undefined): string {
  if (room === undefined || text.length <= room) return text;
  return `${text.slice(0, room - 1)}…`;
}

/**
 * The diagnostics that are not informational, as the CLI's "Diagnostics:" section: grouped under the resource they
 * concern (`  test:Recorder (b):`), each message whole and indented; the engine's own first, under no resource.
 */
function renderDiagnostics(result: CommandResult, paint: Painter): string[] {
  const shown = result.diagnostics.filter((d) => d.severity !== "info");
  if (shown.length === 0) return [];
  const groups = new Map<string, typeof shown>();
  for (const d of shown) groups.set(d.urn ?? "", [...(groups.get(d.urn ?? "") ?? []), d]);
  const lines = ["Diagnostics:"];
  for (const [urn, list] of [...groups].sort(([a], [b]) => (a === "" ? -1 : b === "" ? 1 : 0))) {
    const indent = urn ? "    " : "  ";
    if (urn) lines.push(`  ${shortType(typeOf(urn))} (${nameOf(urn)}):`);
    for (const d of list) {
      const text = `${d.severity}: ${d.message}`.split("\n").join(`\n${indent}`);
      lines.push(indent + paint(d.severity === "error" ? "31" : "33", text));
    }
  }
  return lines;
}

/** The widths of the type and name columns that align the step lines of `steps`. */
export function columnWidths(steps: StepRecord[]): { type: number; name: number } {
  return {
    type: Math.max(0, ...steps.map((s) => shortType(s.type).length)),
    name: Math.max(0, ...steps.map((s) => s.name.length)),
  };
}

/** `pulumi-nodejs:dynamic/neon:Compute` → `neon:Compute`. */
export function shortType(type: string): string {
  return type.replace(/^pulumi-nodejs:dynamic\//, "");
}

/** isInternalStep (pkg/engine/update.go): the default provider's steps, and dropping a pending replacement. */
function isInternal(step: StepRecord): boolean {
  return isProviderType(step.type) || step.op === "remove-pending-replace";
}

/** Whether a step gets a line: every step but the engine's internal ones (display.go shows no internal event). */
export function isShown(step: StepRecord): boolean {
  return !isInternal(step);
}

/**
 * The counts of the summary (update.go OnResourceStepPost: `acts.Ops[op]++` for a logical step that is not internal
 * and did not fail): a replacement once, as its `replace` step; a refresh by what it found (RefreshStep.ResultOp); a
 * failed step as "errored" (progress.go resourcesErrored).
 */
function countSteps(steps: StepRecord[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const step of steps.filter((s) => !isInternal(s))) {
    if (!step.error && (step.op === "create-replacement" || step.op === "delete-replaced")) continue; // not logical
    const key = step.error ? "errored" : step.op === "refresh" ? (step.found ?? "same") : step.op;
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

/** How a count reads: planned in a preview ("to create"), done otherwise ("created"). */
const DONE: Record<string, string> = { create: "created", update: "updated", replace: "replaced", delete: "deleted" };

/** The order of the counts: the changes, then what is unchanged (diff.go renderSummaryEvent). */
const ORDER = ["create", "update", "replace", "delete"];
const LAST = ["same", "errored"];
const rank = (op: string) =>
  LAST.includes(op) ? ORDER.length + 1 + LAST.indexOf(op) : ORDER.includes(op) ? ORDER.indexOf(op) : ORDER.length;

function summaryLine(result: CommandResult, counts: Record<string, number>, paint: Painter): string {
  const planned = result.command === "preview";
  const word = (op: string) =>
    op === "same" ? "unchanged" : op === "errored" ? paint("31", op) : planned ? `to ${op}` : (DONE[op] ?? op);
  const ops = Object.keys(counts).sort((a, b) => rank(a) - rank(b));
  const parts = ops.map((op) => `${counts[op]} ${word(op)}`);
  const status = result.interrupted ? "interrupted" : result.error ? paint("31", "failed") : "done";
  return `Resources: ${parts.length > 0 ? parts.join(", ") : "none"} (${result.command}: ${status})`;
}

type Painter = (code: string, text: string) => string;

function painter(color: boolean): Painter {
  return (code, text) => (color && code ? `\u001b[${code}m${text}\u001b[0m` : text);
}
