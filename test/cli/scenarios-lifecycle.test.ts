/**
 * Scenarios whose outcome the engine decides, through the real Pulumi CLI (`CliStack`, Automation API, inline
 * program) and, for comparison, through the model of the engine (`LocalStack`), each against the emulator:
 *
 * - `protect: true`: destroy is refused naming the resource, the compute stays; unprotected, destroy deletes it;
 * - `retainOnDelete: true`: destroy drops the compute from state without deleting it on the service;
 * - `adoptId`: an existing compute made directly on the service is adopted, not duplicated; removing adoptId is an
 *   update that sends nothing, after which destroy deletes it; a destroy while adoptId is kept leaves it and warns.
 *
 * After every successful `up`, the no-change check: a preview with only `same` steps and no request to the service,
 * and a refresh that finds no change.
 */
import * as path from "path";
import { Emulator, startEmulator } from "../../emulator";
import { Compute, ComputeArgs } from "../../provider";
import { NeonClient } from "../../client";
import { CommandResult, LocalStack, Program, renderResult } from "../../testing";
import { CliStack, CliStackOptions } from "../../testing/cli-stack";
import { cliRootOrThrow } from "./cli-world";

const REPO_ROOT = path.resolve(__dirname, "../../..");
const COMPUTE = "pulumi-nodejs:dynamic/neon:Compute";
const ENGINES = ["cli", "model"] as const;
type Engine = (typeof ENGINES)[number];

/** What both stacks offer (LocalStack answers synchronously where CliStack asks the CLI). */
interface AnyStack {
  preview(): Promise<CommandResult>;
  up(): Promise<CommandResult>;
  refresh(options?: { skipPreview?: boolean }): Promise<CommandResult>;
  destroy(options?: { skipPreview?: boolean }): Promise<CommandResult>;
  exportState(): string | Promise<string>;
  outputs(options?: { showSecrets?: boolean }): Record<string, unknown> | Promise<Record<string, unknown>>;
}

interface Logged {
  method: string;
  path: string;
  status: number;
}

let emulator: Emulator;
let api: NeonClient;
let cliRoot: string;

beforeAll(async () => {
  cliRoot = cliRootOrThrow();
  emulator = await startEmulator({ operationDurationMs: 20, rateLimit: false });
  api = new NeonClient({ apiKey: emulator.apiKey, apiUrl: emulator.baseUrl, rateLimit: false });
});
afterAll(() => emulator?.close());

/** A CliStack that keeps what the CLI printed (stdout, through `onOutput`) in each of its runs. */
class TranscribedCliStack extends CliStack {
  readonly printed: string[] = [];

  constructor(options: CliStackOptions) {
    super(options);
    const self = this as unknown as { run: (...args: unknown[]) => Promise<{ output: string }> };
    const run = self.run.bind(this);
    self.run = async (...args: unknown[]) => {
      const result = await run(...args);
      this.printed.push(result.output);
      return result;
    };
  }
}

/** What the last command printed: the CLI's own output, or the model's rendering of its result. */
function printedBy(stack: AnyStack, result: CommandResult): string {
  if (stack instanceof TranscribedCliStack) return stack.printed[stack.printed.length - 1] ?? "";
  return renderResult(result, { color: false });
}

/** A stack of `engine` running `program` against the emulator; `dispose` removes the CLI's directory. */
function stackOf(engine: Engine, program: Program, stack: string): { stack: AnyStack; dispose(): Promise<void> } {
  const options = {
    program,
    cwd: REPO_ROOT,
    stack,
    requestLog: emulator,
    env: { ...process.env, NEON_API_KEY: "", NEON_API_HOST: "" },
    config: { "neon:apiKey": { secret: emulator.apiKey }, "neon:apiUrl": emulator.baseUrl },
  };
  if (engine === "model")
    return { stack: new LocalStack({ ...options, engine: "model" }), dispose: async () => undefined };
  const cli = new TranscribedCliStack({ ...options, cliRoot });
  return { stack: cli, dispose: () => cli.dispose() };
}

/** Throws the command's error, so a test fails with the CLI's (or the provider's) message. */
function ok(result: CommandResult): CommandResult {
  if (result.error) throw result.error;
  return result;
}

/** "op name" of the Compute steps, sorted. */
const ops = (result: { steps: { op: string; name: string; type: string }[] }) =>
  result.steps
    .filter((s) => s.type === COMPUTE)
    .map((s) => `${s.op} ${s.name}`)
    .sort();

/** "METHOD /path" of the writes (everything but GET) a command sent. */
const writes = (result: CommandResult) =>
  (result.requests as Logged[]).filter((r) => r.method !== "GET").map((r) => `${r.method} ${r.path}`);

/** The warnings of an `up`'s preview and of the update itself. */
const warningsOf = (result: CommandResult) =>
  [...(result.preview?.diagnostics ?? []).filter((d) => d.severity === "warning"), ...result.diagnostics]
    .filter((d) => d.severity === "warning")
    .map((d) => d.message)
    .join("\n");

/** The resources of a stack's state (as `pulumi stack export` has them) of the given type. */
async function stateOf(stack: AnyStack, type = COMPUTE) {
  const deployment = JSON.parse(await stack.exportState()) as {
    resources?: { urn: string; type: string; id?: string; outputs?: Record<string, unknown> }[];
  };
  return (deployment.resources ?? []).filter((r) => r.type === type);
}

/**
 * The no-change check after a successful `up`: a preview of only `same` steps that sends nothing, and a refresh
 * (`--skip-preview`: one CLI run, not two, on this slow machine) that finds every resource as it was (a refresh step is op `refresh` with what it `found`; read from the CLI's events,
 * the outcome may also come as the op itself).
 */
async function expectNoChange(stack: AnyStack): Promise<CommandResult> {
  const preview = ok(await stack.preview());
  expect(preview.steps.filter((s) => s.op !== "same")).toEqual([]);
  expect(preview.requests).toEqual([]);
  const refresh = ok(await stack.refresh({ skipPreview: true }));
  const outcome = refresh.steps.map((s) => `${s.op === "refresh" ? s.found : s.op} ${s.name}`);
  expect(outcome.filter((o) => !o.startsWith("same "))).toEqual([]);
  expect(writes(refresh)).toEqual([]);
  return preview;
}

/** A message with its line breaks and the CLI's indentation folded into single spaces. */
const oneLine = (text: string | undefined) => (text ?? "").replace(/\s+/g, " ");

const exists = async (id: string) => (await api.endpoints.list(emulator.projectId)).some((c) => c.id === id);

describe.each(ENGINES)("through the %s", (engine) => {
  it("protect: destroy is refused naming the resource and the compute stays; unprotected, destroy deletes it", async () => {
    const declared = { protect: true };
    const { stack, dispose } = stackOf(
      engine,
      () => ({
        id: new Compute(
          "db",
          { projectId: emulator.projectId, branchId: emulator.branches.staging, type: "read_only" },
          { protect: declared.protect },
        ).id,
      }),
      `protect-${engine}`,
    );
    try {
      const up = ok(await stack.up());
      expect(ops(up)).toEqual(["create db"]);
      const id = String((await stack.outputs()).id);
      await expectNoChange(stack);

      const refused = await stack.destroy();
      const urn = `urn:pulumi:protect-${engine}::project::${COMPUTE}::db`;
      const message = oneLine(refused.error?.message);
      const refusal =
        `resource "${urn}" cannot be deleted because it is protected. To unprotect the resource, either remove the ` +
        "`protect` flag from the resource in your Pulumi program and run `pulumi up`, or use the command: " +
        `\`pulumi state unprotect '${urn}'\``;
      expect(message).toContain(refusal);
      const errors = refused.diagnostics.filter((d) => d.severity === "error").map((d) => oneLine(d.message));
      // Both fail the destroy's preview, with the engine's refusal and "preview failed"; the CLI's diagnostic puts
      // "Preview failed: " before the refusal (its step executor's preview error), the model's does not.
      const errorText = errors.join(" ");
      if (engine === "cli") expect(errorText).toContain(`Preview failed: ${refusal}`);
      else expect(errorText).not.toContain("Preview failed");
      expect(errorText).toContain(refusal);
      expect(errors).toContain("preview failed");
      expect(ops(refused)).toEqual(["delete db"]);
      // Both stop at the destroy's preview: no step ran, nothing was sent.
      expect(refused.requests).toEqual([]);
      expect(await exists(id)).toBe(true);
      expect((await stateOf(stack)).map((r) => r.id)).toEqual([id]);

      declared.protect = false;
      const unprotected = ok(await stack.up());
      expect(ops(unprotected)).toEqual(["same db"]);
      expect(unprotected.requests).toEqual([]);
      await expectNoChange(stack);

      const destroyed = ok(await stack.destroy({ skipPreview: true }));
      expect(ops(destroyed)).toEqual(["delete db"]);
      expect(writes(destroyed)).toEqual([`DELETE /projects/${emulator.projectId}/endpoints/${id}`]);
      expect(await exists(id)).toBe(false);
      expect(await stateOf(stack)).toEqual([]);
    } finally {
      await dispose();
    }
  });

  it("retainOnDelete: destroy drops the compute from state without a request, and it stays on the service", async () => {
    const { stack, dispose } = stackOf(
      engine,
      () => ({
        id: new Compute(
          "kept",
          { projectId: emulator.projectId, branchId: emulator.branches.staging, type: "read_only" },
          { retainOnDelete: true },
        ).id,
      }),
      `retain-${engine}`,
    );
    let id = "";
    try {
      ok(await stack.up());
      id = String((await stack.outputs()).id);
      await expectNoChange(stack);

      const destroyed = ok(await stack.destroy());
      // The engine never calls the provider's Delete: no request, no message from the provider or the engine.
      expect(ops(destroyed)).toEqual(["delete kept"]);
      expect(destroyed.requests).toEqual([]);
      expect(destroyed.warnings).toEqual([]);
      // The CLI's display marks the step "[retain]" (display/rows.go addRetainStatusFlag); the model's rendering does not.
      if (engine === "cli")
        expect(printedBy(stack, destroyed)).toMatch(/- +pulumi-nodejs:dynamic\/neon:Compute kept deleted.*\[retain\]/);
      else expect(printedBy(stack, destroyed)).not.toContain("[retain]");
      expect(await exists(id)).toBe(true);
      expect(await stateOf(stack)).toEqual([]);
    } finally {
      if (id) await api.endpoints.delete(emulator.projectId, id);
      await dispose();
    }
  });

  it("adoptId: an existing compute is adopted (one PATCH, no create); removing adoptId sends nothing; destroy deletes it", async () => {
    const branch = emulator.branches.dev;
    const { endpoint } = await api.endpoints.create(emulator.projectId, {
      endpoint: { branch_id: branch, type: "read_only", name: `legacy-${engine}` },
    });
    const declared: { args: Partial<ComputeArgs> } = {
      args: { type: "read_only", name: `legacy-${engine}`, suspendTimeoutSeconds: 600, adoptId: endpoint.id },
    };
    const { stack, dispose } = stackOf(
      engine,
      () => ({ id: new Compute("reader", { projectId: emulator.projectId, branchId: branch, ...declared.args }).id }),
      `adopt-${engine}`,
    );
    try {
      const adopted = ok(await stack.up());
      expect(ops(adopted)).toEqual(["create reader"]);
      expect(writes(adopted)).toEqual([`PATCH /projects/${emulator.projectId}/endpoints/${endpoint.id}`]);
      expect((await stack.outputs()).id).toBe(endpoint.id);
      expect((await api.endpoints.listForBranch(emulator.projectId, branch)).map((c) => c.id)).toEqual([endpoint.id]);
      expect((await api.endpoints.get(emulator.projectId, endpoint.id)).suspend_timeout_seconds).toBe(600);
      const kept = await expectNoChange(stack);
      expect(kept.warnings).toEqual([]); // adoptId kept: nothing changes, nothing is said

      // README: remove adoptId in an up of its own; that up records the removal and sends no request.
      delete declared.args.adoptId;
      const released = ok(await stack.up());
      expect(ops(released)).toEqual(["update reader"]);
      expect(released.requests).toEqual([]);
      expect((await stateOf(stack))[0].outputs?.adoptId).toBeUndefined();
      await expectNoChange(stack);

      const destroyed = ok(await stack.destroy({ skipPreview: true }));
      expect(writes(destroyed)).toEqual([`DELETE /projects/${emulator.projectId}/endpoints/${endpoint.id}`]);
      expect(await exists(endpoint.id)).toBe(false);
    } finally {
      await dispose();
      if (await exists(endpoint.id)) await api.endpoints.delete(emulator.projectId, endpoint.id);
    }
  });

  it("adoptId kept in the program: destroy leaves the adopted compute on the service and says how to delete it", async () => {
    const branch = emulator.branches.dev;
    const { endpoint } = await api.endpoints.create(emulator.projectId, {
      endpoint: { branch_id: branch, type: "read_only", name: `legacy-kept-${engine}` },
    });
    const { stack, dispose } = stackOf(
      engine,
      () => ({
        id: new Compute("reader", {
          projectId: emulator.projectId,
          branchId: branch,
          type: "read_only",
          name: `legacy-kept-${engine}`,
          adoptId: endpoint.id,
        }).id,
      }),
      `adopt-kept-${engine}`,
    );
    try {
      const adopted = ok(await stack.up());
      expect(writes(adopted)).toEqual([]); // nothing differs: adopted as it is
      expect((await stack.outputs()).id).toBe(endpoint.id);
      await expectNoChange(stack);

      const destroyed = ok(await stack.destroy());
      expect(destroyed.requests).toEqual([]);
      expect(warningsOf(destroyed)).toMatch(
        new RegExp(
          `Compute "reader" \\(${endpoint.id}\\) was not deleted: .* is no longer managed: it goes when its project is deleted .*; to delete it before, delete it in the Neon console`,
        ),
      );
      expect(await stateOf(stack)).toEqual([]);
      expect(await exists(endpoint.id)).toBe(true);
    } finally {
      await dispose();
      if (await exists(endpoint.id)) await api.endpoints.delete(emulator.projectId, endpoint.id);
    }
  });
});
