/**
 * Testing a Pulumi program for Neon offline, in CI, without a Neon account or the Pulumi CLI: the program runs
 * through the local engine of pulumi-neon-dynamic/testing (the real provider plugin, driven as `pulumi up` drives
 * it) against the local emulator of Neon's API. Each test says what a change of the program will do.
 */
import { Emulator, startEmulator } from "pulumi-neon-dynamic/emulator";
import { CommandResult, LocalStack } from "pulumi-neon-dynamic/testing";
import { database, DatabaseArgs } from "./database";

jest.setTimeout(300_000); // every command starts the provider's plugin: seconds a test, minutes on a loaded CI machine

let emulator: Emulator;
let args: DatabaseArgs;
let stack: LocalStack;

beforeAll(async () => {
  emulator = await startEmulator({ operationDurationMs: 20 }); // a local Neon API, on a free port
  args = { projectId: emulator.projectId, branchId: emulator.branches.dev, primaryCu: 1 };
  stack = new LocalStack({
    program: () => database(args),
    config: { "neon:apiKey": { secret: emulator.apiKey }, "neon:apiUrl": emulator.baseUrl },
    cwd: __dirname,
    requestLog: emulator,
  });
  await ok(stack.up());
});

afterAll(async () => {
  await stack.destroy();
  await emulator.close();
});

/** A command's result, once it is known to have succeeded: a failed command resolves with `error`, it does not throw. */
async function ok(command: Promise<CommandResult>): Promise<CommandResult> {
  const result = await command;
  if (result.error) throw result.error;
  return result;
}

/** "op name" of the program's resources in a result. */
const plan = (result: CommandResult) =>
  result.steps.filter((s) => !s.type.startsWith("pulumi:")).map((s) => `${s.op} ${s.name}`);
/** The requests that changed something. */
const writes = (result: CommandResult) =>
  (result.requests as { method: string; path: string }[]).filter((r) => r.method !== "GET");

test("a second up changes nothing and sends no request", async () => {
  const up = await ok(stack.up());
  expect(plan(up)).toEqual(expect.arrayContaining(["same primary", "same replica", "same deploy"]));
  expect(up.requests).toEqual([]);
});

test("a size change is an update that restarts the primary: the preview says so", async () => {
  args = { ...args, primaryCu: 2 };
  const preview = await ok(stack.preview());
  expect(plan(preview)).toContain("update primary");
  expect(preview.warnings.join("\n")).toMatch(/Compute "primary" .* will restart/);
  const up = await ok(stack.up());
  expect(writes(up).map((r) => r.method)).toEqual(["PATCH"]);
});

test("moving the replica to another branch is one PATCH", async () => {
  args = { ...args, replicaBranchId: emulator.branches.staging };
  const up = await ok(stack.up());
  expect(plan(up)).toContain("update replica");
  expect(writes(up).map((r) => r.method)).toEqual(["PATCH"]);
});

test("changing the replica's type replaces it: the old compute deleted first, then the new one made", async () => {
  args = { ...args, replicaType: "read_write" };
  const preview = await ok(stack.preview());
  expect(plan(preview)).toContain("replace replica");
  const up = await ok(stack.up());
  expect(writes(up).map((r) => r.method)).toEqual(["DELETE", "POST"]);
});

test("the deploy key stays a secret in the outputs and in the state", async () => {
  const key = stack.outputs({ showSecrets: true }).deployKey as string;
  expect(stack.outputs().deployKey).toBe("[secret]");
  expect(stack.exportState()).not.toContain(key);
});
