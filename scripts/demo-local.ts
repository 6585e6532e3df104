/**
 * The demo without the Pulumi CLI: example (a) through the local engine (pulumi-neon-dynamic/testing), which drives
 * the real dynamic-provider plugin as the Pulumi engine does, against the local emulator. The whole story of a
 * stack: the plan, the `up` with progress, the outputs (the key hidden), a resize (the preview warns that the compute
 * restarts; the update is one PATCH), a second `up` that changes nothing, and `destroy`.
 */
import * as path from "path";
import { Emulator } from "../emulator";
import { CommandResult, LocalStack, moduleProgram, StepRecord } from "../testing";
import { renderResult, renderStep } from "../testing/report";
import { DEMO_ORG, demoBranch } from "./demo-cli";

const REPO_ROOT = path.resolve(__dirname, "../..");
const EXAMPLE = "primary-replica-key";

export interface LocalDemoOptions {
  quiet: boolean;
  color: boolean;
}

export async function runLocally(emulator: Emulator, options: LocalDemoOptions): Promise<void> {
  say(
    "no Pulumi CLI on PATH: running example (a) through the local engine (pulumi-neon-dynamic/testing, a model of " +
      `the Pulumi engine's steps, not the Pulumi CLI) against the local emulator at ${emulator.baseUrl}`,
  );
  const stack = new LocalStack({
    program: moduleProgram(path.join(REPO_ROOT, "dist", "examples", EXAMPLE, "index.js")),
    project: "neon-primary-replica-key",
    stack: "demo",
    cwd: path.join(REPO_ROOT, "examples", EXAMPLE),
    requestLog: emulator,
    env: { ...process.env, NEON_API_KEY: "", NEON_API_HOST: "" },
    config: {
      "neon:apiKey": { secret: emulator.apiKey },
      "neon:apiUrl": emulator.baseUrl,
      projectId: emulator.projectId,
      branchId: await demoBranch(emulator),
      orgId: DEMO_ORG,
    },
    onStep: options.quiet ? undefined : progressOf(options),
  });
  const narrate = (line: string) => options.quiet || say(line);
  const show = (result: CommandResult) => report(result, options, false);
  const showAfterProgress = (result: CommandResult) => report(result, options, true);

  narrate("$ pulumi preview   (what up would do; nothing is sent to the service)");
  show(await stack.preview());
  narrate("$ pulumi up");
  showAfterProgress(await stack.up({ skipPreview: true }));
  narrate("the program changes: primaryMaxCu 2 -> 4 (a resize of the primary)");
  stack.setConfig({ primaryMaxCu: 4 });
  narrate("$ pulumi preview");
  show(await stack.preview());
  narrate("$ pulumi up");
  const resize = await stack.up({ skipPreview: true });
  showAfterProgress(resize);
  narrate(`requests that changed something: ${writes(resize).join(", ") || "none"}`);
  narrate("$ pulumi up   (again: nothing to do)");
  const again = await stack.up();
  showAfterProgress(again);
  narrate(`requests: ${again.requests.length}`);
  narrate("$ pulumi destroy");
  showAfterProgress(await stack.destroy({ skipPreview: true }));
}

function report(result: CommandResult, options: LocalDemoOptions, afterProgress: boolean): void {
  process.stdout.write(`${renderResult(result, { ...options, noSteps: afterProgress })}\n`);
  if (result.error) throw result.error;
}

/** Progress: each step of an update as it finishes (the previews print their plan once, at the end). */
function progressOf(options: LocalDemoOptions) {
  return (step: StepRecord, deployment: { preview: boolean }) => {
    if (!deployment.preview && !step.type.startsWith("pulumi:")) {
      process.stdout.write(`${renderStep(step, { type: 12, name: 10 }, options.color)}\n`);
    }
  };
}

function writes(result: CommandResult): string[] {
  return (result.requests as { method: string; path: string }[])
    .filter((r) => r.method !== "GET")
    .map((r) => `${r.method} ${r.path}`);
}

function say(line: string): void {
  process.stdout.write(`demo: ${line}\n`);
}
