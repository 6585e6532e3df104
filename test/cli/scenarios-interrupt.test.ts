/**
 * A `pulumi up` killed (SIGKILL, the CLI's whole process group) after the service created a compute and before the
 * CLI recorded it, through the real Pulumi CLI, then what the next commands do, non-interactively; and the same
 * scenario through the model of the engine (`LocalStack.interrupt()`), for comparison.
 *
 * The CLI is spawned here on a small `Pulumi.yaml` program (a plain `index.js`) written into a directory inside the
 * repository (so that `pulumi-neon-dynamic` and `@pulumi/pulumi` resolve through its node_modules), with a file
 * backend and PULUMI_HOME of its own: the Automation API can only interrupt with SIGINT.
 *
 * What the real CLI (v3.248.0) does, as asserted below:
 * - The killed CLI leaves its stack lock: the next `up` refuses to start ("the stack is currently locked by 1
 *   lock(s) … delete the lock file with `pulumi cancel`") and sends nothing. The plugins it started (the dynamic
 *   provider, the language host) have process groups of their own and outlive it.
 * - After `pulumi cancel`, the next `up` warns of the pending create ("interrupted while creating", "`pulumi refresh`
 *   will need to be run interactively to clear pending CREATE operations") and creates again. The pending create
 *   stays in the state: every later `up` (and `destroy`) warns again; `preview` and a non-interactive `refresh`
 *   neither warn nor clear it; `pulumi refresh --clear-pending-creates` clears it. `pulumi refresh
 *   --import-pending-creates <urn> <id>` (the interactive refresh's "import") drops it too, importing nothing: no
 *   engine code of v3.248.0 reads a pending import, so the next `up` creates again.
 * - The provider never takes the interrupted attempt's compute, nor makes a second beside it (docs/faults.md,
 *   "Computes: names, lost responses and interruptions"): the next `up`'s create is refused before anything is sent,
 *   naming it (`pulumi-<ownerTag>-<8 hex>`) with the ways on (provider/compute/owner-tag.ts), as after two Ctrl-Cs and
 *   after `pulumi state delete` of the compute. `adoptId` (here from the stack's config) keeps it; deleting it lets the
 *   next `up` create one.
 */
import { ChildProcess } from "child_process";
import * as path from "path";
import { Emulator, startEmulator } from "../../emulator";
import { Compute } from "../../provider";
import { NeonClient } from "../../client";
import { CommandResult, LocalStack } from "../../testing";
import { cliRootOrThrow } from "./cli-world";
import { ProgramDir, Run } from "./program-dir";

const REPO_ROOT = path.resolve(__dirname, "../../..");
const PROJECT = "interrupted";
const URN = `urn:pulumi:dev::${PROJECT}::pulumi-nodejs:dynamic/neon:Compute::replica`;
/** Service time of each phase of an operation: the CLI is still waiting on the create when it is killed. */
const OPERATION_MS = 1500;

let emulator: Emulator;
let api: NeonClient;
let cliRoot: string;

beforeAll(async () => {
  cliRoot = cliRootOrThrow();
  emulator = await startEmulator({ operationDurationMs: OPERATION_MS, rateLimit: false });
  api = new NeonClient({ apiKey: emulator.apiKey, apiUrl: emulator.baseUrl, rateLimit: false });
});
afterAll(() => emulator?.close());

/** The program: a read-only compute on the configured branch. */
const newProgramDir = () =>
  new ProgramDir({
    prefix: "interrupt",
    project: PROJECT,
    emulator,
    cliRoot,
    program: [
      `const pulumi = require("@pulumi/pulumi");`,
      `const { Compute } = require("pulumi-neon-dynamic");`,
      `const config = new pulumi.Config();`,
      `const replica = new Compute("replica", {`,
      `  projectId: config.require("projectId"),`,
      `  branchId: config.require("branchId"),`,
      `  type: "read_only",`,
      `  adoptId: config.get("adoptId"),`,
      `});`,
      `exports.id = replica.id;`,
    ],
  });

/** True once the emulator has answered a create of a compute (201) after `mark`. */
const createAnswered = (mark: number) =>
  emulator.requests.slice(mark).some((r) => r.method === "POST" && r.path.endsWith("/endpoints") && r.status === 201);

async function until(condition: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const computesOn = async (branch: string) =>
  (await api.endpoints.listForBranch(emulator.projectId, branch)).map((c) => ({ id: c.id, name: c.name }));

/**
 * "METHOD /path" of the writes the service accepted. The killed run leaves the stray's start_compute operation
 * running, so the next run's first write can meet a 423 (the spec's "an operation is in progress"), which changes
 * nothing and which the provider retries: how often depends on the machine's speed, so refused writes are left out
 * here and `refusedOnlyAsLocked` holds that each was a 423.
 */
const writes = (requests: { method: string; path: string; status?: number }[]) => {
  refusedOnlyAsLocked(requests);
  return requests.filter((r) => r.method !== "GET" && r.status !== 423).map((r) => `${r.method} ${r.path}`);
};

function refusedOnlyAsLocked(requests: { method: string; path: string; status?: number }[]): void {
  const refused = requests.filter(
    (r) => r.method !== "GET" && r.status !== undefined && r.status >= 400 && r.status !== 423,
  );
  expect(refused.map((r) => `${r.status} ${r.method} ${r.path}`)).toEqual([]);
}

/** The warning the engine gives for one pending create of the replica (deployment_executor.go, v3.248.0). */
const PENDING_WARNING = [
  "Attempting to deploy or update resources with 1 pending operations from previous deployment.",
  `* ${URN}, interrupted while creating`,
  "Note that `pulumi refresh` will need to be run interactively to clear pending CREATE operations.",
];

/** The no-change check: a preview of only `same` steps that sends nothing; a refresh that finds nothing changed. */
async function expectNoChange(dir: ProgramDir): Promise<void> {
  const preview = await dir.ok(["preview", "--json", "--non-interactive"]);
  const plan = JSON.parse(preview.stdout) as { steps: { op: string }[]; changeSummary: Record<string, number> };
  expect(plan.steps.map((s) => s.op).filter((op) => op !== "same")).toEqual([]);
  expect(plan.changeSummary).toEqual({ same: 2 });
  expect(preview.requests).toEqual([]);
  const refresh = await dir.ok(["refresh", "--yes", "--skip-preview", "--json", "--non-interactive"]);
  const summary = refresh.stdout
    .split("\n")
    .filter((line) => line.trim().startsWith("{"))
    .map((line) => JSON.parse(line) as { summaryEvent?: { resourceChanges: Record<string, number> } })
    .find((event) => event.summaryEvent)?.summaryEvent;
  expect(summary?.resourceChanges).toEqual({ same: 2 });
  expect(writes(refresh.requests)).toEqual([]);
}

/** `pulumi stack init` and the config of the program (the key as a secret), on the given branch. */
async function initStack(dir: ProgramDir, branch: string): Promise<void> {
  await dir.ok(["stack", "init", "dev", "--non-interactive"]);
  await dir.ok(["config", "set", "--secret", "neon:apiKey", emulator.apiKey]);
  await dir.ok(["config", "set", "neon:apiUrl", emulator.baseUrl]);
  await dir.ok(["config", "set", "projectId", emulator.projectId]);
  await dir.ok(["config", "set", "branchId", branch]);
}

/**
 * A new stack's first `up`, killed with its process group once the service has answered the create (the CLI then
 * waits on the compute's operations, OPERATION_MS per phase); what it leaves is asserted. Returns the stray compute.
 */
async function killedUp(dir: ProgramDir, branch: string): Promise<{ id: string; name: string | null | undefined }> {
  await initStack(dir, branch);
  const mark = emulator.requests.length;
  let killed: Promise<void> | undefined;
  const interrupted = await dir.run(["up", "--yes", "--skip-preview", "--non-interactive"], (child) => {
    killed = until(() => createAnswered(mark), "the create is answered").then(() => {
      process.kill(-child.pid!, "SIGKILL");
    });
  });
  await killed;
  expect(interrupted.signal).toBe("SIGKILL");
  expect(interrupted.stdout).toContain("pulumi-nodejs:dynamic/neon:Compute replica creating");
  expect(writes(interrupted.requests)).toEqual([`POST /projects/${emulator.projectId}/endpoints`]);

  // The plugins have process groups of their own (the engine starts them so): the dynamic provider's plugin and the
  // language host outlive the killed CLI. They are killed here, by pid, as a user would have to.
  const left = dir.survivors().map((s) => s.command);
  expect(left).toContainEqual(expect.stringContaining("@pulumi/pulumi/cmd/dynamic-provider"));
  for (const { pid } of dir.survivors()) process.kill(pid, "SIGKILL");

  // The state: a pending create of the replica, no replica. The service: the compute of that attempt, named with
  // the resource's tag.
  const state = dir.checkpoint();
  expect(state.pending_operations?.map((op) => [op.type, op.resource.urn])).toEqual([["creating", URN]]);
  expect((state.resources ?? []).filter((r) => r.urn === URN)).toEqual([]);
  const ownerTag = String(state.pending_operations?.[0].resource.inputs.ownerTag);
  const [stray, ...others] = await computesOn(branch);
  expect(others).toEqual([]);
  expect(stray.name).toMatch(new RegExp(`^pulumi-${ownerTag}-[0-9a-f]{8}$`));
  return stray;
}

/** Destroy deletes the compute the state holds (`held`), and the branch is left empty. */
async function destroyHeld(dir: ProgramDir, branch: string, held: unknown) {
  const destroyed = await dir.ok(["destroy", "--yes", "--non-interactive"]);
  expect(writes(destroyed.requests)).toEqual([`DELETE /projects/${emulator.projectId}/endpoints/${String(held)}`]);
  expect(await computesOn(branch)).toEqual([]);
}

/** An `up` refused before anything was sent, naming `stray` and the way to keep it. */
async function expectRefusedNaming(dir: ProgramDir, stray: { id: string; name?: string | null }): Promise<Run> {
  const refused = await dir.run(["up", "--yes", "--non-interactive"]);
  expect(refused.code).not.toBe(0);
  const said = refused.stdout + refused.stderr;
  expect(said).toContain(`${stray.id} (${String(stray.name)}) is named for this resource and no state is known`);
  expect(said).toContain(`keep it with adoptId: "${stray.id}"`);
  expect(writes(refused.requests)).toEqual([]);
  return refused;
}

/** The advice followed: `adoptId` set (in the config), an up that takes the compute (no write), then removed. */
async function adoptThroughConfig(dir: ProgramDir, id: string): Promise<void> {
  await dir.ok(["config", "set", "adoptId", id]);
  const adopted = await dir.ok(["up", "--yes", "--non-interactive"]);
  expect(writes(adopted.requests)).toEqual([]);
  expect(dir.checkpoint().resources?.find((r) => r.urn === URN)?.id).toBe(id);
  await dir.ok(["config", "rm", "adoptId"]);
  const released = await dir.ok(["up", "--yes", "--non-interactive"]);
  expect(writes(released.requests)).toEqual([]);
}

describe("an up killed after the service created a replica, before the CLI recorded it", () => {
  it("the real CLI: locked until `pulumi cancel`; then warns of the pending create on every up, and the create is refused naming the stray until adoptId keeps it", async () => {
    const branch = emulator.branches.staging;
    const dir = newProgramDir();
    try {
      const stray = await killedUp(dir, branch);

      // The next up, non-interactive: the killed CLI's lock stops it before anything runs.
      const locked = await dir.run(["up", "--yes", "--non-interactive"]);
      expect(locked.code).toBe(1);
      expect(locked.stderr).toContain(
        "error: the stack is currently locked by 1 lock(s). Either wait for the other process(es) to end or " +
          "delete the lock file with `pulumi cancel`.",
      );
      expect(locked.requests).toEqual([]);
      const cancel = await dir.ok(["cancel", "--yes", "--non-interactive"]);
      expect(cancel.stdout).toContain("The currently running update for 'dev' has been canceled!");

      // Then: the engine warns of the pending create and creates again; the provider refuses, naming the compute
      // the killed attempt made, and sends nothing. The advice followed (adoptId) keeps that compute.
      const next = await expectRefusedNaming(dir, stray);
      for (const line of PENDING_WARNING) expect(next.stdout).toContain(line);
      await adoptThroughConfig(dir, stray.id);
      const held = dir.checkpoint().resources?.find((r) => r.urn === URN)?.id;
      expect(held).toBe(stray.id);
      expect(await computesOn(branch)).toEqual([stray]);
      // The pending create is carried forward ("these must require user intervention").
      expect(dir.checkpoint().pending_operations?.map((op) => [op.type, op.resource.urn])).toEqual([["creating", URN]]);

      await expectNoChange(dir);
      // Neither that preview nor that (non-interactive) refresh cleared it; the next up warns again, sends nothing.
      expect(dir.checkpoint().pending_operations).toHaveLength(1);
      const again = await dir.ok(["up", "--yes", "--non-interactive"]);
      for (const line of PENDING_WARNING) expect(again.stdout).toContain(line);
      expect(again.requests).toEqual([]);
      await expectNoChange(dir);

      // `pulumi refresh --clear-pending-creates` drops it (the compute it stood for is not touched); no more warning.
      const cleared = await dir.ok(["refresh", "--yes", "--clear-pending-creates", "--non-interactive"]);
      expect(writes(cleared.requests)).toEqual([]);
      expect(dir.checkpoint().pending_operations ?? []).toEqual([]);
      const clean = await dir.ok(["up", "--yes", "--non-interactive"]);
      expect(clean.stdout).not.toContain("pending operations");
      expect(clean.requests).toEqual([]);
      await expectNoChange(dir);

      // Destroy deletes the compute the state holds, the adopted one; nothing is left.
      await destroyHeld(dir, branch, held);
    } finally {
      await dir.dispose();
    }
  });

  it('the real CLI: `pulumi refresh --import-pending-creates <urn> <id>` (what the interactive refresh\'s "import" does) drops the pending create without importing the compute', async () => {
    // A branch of its own (the fixture's main holds a primary): what the earlier test leaves does not matter here.
    const branch = (await api.branches.create(emulator.projectId, { branch: { name: "import-pending" } })).branch.id;
    const dir = newProgramDir();
    try {
      const stray = await killedUp(dir, branch);
      await dir.ok(["cancel", "--yes", "--non-interactive"]);

      // The refresh turns the pending create into a pending import of that id (refresh.go pendingCreatesToImports),
      // but nothing in the v3.248.0 engine reads a pending import: the refresh neither reads the compute nor adds it
      // to the state, and the snapshot it writes carries only pending creates forward, so the import is dropped.
      const imported = await dir.ok([
        "refresh",
        "--yes",
        "--non-interactive",
        "--import-pending-creates",
        URN,
        "--import-pending-creates",
        stray.id,
      ]);
      expect(imported.stderr).not.toContain("did not correspond to a pending create");
      expect(imported.requests).toEqual([]);
      expect(dir.checkpoint().pending_operations ?? []).toEqual([]);
      expect((dir.checkpoint().resources ?? []).filter((r) => r.urn === URN)).toEqual([]);

      // So the next up (no pending-create warning now) creates again: refused, naming the stray. The other way the
      // advice gives: delete it (nothing uses it), and the next up creates the compute.
      const next = await expectRefusedNaming(dir, stray);
      expect(next.stdout).not.toContain("pending operations");
      await api.endpoints.delete(emulator.projectId, stray.id);
      const created = await dir.ok(["up", "--yes", "--non-interactive"]);
      expect(writes(created.requests)).toEqual([`POST /projects/${emulator.projectId}/endpoints`]);
      const held = dir.checkpoint().resources?.find((r) => r.urn === URN)?.id;
      expect((await computesOn(branch)).map((c) => c.id)).toEqual([held]);
      await expectNoChange(dir);
      await destroyHeld(dir, branch, held);
    } finally {
      await dir.dispose();
    }
  });

  it("the model (LocalStack.interrupt()): no lock, the next up warns and is refused naming the stray; deleted, the next creates; the pending create cannot be cleared", async () => {
    const branch = emulator.branches.dev;
    const stack = new LocalStack({
      engine: "model",
      program: () => ({
        id: new Compute("replica", { projectId: emulator.projectId, branchId: branch, type: "read_only" }).id,
      }),
      project: PROJECT,
      cwd: REPO_ROOT,
      requestLog: emulator,
      env: { ...process.env, NEON_API_KEY: "", NEON_API_HOST: "" },
      config: { "neon:apiKey": { secret: emulator.apiKey }, "neon:apiUrl": emulator.baseUrl },
    });
    const mark = emulator.requests.length;
    const running = stack.up({ skipPreview: true });
    await until(() => createAnswered(mark), "the create is answered");
    await stack.interrupt();
    const interrupted = await running;
    expect(interrupted.interrupted).toBe(true);
    expect(stack.state.pendingOperations.map((op) => [op.type, op.resource.urn])).toEqual([["creating", URN]]);
    const [stray] = await computesOn(branch);

    const refused = await stack.up();
    expect(refused.warnings.join("\n")).toContain(`${URN}, interrupted while creating`);
    expect(refused.error?.message).toContain(`${stray.id} (${String(stray.name)}) is named for this resource`);
    expect(writes(refused.requests as Run["requests"])).toEqual([]);
    await api.endpoints.delete(emulator.projectId, stray.id);
    const next = ok(await stack.up());
    expect(writes(next.requests as Run["requests"])).toEqual([`POST /projects/${emulator.projectId}/endpoints`]);
    const held = String(stack.outputs({ showSecrets: true }).id);
    expect((await computesOn(branch)).map((c) => c.id)).toEqual([held]);
    expect(stack.state.pendingOperations).toHaveLength(1);

    const preview = ok(await stack.preview());
    expect(preview.steps.filter((s) => s.op !== "same")).toEqual([]);
    expect(preview.requests).toEqual([]);
    const refresh = ok(await stack.refresh());
    expect(refresh.steps.map((s) => s.found)).toEqual(["same"]);
    // The model has no `--clear-pending-creates`: the pending create stays, and every up warns again.
    expect(stack.state.pendingOperations).toHaveLength(1);
    const again = ok(await stack.up());
    expect(again.warnings.join("\n")).toContain(`${URN}, interrupted while creating`);
    expect(again.requests).toEqual([]);

    const destroyed = ok(await stack.destroy());
    expect(writes(destroyed.requests as Run["requests"])).toEqual([
      `DELETE /projects/${emulator.projectId}/endpoints/${held}`,
    ]);
    expect(await computesOn(branch)).toEqual([]);
  });
});

function ok(result: CommandResult): CommandResult {
  if (result.error) throw result.error;
  return result;
}

/** Sends SIGINT to the CLI's process group (a terminal's Ctrl-C), unless it has exited already. */
function ctrlC(child: ChildProcess): void {
  try {
    process.kill(-child.pid!, "SIGINT");
  } catch {
    // already gone
  }
}

describe("computes named for the resource that no state holds, through the real CLI", () => {
  it("two Ctrl-Cs (SIGINT twice) during an up with a create in flight, then up: refused naming the compute the interrupted create made; adoptId keeps it", async () => {
    const branch = (await api.branches.create(emulator.projectId, { branch: { name: "sigint-twice" } })).branch.id;
    const dir = newProgramDir();
    try {
      await initStack(dir, branch);
      const mark = emulator.requests.length;
      let interrupted: Promise<void> | undefined;
      const killed = await dir.run(["up", "--yes", "--skip-preview", "--non-interactive"], (child) => {
        interrupted = until(() => createAnswered(mark), "the create is answered").then(async () => {
          ctrlC(child);
          await new Promise((resolve) => setTimeout(resolve, 100));
          ctrlC(child);
        });
      });
      await interrupted;
      expect(killed.code).not.toBe(0);
      for (const { pid } of dir.survivors()) process.kill(pid, "SIGKILL");
      expect(dir.checkpoint().pending_operations?.map((op) => [op.type, op.resource.urn])).toEqual([["creating", URN]]);
      const [made, ...others] = await computesOn(branch);
      expect(others).toEqual([]);

      await dir.run(["cancel", "--yes", "--non-interactive"]); // the interrupted run's lock, where it left one
      await expectRefusedNaming(dir, made);
      await adoptThroughConfig(dir, made.id);
      expect(await computesOn(branch)).toEqual([made]);
      await destroyHeld(dir, branch, made.id);
    } finally {
      await dir.dispose();
    }
  });

  it("`pulumi state delete <urn of a replica>`, then up: refused naming the forgotten compute, which is never taken; adoptId keeps it", async () => {
    const branch = (await api.branches.create(emulator.projectId, { branch: { name: "state-delete" } })).branch.id;
    const dir = newProgramDir();
    try {
      await initStack(dir, branch);
      await dir.ok(["up", "--yes", "--skip-preview", "--non-interactive"]);
      const [made, ...others] = await computesOn(branch);
      expect(others).toEqual([]);
      await dir.ok(["state", "delete", URN, "--yes", "--non-interactive"]);
      expect((dir.checkpoint().resources ?? []).filter((r) => r.urn === URN)).toEqual([]);

      await expectRefusedNaming(dir, made);
      await adoptThroughConfig(dir, made.id);
      expect(await computesOn(branch)).toEqual([made]);
      await destroyHeld(dir, branch, made.id);
    } finally {
      await dir.dispose();
    }
  });
});
