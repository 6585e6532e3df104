/**
 * State written by version 0.2.0, through the real Pulumi CLI, runs the code of the new layout (provider/<resource>/
 * folders). The `__provider` that 0.2.0 serialized into every resource loads `pulumi-neon-dynamic/provider/compute-impl`
 * or `…/api-key-impl`; the engine hands the state's `__provider` to the plugin for a refresh (Read) and a destroy
 * (Delete), and the program's for a preview or an update (Diff, Update).
 *
 * The 0.2.0 `__provider`s (test/legacy/state-0.2.0.json, exported by the CLI from a stack 0.2.0 made) are put into the
 * state of a stack of today's program (`pulumi stack export`, edit, `pulumi stack import`), as that state would be
 * after an upgrade of the package: then the no-change check (a preview and a refresh find nothing, send nothing), an
 * update, and a destroy with the 0.2.0 `__provider` put back.
 */
import * as fs from "fs";
import * as path from "path";
import { ApiKey, Compute } from "../../provider";
import { CliStack } from "../../testing/cli-stack";
import { cliWorld, CliWorld, noChange, ok, writes } from "./cli-world";

const STATE_FILE = path.resolve(__dirname, "../../../test/legacy/state-0.2.0.json");

type Resource = { type: string; inputs?: Record<string, unknown>; outputs?: Record<string, unknown> };

/** The `__provider` of each resource type in the 0.2.0 state. */
function legacyProviders(): Map<string, string> {
  const state = JSON.parse(fs.readFileSync(STATE_FILE, "utf8")) as { resources: Resource[] };
  const providers = new Map<string, string>();
  for (const r of state.resources) if (r.outputs?.__provider) providers.set(r.type, String(r.outputs.__provider));
  return providers;
}

/** Puts the 0.2.0 `__provider` into the stack's state, in inputs and outputs, as the state of 0.2.0 had it. */
async function restoreLegacyProviders(stack: CliStack, providers: Map<string, string>): Promise<void> {
  const deployment = JSON.parse(await stack.exportState()) as { resources: Resource[] };
  for (const r of deployment.resources) {
    const legacy = providers.get(r.type);
    if (!legacy) continue;
    r.inputs = { ...r.inputs, __provider: legacy };
    r.outputs = { ...r.outputs, __provider: legacy };
  }
  await stack.importState(JSON.stringify(deployment));
}

async function providersInState(stack: CliStack): Promise<string[]> {
  const deployment = JSON.parse(await stack.exportState()) as { resources: Resource[] };
  return deployment.resources.filter((r) => r.outputs?.__provider).map((r) => String(r.outputs?.__provider));
}

let world: CliWorld;
let stack: CliStack | undefined;

beforeAll(async () => {
  world = await cliWorld();
});
afterAll(async () => {
  await stack?.dispose();
  await world?.stop();
});

it("0.2.0's state: refresh and preview find nothing, an update and a destroy run", async () => {
  const providers = legacyProviders();
  let maxCu = 1;
  stack = world.stack(
    async () => {
      const replica = new Compute("replica", {
        projectId: world.projectId,
        branchId: world.branches.main,
        type: "read_only",
        autoscalingLimitMinCu: 0.25,
        autoscalingLimitMaxCu: maxCu,
      });
      new ApiKey("ci", { keyName: "ci" });
      return { endpointId: replica.endpointId };
    },
    { project: "legacy" },
  );
  ok(await stack.up());
  const endpointId = String((await stack.outputs()).endpointId);

  await restoreLegacyProviders(stack, providers);
  expect(await providersInState(stack)).toEqual(
    expect.arrayContaining([expect.stringContaining("provider/compute-impl"), expect.stringContaining("api-key-impl")]),
  );
  const check = await noChange(stack);
  expect(check.previewOps).toEqual(["same ci", "same replica"].sort());
  expect(check.previewRequests).toEqual([]);
  expect(check.refreshFound).toEqual(["ci same", "replica same"]);
  expect(check.refreshWrites).toEqual([]);

  maxCu = 2;
  const update = ok(await stack.up());
  expect(writes(update)).toEqual([`PATCH /projects/${world.projectId}/endpoints/${endpointId}`]);

  await restoreLegacyProviders(stack, providers);
  const destroy = ok(await stack.destroy());
  const deletes = writes(destroy);
  expect(deletes).toHaveLength(2);
  expect(deletes).toEqual(
    expect.arrayContaining([
      `DELETE /projects/${world.projectId}/endpoints/${endpointId}`,
      expect.stringMatching(/^DELETE \/api_keys\/\d+$/),
    ]),
  );
  expect((await world.api.endpoints.list(world.projectId)).map((e) => e.id)).not.toContain(endpointId);
});
