/**
 * ApiKey as a user's `pulumi up` drives it, through the local engine and the real plugin: create, no-op, rotation
 * (new before old), refresh after an out-of-band revoke, lost responses, destroy of a revoked key, bad input (a name
 * too long, a projectId without orgId, malformed ids), and no key in plain text anywhere. The same scenarios for each
 * kind of key (personal, organization, project-scoped): api-key-kinds.ts.
 */
import axios from "axios";
import { ApiKey } from "../../provider";
import { LocalStack } from "../../testing";
import { neonWorld, NeonWorld, ok, ops, outputs, requests, writes } from "./world";

let world: NeonWorld;
let stack: LocalStack;
let keyName = "ci-deploy";
let scope: { orgId?: string; projectId?: string } = {};
const seenKeys: string[] = [];
const texts: string[] = [];

beforeAll(async () => {
  world = await neonWorld();
  seenKeys.push(world.emulator.apiKey);
  stack = world.stack(() => {
    const key = new ApiKey("ci", { keyName, ...scope });
    return { keyId: key.keyId, key: key.key };
  });
});
afterAll(() => world.stop());

/** An up whose new key (if any) is remembered, and whose whole report is searched for keys at the end. */
async function up() {
  const result = await stack.up();
  texts.push(JSON.stringify(result), result.error?.stack ?? "");
  const key = outputs(stack).key;
  if (typeof key === "string" && !seenKeys.includes(key)) seenKeys.push(key);
  return result;
}

async function statusWith(key: string): Promise<number> {
  const response = await axios.get(`${world.emulator.baseUrl}/api_keys`, {
    headers: { Authorization: `Bearer ${key}` },
    validateStatus: () => true,
  });
  return response.status;
}

const keyId = () => Number(outputs(stack).keyId);

describe("ApiKey through the local engine", () => {
  it("creates a working key whose secret is a secret output", async () => {
    const result = ok(await up());
    expect(ops(result)).toEqual(["create ci"]);
    expect(result.outputs.key).toBe("[secret]");
    expect(outputs(stack).key).toMatch(/^[A-Za-z0-9_-]{64}$/);
    expect(await statusWith(outputs(stack).key)).toBe(200);
  });

  it("a second up changes nothing and sends no request", async () => {
    const result = ok(await up());
    expect(ops(result)).toEqual(["same ci"]);
    expect(result.requests).toEqual([]);
  });

  it("a new name rotates the key: the new one is created before the old one is revoked", async () => {
    const oldKey = outputs(stack).key;
    const oldId = keyId();
    keyName = "ci-deploy-2";
    const result = ok(await up());
    expect(ops(result)).toEqual(["create-replacement ci", "delete-replaced ci", "replace ci"]);
    expect(writes(result)).toEqual(["POST /api_keys", `DELETE /api_keys/${oldId}`]);
    expect(await statusWith(oldKey)).toBe(401);
    expect(await statusWith(outputs(stack).key)).toBe(200);
  });

  it("refresh reads the key back by id and records its last use, keeping the secret", async () => {
    const key = outputs(stack).key;
    ok(await stack.refresh());
    const state = stack.state.resources.find((r) => r.urn.endsWith("::ci"));
    expect(state?.outputs.lastUsedAt).toEqual(expect.any(String));
    expect(outputs(stack).key).toBe(key);
  });

  it("refresh drops a key revoked outside Pulumi, and the next up makes a new one", async () => {
    await world.api.apiKeys.revoke(keyId());
    ok(await stack.refresh());
    expect(stack.state.resources.some((r) => r.urn.endsWith("::ci"))).toBe(false);
    const result = ok(await up());
    expect(ops(result)).toEqual(["create ci"]);
    expect(await statusWith(outputs(stack).key)).toBe(200);
  });

  it("check refuses a name over 64 characters, naming keyName, without a request", async () => {
    keyName = "k".repeat(65);
    const result = await up();
    keyName = "ci-deploy-2";
    expect(result.diagnostics.map((d) => d.message).join("\n")).toContain(
      "property keyName value {kkkk", // the engine's own line shows the value (Go's {%v}); the provider's reason does not
    );
    expect(result.diagnostics.map((d) => d.message).join("\n")).toContain("must be 1 to 64 characters long (got 65)");
    expect(result.requests).toEqual([]);
  });

  it.each([
    [{ projectId: "spring-example-302709" }, "projectId", "needs orgId: a project-scoped key is an organization key"],
    [{ orgId: "Org_Acme" }, "orgId", "must be an organization id: 1 to 60 lowercase letters, digits and hyphens"],
    [{ orgId: "org-a-1", projectId: "no such project" }, "projectId", "must be a project id: 1 to 60 lowercase"],
  ])("check refuses the scope %j, naming %s, without a request", async (refused, property, reason) => {
    scope = refused;
    const result = await up();
    scope = {};
    const messages = result.diagnostics.map((d) => d.message).join("\n");
    expect(result.error).toBeDefined();
    expect(messages).toContain(`property ${property} value`);
    expect(messages).toContain(reason);
    expect(result.requests).toEqual([]);
  });

  it("a revoke whose response is lost twice in a row still revokes the key", async () => {
    const oldKey = outputs(stack).key;
    world.emulator.faults.add({ method: "DELETE", path: "/api_keys/", kind: "502", times: 2 });
    keyName = "ci-after-lost-revokes";
    ok(await up());
    world.emulator.faults.clear();
    expect(await statusWith(oldKey)).toBe(401);
    expect(await statusWith(outputs(stack).key)).toBe(200);
  });

  it("a create whose response is lost revokes no key of the same name, sends again, and names the keys that may be unused", async () => {
    const bystander = await world.api.apiKeys.create({ key_name: "shared-name" }); // another stack's working key
    keyName = "shared-name";
    world.emulator.faults.add({ method: "POST", path: "/api_keys", kind: "ambiguous", times: 1 });
    const result = ok(await up());
    world.emulator.faults.clear();
    expect(await statusWith(bystander.key)).toBe(200);
    expect(await statusWith(outputs(stack).key)).toBe(200);
    const lost = (await world.api.apiKeys.list()).filter((k) => k.name === "shared-name" && k.id !== keyId());
    expect(lost.map((k) => k.id)).toContain(bystander.id);
    const warning = result.warnings.find((w) => w.includes("may hold an unused key"));
    for (const key of lost) expect(warning).toContain(String(key.id));
    expect(writes(result).filter((w) => w.startsWith("DELETE /api_keys/" + bystander.id))).toEqual([]);
  });

  it("destroy of a key already revoked outside Pulumi is fine: the revoke answers 404, the key leaves state", async () => {
    const id = keyId();
    await world.api.apiKeys.revoke(id);
    const result = ok(await stack.destroy());
    expect(requests(result)).toEqual([
      expect.objectContaining({ method: "DELETE", path: `/api_keys/${id}`, status: 404 }),
      expect.objectContaining({ method: "GET", path: "/api_keys", status: 200 }),
    ]);
    expect(stack.state.resources).toEqual([]);
  });

  it("no key ever appears in plain text in the state, the commands' reports or errors", () => {
    const haystacks = [stack.exportState(), ...texts];
    for (const key of seenKeys) for (const text of haystacks) expect(text.includes(key)).toBe(false);
  });
});
