/**
 * Twenty read replicas in one project, created and destroyed by the real Pulumi CLI with `--parallel 10` (CliStack,
 * Automation API), against the emulator with its default operation duration (1 s per phase) and the service's rate
 * limits on; then the same program through the model of the engine (`LocalStack`), for comparison.
 *
 * The engine runs up to ten creates (and deletes) at once; the provider serializes a project's changes with a
 * project lock (each sent after the project's earlier operations finished), so the service never answers 423
 * Locked. After the `up`, the no-change check: a preview of only `same` steps that sends nothing, and a refresh that
 * finds nothing changed. Wall times are printed.
 */
import * as path from "path";
import { Emulator, startEmulator } from "../../emulator";
import { Compute } from "../../provider";
import { NeonClient } from "../../client";
import { CommandResult, LocalStack, Program } from "../../testing";
import { CliStack } from "../../testing/cli-stack";
import { cliRootOrThrow } from "./cli-world";

const REPO_ROOT = path.resolve(__dirname, "../../..");
const COMPUTE = "pulumi-nodejs:dynamic/neon:Compute";
const COUNT = 20;
const PARALLEL = 10;

let emulator: Emulator;
let api: NeonClient;
let cliRoot: string;

beforeAll(async () => {
  cliRoot = cliRootOrThrow();
  // The emulator's defaults: operations of 1 s per phase, the service's rate limits (700/min, 40/s per route).
  emulator = await startEmulator();
  api = new NeonClient({ apiKey: emulator.apiKey, apiUrl: emulator.baseUrl, rateLimit: false });
});
afterAll(() => emulator?.close());

interface Logged {
  method: string;
  path: string;
  status: number;
}

interface AnyStack {
  preview(): Promise<CommandResult>;
  up(): Promise<CommandResult>;
  refresh(): Promise<CommandResult>;
  destroy(): Promise<CommandResult>;
}

/** Twenty replicas r0..r19, spread over the branches dev and staging of the emulator's project. */
function replicas(): { program: Program; branches: string[] } {
  const branches = [emulator.branches.dev, emulator.branches.staging];
  const program: Program = () =>
    Object.fromEntries(
      Array.from({ length: COUNT }, (_, i) => [
        `r${i}`,
        new Compute(`r${i}`, { projectId: emulator.projectId, branchId: branches[i % 2], type: "read_only" }).id,
      ]),
    );
  return { program, branches };
}

function ok(result: CommandResult): CommandResult {
  if (result.error) throw result.error;
  return result;
}

const requests = (result: CommandResult) => result.requests as Logged[];
const statuses = (result: CommandResult, status: number) => requests(result).filter((r) => r.status === status);
const count = (result: CommandResult, method: string, suffix: RegExp) =>
  requests(result).filter((r) => r.method === method && suffix.test(r.path)).length;

async function computesOn(branches: string[]): Promise<string[]> {
  const all = await api.endpoints.list(emulator.projectId);
  return all.filter((c) => branches.includes(c.branch_id)).map((c) => c.id);
}

/** Times a command. */
async function timed(run: () => Promise<CommandResult>): Promise<{ result: CommandResult; seconds: number }> {
  const start = Date.now();
  const result = await run();
  return { result, seconds: (Date.now() - start) / 1000 };
}

/**
 * The scenario on either engine: up (all 20 created, no 423), the no-change check, destroy (all deleted, no 423).
 * Returns the wall times and the 429s the service answered (the client's own rate limit keeps under it).
 */
async function scenario(stack: AnyStack, branches: string[]) {
  const up = await timed(() => stack.up());
  ok(up.result);
  const created = up.result.steps.filter((s) => s.type === COMPUTE && s.op === "create");
  expect(created).toHaveLength(COUNT);
  expect(count(up.result, "POST", /\/endpoints$/)).toBe(COUNT);
  expect(statuses(up.result, 423)).toEqual([]);
  const ids = await computesOn(branches);
  expect(ids).toHaveLength(COUNT);

  const preview = ok(await stack.preview());
  expect(preview.steps.filter((s) => s.op !== "same")).toEqual([]);
  expect(preview.requests).toEqual([]);
  const refresh = ok(await stack.refresh());
  const outcomes = refresh.steps.filter((s) => s.type === COMPUTE).map((s) => (s.op === "refresh" ? s.found : s.op));
  expect(outcomes).toEqual(Array.from({ length: COUNT }, () => "same"));
  expect(requests(refresh).filter((r) => r.method !== "GET")).toEqual([]);
  expect(statuses(refresh, 423)).toEqual([]);

  const destroy = await timed(() => stack.destroy());
  ok(destroy.result);
  expect(destroy.result.steps.filter((s) => s.type === COMPUTE && s.op === "delete")).toHaveLength(COUNT);
  expect(count(destroy.result, "DELETE", /\/endpoints\/[^/]+$/)).toBe(COUNT);
  expect(statuses(destroy.result, 423)).toEqual([]);
  expect(await computesOn(branches)).toEqual([]);

  const all = [up.result, preview, refresh, destroy.result];
  return {
    up: up.seconds,
    destroy: destroy.seconds,
    requests: all.reduce((n, r) => n + r.requests.length, 0),
    tooMany: all.reduce((n, r) => n + statuses(r, 429).length, 0),
  };
}

describe(`${COUNT} replicas in one project, --parallel ${PARALLEL}`, () => {
  it("the real CLI: all created, then all deleted, without a single 423", async () => {
    const { program, branches } = replicas();
    const stack = new CliStack({
      program,
      cliRoot,
      cwd: REPO_ROOT,
      stack: "parallel-cli",
      parallel: PARALLEL,
      requestLog: emulator,
      env: { ...process.env, NEON_API_KEY: "", NEON_API_HOST: "" },
      config: { "neon:apiKey": { secret: emulator.apiKey }, "neon:apiUrl": emulator.baseUrl },
    });
    try {
      const measured = await scenario(stack, branches);
      console.log(
        `real CLI, ${COUNT} replicas, --parallel ${PARALLEL}: up ${measured.up.toFixed(1)} s (preview and update), ` +
          `destroy ${measured.destroy.toFixed(1)} s; ${measured.requests} requests, ${measured.tooMany} × 429, 0 × 423`,
      );
      expect(measured.tooMany).toBe(0);
    } finally {
      await stack.dispose();
    }
  });

  it("the model: the same", async () => {
    const { program, branches } = replicas();
    const stack = new LocalStack({
      engine: "model",
      program,
      cwd: REPO_ROOT,
      stack: "parallel-model",
      parallel: PARALLEL,
      requestLog: emulator,
      env: { ...process.env, NEON_API_KEY: "", NEON_API_HOST: "" },
      config: { "neon:apiKey": { secret: emulator.apiKey }, "neon:apiUrl": emulator.baseUrl },
    });
    const measured = await scenario(stack, branches);
    console.log(
      `model, ${COUNT} replicas, --parallel ${PARALLEL}: up ${measured.up.toFixed(1)} s (preview and update), ` +
        `destroy ${measured.destroy.toFixed(1)} s; ${measured.requests} requests, ${measured.tooMany} × 429, 0 × 423`,
    );
    expect(measured.tooMany).toBe(0);
  });
});
