/**
 * A command's result for a terminal, in the manner of the Pulumi CLI's summary: one aligned line per step, then the
 * diagnostics, the outputs (secrets hidden) and the counts. Colour only when asked (a TTY); `quiet` prints the
 * counts alone. The engine's own default provider and the root stack are shown only when they change.
 */
import { CommandResult } from "./stack";
import { StepRecord } from "./steps";

export interface ReportOptions {
  color?: boolean;
  quiet?: boolean;
  /** Leave out the step lines (they were shown as progress). */
  noSteps?: boolean;
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
  if (!options.noSteps) for (const step of shown) lines.push(renderStep(step, widths, options.color));
  for (const d of result.diagnostics) {
    if (d.severity !== "info") lines.push(paint(d.severity === "error" ? "31" : "33", `${d.severity}: ${d.message}`));
  }
  const outputs = Object.entries(result.outputs);
  if (outputs.length > 0) {
    lines.push("Outputs:");
    const keyWidth = Math.max(...outputs.map(([k]) => k.length));
    for (const [key, value] of outputs) lines.push(`    ${key.padEnd(keyWidth)}: ${JSON.stringify(value)}`);
  }
  lines.push(summaryLine(result, counts, paint));
  return lines.join("\n");
}

/** One step as a line (also a progress line). */
export function renderStep(step: StepRecord, widths = { type: 0, name: 0 }, color = false): string {
  const paint = painter(color);
  const look = LOOK[step.found === "update" ? "update" : step.op] ?? LOOK.same;
  const verb = step.op === "refresh" ? `refresh: ${step.found ?? "read"}` : look.verb;
  const detail = step.keys?.length
    ? ` [replace: ${step.keys.join(", ")}]`
    : step.diffs?.length
      ? ` [diff: ${step.diffs.join(", ")}]`
      : "";
  const line = `${look.symbol.padStart(2)} ${shortType(step.type).padEnd(widths.type)}  ${step.name.padEnd(widths.name)}  ${verb}${detail}`;
  const failed = step.error ? paint("31", ` failed: ${step.error.split("\n")[0]}`) : "";
  return `${paint(look.color, line)}${failed}`;
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

/** Whether a step gets a line: the engine's own default provider and the root stack only when they change. */
export function isShown(step: StepRecord): boolean {
  const engineOwn = step.type.startsWith("pulumi:providers:") || step.type === "pulumi:pulumi:Stack";
  return !engineOwn || (step.op !== "same" && step.op !== "delete");
}

function countSteps(steps: StepRecord[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const step of steps.filter((s) => !s.type.startsWith("pulumi:"))) {
    const key = step.op === "refresh" ? `refresh ${step.found}` : step.op;
    if (key === "create-replacement" || key === "delete-replaced") continue; // counted once, as the replace
    counts[key] = (counts[key] ?? 0) + 1;
  }
  return counts;
}

/** How a count reads: planned in a preview ("to create"), done otherwise ("created"). */
const DONE: Record<string, string> = { create: "created", update: "updated", replace: "replaced", delete: "deleted" };

function summaryLine(result: CommandResult, counts: Record<string, number>, paint: Painter): string {
  const planned = result.command === "preview";
  const word = (op: string) => (op === "same" ? "unchanged" : planned ? `to ${op}` : (DONE[op] ?? op));
  const parts = Object.entries(counts).map(([op, n]) => `${n} ${word(op)}`);
  const status = result.interrupted ? "interrupted" : result.error ? paint("31", "failed") : "done";
  return `Resources: ${parts.length > 0 ? parts.join(", ") : "none"} (${result.command}: ${status})`;
}

type Painter = (code: string, text: string) => string;

function painter(color: boolean): Painter {
  return (code, text) => (color && code ? `\u001b[${code}m${text}\u001b[0m` : text);
}
