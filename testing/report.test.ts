/**
 * renderResult as the Pulumi CLI displays a command: what gets a line and what is counted agree.
 *
 * Guards: the root stack and the default provider got step lines but no count ("Resources: 3 to create" under five
 * `+` lines), a provider update line appeared in a resize with nothing to explain it, a failed step was counted as
 * done, and a failed step's line carried its error uncut however wide the terminal.
 */
import { renderResult, renderStep } from "./report";
import { CommandResult } from "./stack";
import { StepRecord } from "./steps";

const STACK = "pulumi:pulumi:Stack";
const PROVIDER = "pulumi:providers:pulumi-nodejs";
const COMPUTE = "pulumi-nodejs:dynamic/neon:Compute";

function step(op: StepRecord["op"], type: string, name: string, extra: Partial<StepRecord> = {}): StepRecord {
  return { op, type, name, urn: `urn:pulumi:dev::project::${type}::${name}`, ...extra };
}

function result(command: CommandResult["command"], steps: StepRecord[], extra: Partial<CommandResult> = {}) {
  return { command, steps, diagnostics: [], warnings: [], outputs: {}, interrupted: false, requests: [], ...extra };
}

const lines = (text: string) => text.split("\n");

describe("renderResult shows and counts steps as the Pulumi CLI does", () => {
  it("a first up: the stack is a resource (a line and a count), the default provider is neither", () => {
    const text = renderResult(
      result("up", [
        step("create", STACK, "project-dev"),
        step("create", PROVIDER, "default"),
        step("create", COMPUTE, "primary"),
        step("create", COMPUTE, "replica"),
      ]),
    );
    expect(lines(text).filter((line) => line.startsWith(" + "))).toHaveLength(3);
    expect(text).not.toContain("pulumi:providers");
    expect(lines(text).at(-1)).toBe("Resources: 3 created (up: done)");
  });

  it("a resize: the provider's update (the stack config changed) is internal, not shown; the rest unchanged", () => {
    const text = renderResult(
      result("preview", [
        step("same", STACK, "project-dev"),
        step("update", PROVIDER, "default", { diffs: [] }),
        step("update", COMPUTE, "primary", { diffs: ["autoscalingLimitMaxCu"] }),
        step("same", COMPUTE, "replica"),
      ]),
    );
    expect(lines(text).filter((line) => line.startsWith(" ~ "))).toEqual([
      " ~ neon:Compute         primary      update [diff: autoscalingLimitMaxCu]",
    ]);
    expect(lines(text).at(-1)).toBe("Resources: 1 to update, 2 unchanged (preview: done)");
  });

  it("a replacement counts once, and dropping a pending replacement is internal", () => {
    const text = renderResult(
      result("up", [
        step("same", STACK, "project-dev"),
        step("create-replacement", COMPUTE, "db", { keys: ["type"] }),
        step("replace", COMPUTE, "db", { keys: ["type"] }),
        step("delete-replaced", COMPUTE, "db"),
        step("remove-pending-replace", COMPUTE, "old"),
      ]),
    );
    expect(text).not.toContain("drop pending replace");
    expect(lines(text).at(-1)).toBe("Resources: 1 replaced, 1 unchanged (up: done)");
  });

  it("a failed step: its line cut to the width with the error's first line, the whole error once, counted errored", () => {
    const error = `HTTP 400: ${"x".repeat(150)}\nthe second line of the error`;
    const failed = step("update", COMPUTE, "primary", { diffs: ["autoscalingLimitMaxCu"], error });
    const text = renderResult(
      result("up", [step("same", STACK, "project-dev"), failed], {
        diagnostics: [{ severity: "error", message: error, urn: failed.urn }],
        error: new Error(error),
      }),
      { width: 100 },
    );
    const line = lines(text).find((l) => l.startsWith(" ~ "));
    expect(line).toHaveLength(100);
    expect(line).toMatch(/update \[diff: autoscalingLimitMaxCu\] failed: HTTP 400: x+…$/);
    expect(text.split("the second line of the error")).toHaveLength(2);
    expect(text).toContain(`Diagnostics:\n  neon:Compute (primary):\n    error: HTTP 400: ${"x".repeat(150)}\n`);
    expect(lines(text).at(-1)).toBe("Resources: 1 unchanged, 1 errored (up: failed)");
  });

  it("a step line is not cut without a width, and a short error is not cut at all", () => {
    const failed = step("create", COMPUTE, "db", { error: "boom" });
    expect(renderStep(failed, { width: 100 })).toBe(" + neon:Compute  db  create failed: boom");
    expect(renderStep({ ...failed, error: "y".repeat(300) })).toHaveLength(
      " + neon:Compute  db  create failed: ".length + 300,
    );
  });
  it("a finished step's line says what was done (created, updated, deleted original), as the CLI's progress does", () => {
    expect(renderStep(step("create", COMPUTE, "db"), { done: true })).toBe(" + neon:Compute  db  created");
    expect(renderStep(step("update", COMPUTE, "db"), { done: true })).toBe(" ~ neon:Compute  db  updated");
    expect(renderStep(step("delete-replaced", COMPUTE, "db"), { done: true })).toBe(
      "-- neon:Compute  db  deleted original",
    );
    expect(renderStep(step("same", COMPUTE, "db"), { done: true })).toBe("   neon:Compute  db  same");
    // A failed step was not done: its line keeps the plan's verb and the error.
    expect(renderStep(step("create", COMPUTE, "db", { error: "boom" }), { done: true })).toBe(
      " + neon:Compute  db  create failed: boom",
    );
  });
});
