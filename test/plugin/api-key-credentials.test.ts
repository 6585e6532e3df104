/**
 * ApiKey resources managed with each kind of key as `neon:apiKey`, through the local engine and the real plugin: what
 * Neon's docs allow works (an organization key lists and revokes its organization's keys, so it can refresh and
 * destroy them), and what the service refuses fails with the service's message first, then advice that fits the
 * request (which kind of key may do it, and what to use instead), never a key in plain text.
 */
import { ApiKey } from "../../provider";
import { CommandResult, LocalStack } from "../../testing";
import { KeyLedger, orgWorld, Orgs } from "./api-key-kinds";
import { NeonWorld, ok, ops, outputs, requests } from "./world";

let world: NeonWorld;
let orgs: Orgs;
const ledger = new KeyLedger();

beforeAll(async () => {
  ({ world, orgs } = await orgWorld());
  ledger.saw(world.emulator.apiKey);
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
  const run = ledger.track(stack);
  return { stack, run };
}

/** Every message a command reported: its error, its steps' errors and its diagnostics. */
const messagesOf = (result: CommandResult): string =>
  [result.error?.message ?? "", ...result.steps.map((s) => s.error ?? ""), ...result.diagnostics.map((d) => d.message)]
    .filter(Boolean)
    .join("\n");

const inState = (stack: LocalStack) => stack.state.resources.some((r) => r.urn.endsWith("::k"));

/** A key made out of band with the console key (an admin of both organizations). */
async function orgKey(name: string, projectId?: string): Promise<string> {
  const created = await world.api.orgApiKeys.create(orgs.orgA, {
    key_name: name,
    ...(projectId === undefined ? {} : { project_id: projectId }),
  });
  ledger.saw(created.key);
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

// The 403 hint was written for project-scoped keys and added to every 403: a member creating an organization-wide key
// was told about project scopes. Each refusal now gets the advice that fits it, after the service's own message.
describe("a create the service refuses says which key may make that kind of key", () => {
  it("a member's personal key creating an organization-wide key: only an admin's may, or give it a projectId", async () => {
    const member = world.emulator.createAccount();
    ledger.saw(member.apiKey);
    const { orgId } = world.emulator.createOrganization({
      members: { [world.emulator.accountId]: "admin", [member.accountId]: "member" },
    });
    const { run } = keyStack("member-wide", { keyName: "ci", orgId }, member.apiKey);
    const result = await run("up");
    const message = result.error?.message ?? "";
    expect(message).toMatch(new RegExp(`HTTP 403: only an admin of organization ${orgId} can create .*\\. Only an`));
    expect(message).toContain(`Only an admin of organization ${orgId} can create an organization-wide key`);
    expect(message).toContain("give the ApiKey a projectId");
    expect(messagesOf(result)).not.toContain("can use only its own project");
  });

  it.each([
    ["an organization key", undefined],
    ["a project-scoped key", 0],
  ])("%s creating an ApiKey: such keys cannot create keys; use a member's personal key", async (_, project) => {
    const credential = await orgKey("pipeline", project === undefined ? undefined : orgs.projects[project]);
    const scope = { orgId: orgs.orgA, projectId: orgs.projects[0] };
    const { run } = keyStack(`key-creates-${project ?? "org"}`, { keyName: "ci", ...scope }, credential);
    const result = await run("up");
    const message = result.error?.message ?? "";
    expect(message).toMatch(/^HTTP 403: .*cannot create API keys/);
    expect(message).toContain("organization and project-scoped keys cannot create API keys");
    expect(message).toContain("use a member's personal key");
    expect(messagesOf(result)).not.toContain("can use only its own project");
  });
});

describe("an organization neon:apiKey's account is not a member of", () => {
  it("a create answered 404 names the organization and says what to do", async () => {
    const outsider = world.emulator.createAccount();
    ledger.saw(outsider.apiKey);
    const { run, stack } = keyStack("not-member", { keyName: "ci", orgId: orgs.orgB }, outsider.apiKey);
    const result = await run("up");
    const message = result.error?.message ?? "";
    expect(message).toMatch(new RegExp(`^HTTP 404: account is not a member of the organization ${orgs.orgB}`));
    expect(message).toContain(`Check that orgId ${orgs.orgB} is right`);
    expect(message).toContain(
      `add the account to organization ${orgs.orgB} in the Neon console, or use a member's key`,
    );
    expect(inState(stack)).toBe(false);
  });
});

describe("no key in plain text", () => {
  it("appears in no state, report or error of these commands", () => {
    expect(ledger.seenKeys.length).toBeGreaterThan(2);
    expect(ledger.leaks()).toEqual([]);
  });
});
