/**
 * The demo without the Pulumi CLI: the examples through the local engine (pulumi-neon-dynamic/testing), which drives
 * the real dynamic-provider plugin as the Pulumi engine does, against the local emulator. First the whole story of a
 * stack of primary-replica-key: the plan, the `up` with progress, the outputs (the key hidden), a resize (the preview
 * warns that the compute restarts; the update is one PATCH), a second `up` that changes nothing, and `destroy`. Then
 * a preview branch with its DATABASE_URL (demo-branch.ts): pr-preview as the stack pr-42, its plan, `up`, the
 * connection string with the password hidden, an `up` with nothing to do, and `destroy`.
 */
import * as path from "path";
import { Emulator } from "../emulator";
import { CommandResult, LocalStack, moduleProgram, StepRecord } from "../testing";
import { columnWidths, isShown, renderResult, renderStep } from "../testing/report";
import {
  BRANCH_EXAMPLE,
  BRANCH_LINES,
  BRANCH_STACK,
  branchGone,
  maskPassword,
  PR_URL,
  secondUpNote,
  weekAhead,
} from "./demo-branch";
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
  await primaryReplicaKey(emulator, options);
  await previewBranch(emulator, options);
}

/** The commands of a chapter: each narrated, its result shown, then what the service received. */
function commands(options: LocalDemoOptions) {
  // Progress lines are aligned like the plan before them (the last preview's steps).
  let widths = { type: 12, name: 10 };
  const narrate = (line: string) => options.quiet || say(line);
  const command = async (line: string, run: () => Promise<CommandResult>, afterProgress: boolean) => {
    narrate(line);
    const result = await run();
    if (!afterProgress) widths = columnWidths(result.steps.filter(isShown));
    report(result, options, afterProgress);
    narrate(requestSummary(result.requests as { method: string; path: string }[]));
    return result;
  };
  const onStep = options.quiet
    ? undefined
    : (step: StepRecord, deployment: { preview: boolean }) => progress(step, deployment, widths, options);
  return { narrate, command, onStep };
}

/** The first chapter: primary-replica-key's stack from its plan to its destroy. */
async function primaryReplicaKey(emulator: Emulator, options: LocalDemoOptions): Promise<void> {
  const { narrate, command, onStep } = commands(options);
  const stack = new LocalStack({
    engine: "model",
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
    onStep,
  });
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

/**
 * The second chapter: a preview branch with its DATABASE_URL (demo-branch.ts). The connection string is read with
 * its secrets shown and printed with its password hidden; the password itself is never printed.
 */
async function previewBranch(emulator: Emulator, options: LocalDemoOptions): Promise<void> {
  const { narrate, command, onStep } = commands(options);
  const expiresAt = weekAhead();
  const stack = new LocalStack({
    engine: "model",
    program: moduleProgram(path.join(REPO_ROOT, "dist", "examples", BRANCH_EXAMPLE, "index.js")),
    project: "neon-pr-preview",
    stack: BRANCH_STACK,
    cwd: path.join(REPO_ROOT, "examples", BRANCH_EXAMPLE),
    requestLog: emulator,
    env: { ...process.env, NEON_API_KEY: "", NEON_API_HOST: "" },
    config: {
      "neon:apiKey": { secret: emulator.apiKey },
      "neon:apiUrl": emulator.baseUrl,
      projectId: emulator.projectId,
      expiresAt,
      prUrl: PR_URL,
    },
    onStep,
  });
  narrate(BRANCH_LINES.intro);
  narrate(`$ pulumi config set expiresAt ${expiresAt}   (${BRANCH_LINES.expiresAt})`);
  narrate(`$ pulumi config set prUrl ${PR_URL}   (${BRANCH_LINES.prUrl})`);
  await command(`$ pulumi preview   (${BRANCH_LINES.preview})`, () => stack.preview(), false);
  await command(`$ pulumi up --yes --skip-preview   (${BRANCH_LINES.up})`, () => stack.up({ skipPreview: true }), true);
  narrate(`$ pulumi stack output databaseUrl --show-secrets   (${BRANCH_LINES.output})`);
  const url = maskPassword(stack.outputs({ showSecrets: true }).databaseUrl);
  narrate(`DATABASE_URL=${url}`);
  const again = await command(
    `$ pulumi up --yes --skip-preview   (${BRANCH_LINES.again})`,
    () => stack.up({ skipPreview: true }),
    true,
  );
  const note = secondUpNote(again.requests as { method: string; path: string }[]);
  if (note) narrate(note);
  await command(
    `$ pulumi destroy --yes --skip-preview   (${BRANCH_LINES.destroy})`,
    () => stack.destroy({ skipPreview: true }),
    true,
  );
  const gone = await branchGone(emulator);
  narrate(gone);
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
