/**
 * What the differential suite compares of a command's result, in a form that means the same on both sides: per
 * resource, its steps (op, the properties of an update's diff, the keys blamed for a replacement, what a refresh
 * found) in the order they happened; the warnings, the errors and the other diagnostics; the stack outputs (secrets as
 * "[secret]", a preview's unknowns as "[unknown]"); the steps and diagnostics of the preview an `up`, a `refresh` or a
 * `destroy` ran first; and the requests the emulator received; every id replaced by its label (differential-world.ts
 * IdLabels).
 *
 * Left out, because the two legitimately differ (testing/README.md, "Not compared"): the steps of the root stack
 * (`pulumi:pulumi:Stack`, whose outputs are compared as outputs) and of the default provider
 * (`pulumi:providers:pulumi-nodejs`, the engine's internal resource): the CLI also reports the provider's `same` step
 * and a refresh's steps for both, which the local engine does not, and the root stack's step of an update last where
 * the local engine reports it first.
 */
import { CommandResult, Diagnostic, StepRecord } from "../../testing";

/** What replaces ids in a text by labels that mean the same on both sides (differential-world.ts IdLabels). */
export interface Labels {
  text(value: string): string;
}

export interface View {
  /** Whether the command failed. */
  failed: boolean;
  steps: string[];
  warnings: string[];
  /** The error diagnostics (a failed Check's, a failed step's), ids replaced. */
  errors: string[];
  /** The other diagnostics: the lines the plugin printed that are not warnings, the engine's notes. */
  infos: string[];
  outputs: Record<string, unknown>;
  requests: { writes: string[]; reads: string[] };
  preview?: { steps: string[]; warnings: string[]; errors: string[]; infos: string[] };
}

/** A resource of the program (not the root stack nor a provider). */
export function isProgramResource(step: { type: string }): boolean {
  return step.type !== "pulumi:pulumi:Stack" && !step.type.startsWith("pulumi:providers:");
}

/** "name: op [diffs a,b] [keys c]" per step, grouped by resource (sorted by name), each resource's in order. */
export function stepLines(steps: readonly StepRecord[], labels: Labels): string[] {
  const byName = new Map<string, string[]>();
  for (const step of steps.filter(isProgramResource)) {
    const parts = [`${step.name}: ${step.op}`];
    if (step.diffs && step.diffs.length > 0) parts.push(`diffs ${[...step.diffs].sort().join(",")}`);
    if (step.keys && step.keys.length > 0) parts.push(`keys ${[...step.keys].sort().join(",")}`);
    if (step.found) parts.push(`found ${step.found}`);
    if (step.error) parts.push("failed");
    const lines = byName.get(step.name) ?? [];
    lines.push(labels.text(parts.join(" ")));
    byName.set(step.name, lines);
  }
  return [...byName.keys()].sort().flatMap((name) => byName.get(name) ?? []);
}

export function severity(diagnostics: readonly Diagnostic[], wanted: Diagnostic["severity"], labels: Labels): string[] {
  return diagnostics
    .filter((d) => d.severity === wanted)
    .map((d) => labels.text(d.message))
    .sort();
}

interface Logged {
  method: string;
  path: string;
}

/**
 * The requests, "METHOD path" with ids labelled: the writes (every method but GET) and the reads (each distinct GET
 * once: how often an operation is polled depends on timing). The writes are in the order they arrived when one
 * resource had steps that send any (a replacement's create and delete, whichever first); when several did, their
 * steps ran in parallel and their requests interleave as it happens, so the writes are sorted.
 */
export function requestLines(requests: readonly unknown[], steps: readonly StepRecord[], labels: Labels) {
  const logged = requests as Logged[];
  // An operation is polled as long as it runs: whether the provider reads the list or one operation, and how often,
  // depends on timing, so every read of operations is one line.
  const line = (r: Logged) => labels.text(`${r.method} ${r.path}`).replace(/(\/operations)\/\{op\}$/, "$1");
  const changing = new Set(steps.filter((s) => isProgramResource(s) && s.op !== "same").map((s) => s.name));
  const writes = logged.filter((r) => r.method !== "GET").map(line);
  return {
    writes: changing.size > 1 ? writes.sort() : writes,
    reads: [...new Set(logged.filter((r) => r.method === "GET").map(line))].sort(),
  };
}

export function viewOf(result: CommandResult, labels: Labels): View {
  return {
    failed: result.error !== undefined,
    steps: stepLines(result.steps, labels),
    warnings: severity(result.diagnostics, "warning", labels),
    errors: severity(result.diagnostics, "error", labels),
    infos: severity(result.diagnostics, "info", labels),
    outputs: JSON.parse(labels.text(JSON.stringify(result.outputs))) as Record<string, unknown>,
    requests: requestLines(result.requests, result.steps, labels),
    ...(result.preview
      ? {
          preview: {
            steps: stepLines(result.preview.steps, labels),
            warnings: severity(result.preview.diagnostics, "warning", labels),
            errors: severity(result.preview.diagnostics, "error", labels),
            infos: severity(result.preview.diagnostics, "info", labels),
          },
        }
      : {}),
  };
}

/**
 * The CLI's view with the differences testing/README.md ("Checked against the real CLI") documents as safe taken
 * out, where the model's view shows them:
 * - a failed command: registrations run concurrently in the real engine (each RegisterResource call is a goroutine of
 *   the resource monitor), so which of the resources the program registered beside the failing one reached the step
 *   generator before it bailed is a race; the model takes them in the order the SDK sent them. The CLI's steps must be
 *   the model's with some of the other resources' steps missing (the failing resource's are compared as they are).
 */
export function withoutDocumented(local: View, real: View, failing?: string): View {
  if (!local.failed || !real.failed) return real;
  const aligned = { ...real };
  const isFailing = (line: string) => line.startsWith(`${failing}: `);
  const others = (lines: string[]) => lines.filter((line) => !isFailing(line));
  if (isSubsequence(others(real.steps), others(local.steps))) {
    const name = (line: string) => line.slice(0, line.indexOf(": "));
    const merged = [...others(local.steps), ...real.steps.filter(isFailing)];
    aligned.steps = merged.sort((a, b) => (name(a) < name(b) ? -1 : name(a) > name(b) ? 1 : 0));
  }
  return aligned;
}

export function isSubsequence(part: string[], whole: string[]): boolean {
  let at = 0;
  for (const line of whole) if (at < part.length && part[at] === line) at++;
  return at === part.length;
}
