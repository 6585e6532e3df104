/**
 * `npm run example -- <name>`: one example of examples/ run without the Pulumi CLI, as `npm run demo` runs
 * primary-replica-key: its compiled program (dist/examples/<name>/index.js) through the local engine
 * (pulumi-neon-dynamic/testing: `LocalStack` with `moduleProgram`, a new plugin process per command, started in the
 * example's directory) against the emulator started here. The steps its README gives: `pulumi up`, the documented
 * change (`pulumi config set …`, then `pulumi preview --diff` with its warning, then `pulumi up`), a second `up` with
 * nothing to do, and `destroy`, with what the service received after each command.
 *
 * `--quiet` prints only each command's summary; colour only on a terminal, unless NO_COLOR. Exit 0 when every command
 * succeeded, 1 when one failed (its error printed), 2 for an unknown example. The emulator is closed in every case.
 */
import * as fs from "fs";
import * as path from "path";
import { Emulator, startEmulator } from "../emulator";
import { CommandResult, LocalStack, moduleProgram, StepRecord } from "../testing";
import { columnWidths, isShown, renderResult, renderStep } from "../testing/report";
import { useColor } from "./demo";
import { requestSummary } from "./demo-cli";

const REPO_ROOT = path.resolve(__dirname, "../..");

/** The organization that holds the emulator's project when an example takes `orgId`. */
export const EXAMPLE_ORG = "org-example-still-pond-20260101";

/** A config change an example's README documents: `pulumi config set <key> <value>`, and why. */
export interface DocumentedChange {
  key: string;
  /** The value, or how to compute it when the example runs (a date a week ahead, say). */
  value: string | number | (() => string);
  /** What it does, for the narration. */
  what: string;
  /** The value is the id of this branch of the emulator's project (`branchId`). */
  branch?: "staging";
}

export interface ExampleSteps {
  /** What the first `up` makes. */
  creates: string;
  /** The example takes `orgId`: the emulator's project is put into an organization. */
  organization?: boolean;
  /** The stack's name (default `example`): pr-preview names its branch after it. */
  stack?: string;
  /** The config the README sets besides the key, the URL and the project; default: `branchId`, the branch dev. */
  config?: DocumentedChange[];
  /** The example makes its own project: no `projectId` is set, and destroy deletes that project. */
  newProject?: boolean;
  changes: DocumentedChange[];
}

/** RFC 3339 to the second, `days` from now. */
function daysAhead(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().replace(/\.\d{3}Z$/, "Z");
}

/** Every example and the change its README documents. */
export const EXAMPLES: Record<string, ExampleSteps> = {
  autoscaling: {
    creates: "an autoscaling compute, 0.25 to 2 CU",
    changes: [{ key: "maxCu", value: 4, what: "the maximum size 2 -> 4 CU: the preview warns that it restarts" }],
  },
  "branch-move": {
    creates: "a primary compute on the branch dev",
    changes: [
      {
        key: "branchId",
        value: "<another branch id>",
        branch: "staging",
        what: "the compute moves to the branch staging with one PATCH: the preview warns that it restarts",
      },
    ],
  },
  "primary-replica-key": {
    creates: "a primary compute, a read replica and a CI API key limited to the project",
    organization: true,
    changes: [
      { key: "primaryMaxCu", value: 4, what: "the primary's maximum 2 -> 4 CU: the preview warns that it restarts" },
      {
        key: "ciKeyName",
        value: "ci-deploy-2",
        what: "a new key name rotates the key: the new one first, then the old revoked",
      },
    ],
  },
  "pr-preview": {
    creates: "the pull request's branch pr-42, a compute and a database on it, and its connection strings",
    stack: "pr-42",
    config: [
      { key: "expiresAt", value: () => daysAhead(7), what: "the branch expires a week ahead" },
      { key: "prUrl", value: "https://github.com/acme/app/pull/42", what: "kept in the branch's annotations" },
    ],
    changes: [
      {
        key: "expiresAt",
        value: () => daysAhead(8),
        what: "a later push moves the expiry: one PATCH of the branch, nothing restarts",
      },
    ],
  },
  "project-from-scratch": {
    creates:
      "a project, and the branches dev and staging of its default branch, each with a compute, a role and a database",
    newProject: true,
    config: [{ key: "deletionProtection", value: "false", what: "a trial project: pulumi destroy may delete it" }],
    changes: [
      { key: "devMaxCu", value: 2, what: "the dev compute's maximum 1 -> 2 CU: the preview warns that it restarts" },
    ],
  },
  "testing-your-program": {
    creates: "a primary compute, a read replica and a deploy key",
    changes: [{ key: "primaryCu", value: 2, what: "the primary's size 1 -> 2 CU: the preview warns that it restarts" }],
  },
};

export interface ExampleRunOptions {
  quiet: boolean;
  color: boolean;
  /** The terminal's width: a failed step's line is cut to it. */
  width: number;
  write: (text: string) => void;
}

/** The project name in the example's Pulumi.yaml (it appears in URNs, as under the CLI). */
function projectName(dir: string): string {
  const yaml = fs.readFileSync(path.join(dir, "Pulumi.yaml"), "utf8");
  const name = /^name:\s*(\S+)/m.exec(yaml)?.[1];
  if (!name) throw new Error(`${path.join(dir, "Pulumi.yaml")} names no project`);
  return name;
}

/** Runs the example `name` against `emulator` and tells its story through `options.write`. */
export async function runExample(name: string, emulator: Emulator, options: ExampleRunOptions): Promise<void> {
  const steps = EXAMPLES[name];
  const dir = path.join(REPO_ROOT, "examples", name);
  const program = path.join(REPO_ROOT, "dist", "examples", name, "index.js");
  if (!fs.existsSync(program)) throw new Error(`${program} is missing: run npm run build first`);
  const say = (line: string) => options.write(`example: ${line}\n`);
  const narrate = (line: string) => options.quiet || say(line);
  say(`${name} on the local engine and the emulator, without the Pulumi CLI`);
  say("(pulumi-neon-dynamic/testing: a model of the Pulumi engine's steps, not the Pulumi CLI)");

  const branch = emulator.branches.dev;
  const valueOf = (change: DocumentedChange) =>
    change.branch
      ? emulator.branches[change.branch]
      : typeof change.value === "function"
        ? change.value()
        : change.value;
  const config = steps.config ?? [{ key: "branchId", value: branch, what: "the branch dev" }];
  const configValues = config.map((entry) => ({ ...entry, value: valueOf(entry) }));
  let widths = { type: 12, name: 10 };
  const stack = new LocalStack({
    program: moduleProgram(program),
    project: projectName(dir),
    stack: steps.stack ?? "example",
    cwd: dir,
    requestLog: emulator,
    env: { ...process.env, NEON_API_KEY: "", NEON_API_HOST: "" },
    config: {
      "neon:apiKey": { secret: emulator.apiKey },
      "neon:apiUrl": emulator.baseUrl,
      ...(steps.newProject ? {} : { projectId: emulator.projectId }),
      ...Object.fromEntries(configValues.map((entry) => [entry.key, entry.value])),
      ...(steps.organization ? { orgId: EXAMPLE_ORG } : {}),
    },
    onStep: options.quiet ? undefined : (step, deployment) => progress(step, deployment.preview),
  });
  const progress = (step: StepRecord, preview: boolean) => {
    if (preview || !isShown(step)) return;
    options.write(`${renderStep(step, { widths, color: options.color, width: options.width })}\n`);
  };
  const command = async (line: string, run: () => Promise<CommandResult>, preview = false) => {
    narrate(line);
    const result = await run();
    if (preview) widths = columnWidths(result.steps.filter(isShown));
    options.write(`${renderResult(result, { ...options, noSteps: !preview && !options.quiet })}\n`);
    narrate(requestSummary(result.requests as { method: string; path: string }[]));
    if (result.error) throw result.error;
  };

  narrate("$ pulumi config set --secret neon:apiKey <the emulator's key>");
  narrate(`$ pulumi config set neon:apiUrl ${emulator.baseUrl}`);
  if (!steps.newProject) narrate(`$ pulumi config set projectId ${emulator.projectId}`);
  for (const entry of configValues) narrate(`$ pulumi config set ${entry.key} ${entry.value}   (${entry.what})`);
  if (steps.organization) narrate(`$ pulumi config set orgId ${EXAMPLE_ORG}`);
  await command("$ pulumi preview   (what up would do; nothing is sent to the service)", () => stack.preview(), true);
  await command(`$ pulumi up --yes --skip-preview   (${steps.creates})`, () => stack.up({ skipPreview: true }));
  for (const change of steps.changes) {
    const value = valueOf(change);
    narrate(`$ pulumi config set ${change.key} ${value}   (${change.what})`);
    stack.setConfig({ [change.key]: value });
    await command("$ pulumi preview --diff", () => stack.preview(), true);
    await command("$ pulumi up --yes --skip-preview", () => stack.up({ skipPreview: true }));
  }
  await command("$ pulumi up --yes   (again: nothing to do)", () => stack.up());
  await command("$ pulumi destroy --yes --skip-preview", () => stack.destroy({ skipPreview: true }));
}

function usage(): string {
  return [
    "usage: npm run example -- <name> [--quiet]",
    `examples: ${Object.keys(EXAMPLES).join(", ")}`,
    "Each runs through the local engine against the emulator (no Pulumi CLI, no Neon account): up, the change its",
    "README documents (the preview's warning, then the update), a second up with nothing to do, destroy.",
  ].join("\n");
}

/** Runs the example named in `argv`; resolves with the exit code. */
export async function main(argv: string[] = process.argv.slice(2)): Promise<number> {
  const names = argv.filter((arg) => !arg.startsWith("-"));
  if (argv.includes("--help") || argv.includes("-h")) {
    process.stdout.write(`${usage()}\n`);
    return 0;
  }
  if (names.length !== 1 || !(names[0] in EXAMPLES)) {
    process.stderr.write(`${names.length === 1 ? `no example named ${names[0]}\n` : ""}${usage()}\n`);
    return 2;
  }
  const [name] = names;
  const emulator = await startEmulator({
    operationDurationMs: 200,
    ...(EXAMPLES[name].organization ? { organization: EXAMPLE_ORG } : {}),
  });
  try {
    await runExample(name, emulator, {
      quiet: argv.includes("--quiet"),
      color: useColor(process.stdout),
      width: process.stdout.columns ?? 100,
      write: (text) => process.stdout.write(text),
    });
    process.stdout.write("example: done\n");
    return 0;
  } catch (error) {
    process.stdout.write(`example: failed: ${(error as Error).message}\n`);
    return 1;
  } finally {
    await emulator.close();
  }
}

if (require.main === module) {
  main().then((code) => (process.exitCode = code));
}
