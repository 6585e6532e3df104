/**
 * ApiKey through the real plugin: create, no-op up, rotation (new before old), refresh after an
 * out-of-band revoke, destroy of a key already gone, check failures, and secrets kept out of state.
 */
import axios from "axios";
import { ApiKey } from "../../provider";
import { NeonClient } from "../../sdk";
import { run } from "../harness/program";
import { startWorld, World, writes } from "../harness/world";

const TYPE = "pulumi-nodejs:dynamic/neon:ApiKey";
let world: World;
let api: NeonClient;
const seenKeys: string[] = [];

beforeAll(async () => {
  world = await startWorld();
  api = new NeonClient({ apiKey: world.emulator.apiKey, apiUrl: world.emulator.baseUrl });
  seenKeys.push(world.emulator.apiKey);
});
afterAll(() => world.stop());

const program = (keyName: string) => () => {
  const key = new ApiKey("ci", { keyName });
  return { keyId: key.keyId, key: key.key };
};

async function up(keyName: string) {
  world.engine.steps = [];
  const mark = world.mark();
  const result = await run(world.engine, program(keyName));
  if (result.errors.length > 0) throw result.errors[0];
  if (result.exports.key) seenKeys.push(result.exports.key);
  return { ...result, steps: world.engine.steps.map((s) => `${s.op} ${s.name}`), requests: world.requestsSince(mark) };
}

/** Status of GET /api_keys made with `key`. */
async function statusWith(key: string): Promise<number> {
  const response = await axios.get(`${world.emulator.baseUrl}/api_keys`, {
    headers: { Authorization: `Bearer ${key}` },
    validateStatus: () => true,
  });
  return response.status;
}

describe("ApiKey through the plugin", () => {
  it("creates a working key whose secret is an output", async () => {
    const { steps, exports } = await up("ci-deploy");
    expect(steps).toEqual(["create ci"]);
    expect(exports.key).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect(await statusWith(exports.key)).toBe(200);
  });

  it("registers the key as a secret output, so state holds it only encrypted", () => {
    const resource = world.engine.state.get(`urn:pulumi:stack::project::${TYPE}::ci`)!;
    expect(resource.secretOutputs).toContain("key");
    expect(world.engine.outputsOf(TYPE, "ci")!.key).toBe(seenKeys[1]);
  });

  it("a second up changes nothing and sends no request", async () => {
    const { steps, requests } = await up("ci-deploy");
    expect(steps).toEqual(["same ci"]);
    expect(requests).toEqual([]);
  });

  it("a new name rotates the key: the new one is created before the old one is revoked", async () => {
    const oldKey = seenKeys[seenKeys.length - 1];
    const oldId = world.engine.outputsOf(TYPE, "ci")!.keyId;
    const { steps, requests, exports } = await up("ci-deploy-2");
    expect(steps).toEqual(["replace ci", "delete-replaced ci"]);
    expect(writes(requests)).toEqual(["POST /api_keys", `DELETE /api_keys/${oldId}`]);
    expect(await statusWith(oldKey)).toBe(401);
    expect(await statusWith(exports.key)).toBe(200);
  });

  it("refresh reads the key back by id and records its last use", async () => {
    await world.engine.refresh();
    const outputs = world.engine.outputsOf(TYPE, "ci")!;
    expect(outputs.lastUsedAt).toEqual(expect.any(String));
    expect(outputs.lastUsedFromAddr).toEqual(expect.any(String));
    expect(outputs.key).toBe(seenKeys[seenKeys.length - 1]);
  });

  it("refresh drops a key revoked outside Pulumi, and the next up makes a new one", async () => {
    await api.apiKeys.revoke(Number(world.engine.outputsOf(TYPE, "ci")!.keyId));
    await world.engine.refresh();
    expect(world.engine.outputsOf(TYPE, "ci")).toBeUndefined();
    const { steps, exports } = await up("ci-deploy-2");
    expect(steps).toEqual(["create ci"]);
    expect(await statusWith(exports.key)).toBe(200);
  });

  it("check refuses a name over 64 characters, naming keyName, without a request", async () => {
    const mark = world.mark();
    const result = await run(world.engine, program("k".repeat(65)));
    expect(result.errors[0]?.message).toContain("keyName: must be 1 to 64 characters long (got 65)");
    expect(world.requestsSince(mark)).toEqual([]);
    world.engine.errors = [];
  });

  it("a revoke whose response is lost twice in a row still revokes the key", async () => {
    const { exports } = await up("ci-lost-revokes");
    world.emulator.faults.add({ method: "DELETE", path: "/api_keys/", kind: "502", times: 2 });
    const { exports: next } = await up("ci-deploy-2");
    expect(await statusWith(exports.key)).toBe(401);
    expect(await statusWith(next.key)).toBe(200);
    world.emulator.faults.clear();
  });

  it("destroy of a key already revoked outside Pulumi is fine: the revoke answers 404, the key leaves state", async () => {
    const keyId = world.engine.outputsOf(TYPE, "ci")!.keyId;
    await api.apiKeys.revoke(Number(keyId));
    const mark = world.mark();
    await world.engine.destroy();
    expect(world.requestsSince(mark)).toEqual([
      expect.objectContaining({ method: "DELETE", path: `/api_keys/${keyId}`, status: 404 }),
    ]);
    expect(world.engine.state.size).toBe(0);
  });

  it("no key ever appears in plain text in state, in the plugin's output or in errors", () => {
    const haystacks = [
      world.engine.serializedState(),
      world.plugin.text(),
      ...world.engine.errors.map((e) => `${e.message} ${e.stack}`),
    ];
    for (const key of seenKeys) for (const text of haystacks) expect(text.includes(key)).toBe(false);
  });
});
