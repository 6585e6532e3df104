/**
 * State written by version 0.2.0 runs the code of the new layout (provider/<resource>/ folders). The `__provider` of
 * every resource in that state was serialized by 0.2.0 and loads `pulumi-neon-dynamic/provider/compute-impl` or
 * `…/api-key-impl` at call time; the engine hands it to the plugin from the state for a refresh (Read) and a destroy
 * (Delete), and the program's own for an update. test/legacy/state-0.2.0.json is such a state, exported by the real
 * CLI from a stack that 0.2.0 made (capture-state.js.txt: a read replica and a personal API key).
 *
 * Here the 0.2.0 `__provider`s run in the real dynamic-provider plugin against the emulator, on resources made for the
 * test: read, update and delete of a Compute, read and delete of an ApiKey. test/cli/legacy-state.test.ts runs the
 * same state through the real CLI (stack import, refresh, up, destroy).
 */
import * as fs from "fs";
import * as path from "path";
import { Emulator, startEmulator } from "../../emulator";
import { NeonClient } from "../../client";
import { Plugin } from "../../testing/plugin";

const REPO_ROOT = path.resolve(__dirname, "../../..");
const STATE_FILE = path.join(REPO_ROOT, "test", "legacy", "state-0.2.0.json");

type Props = Record<string, unknown>;
interface LegacyResource {
  urn: string;
  type: string;
  id: string;
  inputs: Props;
  outputs: Props;
}

/** The 0.2.0 state's resource of `type` (the file is the CLI's `stack export`). */
function legacyResource(type: string): LegacyResource {
  const state = JSON.parse(fs.readFileSync(STATE_FILE, "utf8")) as { resources: LegacyResource[] };
  const found = state.resources.find((r) => r.type === type);
  if (!found) throw new Error(`${STATE_FILE} has no ${type}`);
  return found;
}

/** Outputs without the values the 0.2.0 stack encrypted (their ciphertext is of another stack's passphrase). */
function withoutSecrets(props: Props): Props {
  const isSecret = (value: unknown) => typeof value === "object" && value !== null && "ciphertext" in value;
  return Object.fromEntries(Object.entries(props).filter(([, value]) => !isSecret(value)));
}

let emulator: Emulator;
let neon: NeonClient;
let plugin: Plugin;

beforeAll(async () => {
  emulator = await startEmulator({ operationDurationMs: 20, rateLimit: false });
  neon = new NeonClient({ apiKey: emulator.apiKey, apiUrl: emulator.baseUrl });
  plugin = await Plugin.start({ cwd: REPO_ROOT, project: "legacy" });
  await plugin.configure({ "neon:apiKey": emulator.apiKey, "neon:apiUrl": emulator.baseUrl });
});
afterAll(async () => {
  await plugin?.close();
  emulator?.close();
});

describe("state written by 0.2.0", () => {
  const compute = legacyResource("pulumi-nodejs:dynamic/neon:Compute");
  const apiKey = legacyResource("pulumi-nodejs:dynamic/neon:ApiKey");

  it("loads the implementation by the paths of 0.2.0", () => {
    expect(compute.outputs.__provider).toContain('require("pulumi-neon-dynamic/provider/compute-impl")');
    expect(apiKey.outputs.__provider).toContain('require("pulumi-neon-dynamic/provider/api-key-impl")');
  });

  it("a Compute: refresh, update and delete run", async () => {
    const branchId = emulator.branches.main;
    const made = await neon.endpoints.create(emulator.projectId, {
      endpoint: { branch_id: branchId, type: "read_only", autoscaling_limit_min_cu: 0.25, autoscaling_limit_max_cu: 1 },
    });
    const id = made.endpoint.id;
    const place = { projectId: emulator.projectId, branchId };
    const inputs = { ...compute.inputs, ...place };
    const olds = { ...withoutSecrets(compute.outputs), ...place, endpointId: id };

    const read = await plugin.read(compute.urn, id, olds, inputs);
    expect(read.id).toBe(id);
    expect(read.outputs).toMatchObject({ endpointId: id, type: "read_only", autoscalingLimitMaxCu: 1 });
    expect(read.outputs.__provider).toBe(compute.outputs.__provider);

    const news = { ...inputs, autoscalingLimitMaxCu: 2 };
    const updated = await plugin.update(compute.urn, id, inputs, read.outputs, news);
    expect(updated).toMatchObject({ endpointId: id, autoscalingLimitMaxCu: 2 });
    expect((await neon.endpoints.get(emulator.projectId, id)).autoscaling_limit_max_cu).toBe(2);

    await plugin.delete(compute.urn, id, news, updated);
    expect((await neon.endpoints.list(emulator.projectId)).map((e) => e.id)).not.toContain(id);
  });

  it("an ApiKey: refresh and delete run", async () => {
    const made = await neon.apiKeys.create({ key_name: "ci" });
    const id = String(made.id);
    const olds = { ...withoutSecrets(apiKey.outputs), keyId: made.id, key: made.key };

    const read = await plugin.read(apiKey.urn, id, olds, apiKey.inputs);
    expect(read.outputs).toMatchObject({ keyId: made.id, keyName: "ci" });
    expect(read.outputs.__provider).toBe(apiKey.outputs.__provider);

    await plugin.delete(apiKey.urn, id, apiKey.inputs, read.outputs);
    expect((await neon.apiKeys.list()).map((k) => k.id)).not.toContain(made.id);
  });
});
