/**
 * ApiKey resources managed with each kind of key as `neon:apiKey`, through the local engine and the real plugin: what
 * Neon's docs allow works (an organization key lists and revokes its organization's keys, so it can refresh and
 * destroy them), and what the service refuses fails with the service's message first, then advice that fits the
 * request (which kind of key may do it, and what to use instead), never a key in plain text.
 */
import { ApiKey } from "../../provider";
import { CommandResult, LocalStack } from "../../testing";
import { leaks } from "../reliability/leaks";
import { orgWorld, Orgs } from "./api-key-kinds";
import { NeonWorld, ok, ops, outputs, requests } from "./world";

let world: NeonWorld;
let orgs: Orgs;
const seenKeys: string[] = [];
const results: CommandResult[] = [];
const stacks: LocalStack[] = [];

beforeAll(async () => {
  ({ world, orgs } = await orgWorld());
  seenKeys.push(world.emulator.apiKey);
});
afterAll(() => world.stop());

/** A stack of one ApiKey with these inputs, whose commands are kept for the leak check. */
function keyStack(name: string, args: { keyName: string; orgId?: string; projectId?: string }, apiKey?: string) {
  const stack = world.stack(
    () => {
      const key = new ApiKey("k", args);
      return { key: key.key, keyId: key.keyId };
    },
    { stack: name, ...(apiKey === undefined ? {} : { config: { "neon:apiKey": { secret: apiKey } } }) },
  );
  stacks.push(stack);
  const run = async (command: "up" | "refresh" | "destroy"): Promise<CommandResult> => {
    const result = await stack[command]();
    results.push(result);
    const key = outputs(stack).key;
    if (typeof key === "string" && !seenKeys.includes(key)) seenKeys.push(key);
    return result;
  };
  return { stack, run };
}

const inState = (stack: LocalStack) => stack.state.resources.some((r) => r.urn.endsWith("::k"));

/** A key made out of band with the console key (an admin of both organizations). */
async function orgKey(name: string, projectId?: string): Promise<string> {
  const created = await world.api.orgApiKeys.create(orgs.orgA, {
    key_name: name,
    ...(projectId === undefined ? {} : { project_id: projectId }),
  });
  seenKeys.push(created.key);
  return created.key;
}

describe("an organization key as neon:apiKey", () => {
  // Neon docs, Manage organizations using the API (Matrix of operations and key types): an organization key may list
  // and revoke organization API keys. The emulator refused both, and so refresh and destroy failed with 403.
  it("refreshes and destroys an organization ApiKey (lists and revokes its organization's keys)", async () => {
    const { stack, run } = keyStack("org-key-manages", { keyName: "ci", orgId: orgs.orgA });
    ok(await run("up"));
    const id = Number(outputs(stack).keyId);
    stack.setConfig({ "neon:apiKey": { secret: await orgKey("pipeline") } });
    const noop = ok(await run("up")); // saves the new neon:apiKey, which refresh and destroy use
    expect(noop.requests).toEqual([]);
    const refresh = ok(await run("refresh"));
    const read = new Set(requests(refresh).map((r) => `${r.method} ${r.path} ${r.status}`)); // preview and refresh
    expect([...read]).toEqual([`GET /organizations/${orgs.orgA}/api_keys 200`]);
    expect(inState(stack)).toBe(true);
    const destroy = ok(await run("destroy"));
    expect(ops(destroy)).toEqual(["delete k"]);
    expect(requests(destroy).map((r) => `${r.method} ${r.status}`)).toEqual(["DELETE 200"]);
    expect(inState(stack)).toBe(false);
    expect((await world.api.orgApiKeys.list(orgs.orgA)).map((k) => k.id)).not.toContain(id);
  });
});

describe("no key in plain text", () => {
  it("appears in no state, report or error of these commands", () => {
    expect(seenKeys.length).toBeGreaterThan(2);
    for (const stack of stacks) expect(leaks({ stack, results }, [], seenKeys)).toEqual([]);
  });
});
