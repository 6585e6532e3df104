/**
 * The demo without the Pulumi CLI: the example primary-replica-key through the local engine (pulumi-neon-dynamic/testing), which drives
 * the real dynamic-provider plugin as the Pulumi engine does, against the local emulator. The whole story of a
 * stack: the plan, the `up` with progress, the outputs (the key hidden), a resize (the preview warns that the compute
 * restarts; the update is one PATCH), a second `up` that changes nothing, and `destroy`.
 */
import * as path from "path";
import { Emulator } from "../emulator";
import { CommandResult, LocalStack, moduleProgram, StepRecord } from "../testing";
import { columnWidths, isShown, renderResult, renderStep } from "../testing/report";
import { DEMO_ORG, demoBranch, requestSummary } from "./demo-cli";

const REPO_ROOT = path.resolve(__dirname, "../..");
const EXAMPLE = "primary-replica-key";

export interface LocalDemoOptions {
  quiet: boolean;
  color: boolean;
  /** The terminal's width: a failed step's line is cut to it. */
  width: number;
  /** Why the local engine runs: "--local", or "no Pulumi CLI found". */
  why: string;
}

export async function runLocally(emulator: Emulator, options: LocalDemoOptions): Promise<void> {
  // Two lines that fit a terminal of 100 columns (the emulator's address varies in length: it is not among them).
  say(`${options.why}: the example ${EXAMPLE} on the local engine and the emulator`);
  say("(pulumi-neon-dynamic/testing: a model of the Pulumi engine's steps, not the Pulumi CLI)");
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
    onStep: options.quiet ? undefined : (step, deployment) => progress(step, deployment, widths, options),
  });
  // Progress lines are aligned like the plan before them (the last preview's steps).
  let widths = { type: 12, name: 10 };
  const narrate = (line: string) => options.quiet || say(line);
  const show = (result: CommandResult) => {
    widths = columnWidths(result.steps.filter(isShown));
    report(result, options, false);
  };
  const showAfterProgress = (result: CommandResult) => report(result, options, true);

  const command = async (line: string, run: () => Promise<CommandResult>, afterProgress: boolean) => {
    narrate(line);
    const result = await run();
    if (afterProgress) showAfterProgress(result);
    else show(result);
    narrate(requestSummary(result.requests as { method: string; path: string }[]));
  };

  await command("$ pulumi preview   (what up would do; nothing is sent to the service)", () => stack.preview(), false);
  await command(
    "$ pulumi up --yes --skip-preview   (a primary compute, a read replica and a CI API key limited to the project)",
    () => stack.up({ skipPreview: true }),
    true,
  );
  narrate("$ pulumi config set primaryMaxCu 4   (the program resizes the primary: max 2 -> 4 CU)");
  stack.setConfig({ primaryMaxCu: 4 });
  await command(
    "$ pulumi preview --diff   (the preview warns that the primary restarts)",
    () => stack.preview(),
    false,
  );
  await command("$ pulumi up --yes --skip-preview", () => stack.up({ skipPreview: true }), true);
  await command("$ pulumi up --yes   (again: nothing to do)", () => stack.up(), true);
  await command("$ pulumi destroy --yes --skip-preview", () => stack.destroy({ skipPreview: true }), true);
}

function report(result: CommandResult, options: LocalDemoOptions, afterProgress: boolean): void {
  process.stdout.write(`${renderResult(result, { ...options, noSteps: afterProgress })}\n`);
  if (result.error) throw result.error;
}

/** Progress: each step of an update as it finishes (the previews print their plan once, at the end). */
function progress(
  step: StepRecord,
  deployment: { preview: boolean },
  widths: { type: number; name: number },
  options: LocalDemoOptions,
): void {
  if (deployment.preview || !isShown(step)) return;
  process.stdout.write(`${renderStep(step, { widths, color: options.color, width: options.width, done: true })}\n`);
}

function say(line: string): void {
  process.stdout.write(`demo: ${line}\n`);
}
