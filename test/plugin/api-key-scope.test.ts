/**
 * A project-scoped ApiKey against what the service answers about its scope, through the local engine and the real
 * plugin. The `projectId` output is the service's answer, never the program's value passed off as one: a key answered
 * with another scope (project_id null or another project) is revoked and the step fails naming it; a create response
 * without project_id (the contract makes it optional) is settled by the key's list; when neither says, the output is
 * null, a warning says so, and no `up` replaces the key for it. The answers the emulator never gives on its own come
 * from its scripted-replies test device (`emulator.replies`), not from a service behaviour.
 */
import { ApiKey } from "../../provider";
import type { ReplyRule } from "../../emulator";
import { LocalStack } from "../../testing";
import { KeyLedger, orgWorld, Orgs } from "./api-key-kinds";
import { NeonWorld, ok, ops, outputs, requests, writes } from "./world";

let world: NeonWorld;
let orgs: Orgs;
const ledger = new KeyLedger();

beforeAll(async () => {
  ({ world, orgs } = await orgWorld());
  ledger.saw(world.emulator.apiKey);
});
afterAll(() => world.stop());
afterEach(() => world.emulator.replies.clear());

/** A stack of one project-scoped ApiKey (project 0 of organization A). */
function scopedKeyStack(name: string) {
  const stack = world.stack(
    () => {
      const key = new ApiKey("k", { keyName: "ci", orgId: orgs.orgA, projectId: orgs.projects[0] });
      return { key: key.key, keyId: key.keyId, projectId: key.projectId };
    },
    { stack: name },
  );
  const run = ledger.track(stack);
  return { stack, run };
}

const keysPath = () => `/organizations/${orgs.orgA}/api_keys`;

/** Rewrites the create response's project_id (undefined: leaves the field out). */
const createAnswers = (projectId: string | null | undefined): ReplyRule => ({
  method: "POST",
  path: new RegExp(`^${keysPath()}$`),
  rewrite: ({ status, body }) => ({ status, body: withProject(body, projectId) }),
});

/** Rewrites the key list's project_id of every key (undefined: leaves the field out), for `times` lists. */
const listAnswers = (projectId: string | null | undefined, times = 1): ReplyRule => ({
  method: "GET",
  path: new RegExp(`^${keysPath()}$`),
  times,
  rewrite: ({ status, body }) => ({ status, body: (body as object[]).map((key) => withProject(key, projectId)) }),
});

function withProject(body: unknown, projectId: string | null | undefined): Record<string, unknown> {
  const { project_id: _, ...rest } = body as Record<string, unknown>;
  return projectId === undefined ? rest : { ...rest, project_id: projectId };
}

/** The key's state (refresh updates it; the stack's outputs change only with an up). */
const keyState = (stack: LocalStack) => stack.state.resources.find((r) => r.urn.endsWith("::k"));

const listedIds = async () => (await world.api.orgApiKeys.list(orgs.orgA)).map((k) => k.id);

describe("a project-scoped key the service answers with another scope", () => {
  it.each([
    ["project_id null", null, "not limited to a project (project_id null)"],
    ["another project", "other", "limited to project "],
  ])("%s: the key is revoked and the step fails naming it, the project asked and the answer", async (_, kind, said) => {
    const answer = kind === "other" ? orgs.projects[1] : null;
    const { stack, run } = scopedKeyStack(`answer-${kind ?? "null"}`);
    const before = await listedIds();
    world.emulator.replies.rewriteNext(createAnswers(answer));
    const result = await run("up");
    expect(result.error).toBeDefined();
    const post = requests(result).find((r) => r.method === "POST");
    const made = (await world.api.orgApiKeys.list(orgs.orgA)).length; // nothing left: the key made was revoked
    expect(made).toBe(before.length);
    const message = result.error?.message ?? "";
    expect(message).toMatch(/API key \d+ was created for project /);
    expect(message).toContain(`project ${orgs.projects[0]} of organization ${orgs.orgA}`);
    expect(message).toContain(`${said}${answer ?? ""}`);
    expect(message).toContain("It was revoked");
    expect(writes(result)).toEqual([`POST ${keysPath()}`, expect.stringMatching(new RegExp(`^DELETE ${keysPath()}/`))]);
    expect(post?.status).toBe(200);
    expect(stack.state.resources.some((r) => r.urn.endsWith("::k"))).toBe(false);
  });
});

describe("a create response without project_id", () => {
  it("is settled by the key's list: projectId is the project it names, with no warning", async () => {
    const { run, stack } = scopedKeyStack("answer-omitted");
    world.emulator.replies.rewriteNext(createAnswers(undefined));
    const result = ok(await run("up"));
    expect(requests(result).map((r) => `${r.method} ${r.path}`)).toEqual([`POST ${keysPath()}`, `GET ${keysPath()}`]);
    expect(outputs(stack).projectId).toBe(orgs.projects[0]);
    expect(result.warnings.filter((w) => w.includes("API key"))).toEqual([]);
  });

  it("neither it nor the list says: projectId null, one warning, and neither up nor refresh then replaces the key", async () => {
    const { run, stack } = scopedKeyStack("answer-unknown");
    world.emulator.replies.rewriteNext(createAnswers(undefined));
    world.emulator.replies.rewriteNext(listAnswers(undefined));
    const result = ok(await run("up"));
    const id = Number(outputs(stack).keyId);
    expect(outputs(stack).projectId).toBeNull();
    const warnings = result.warnings.filter((w) => w.includes(`API key ${id} `));
    expect(warnings).toEqual([expect.stringContaining("did not say which project it is limited to")]);
    expect(ops(ok(await run("up")))).toEqual(["same k"]);
    world.emulator.replies.rewriteNext(listAnswers(undefined, 2)); // the refresh's preview and the refresh
    const refresh = ok(await run("refresh"));
    expect(refresh.warnings.filter((w) => w.includes(`API key ${id} `))).toEqual([]);
    expect(keyState(stack)?.outputs.projectId).toBeNull();
    const again = ok(await run("up"));
    expect([ops(again), again.requests]).toEqual([["same k"], []]);
    expect(await listedIds()).toContain(id);
  });
});

describe("refresh of a project-scoped key", () => {
  // The reviewer's probe: a key listed organization-wide was reported as project-scoped (the declared value).
  it("records what the list says (project_id null), warns that the key may reach more, and plans no replacement", async () => {
    const { run, stack } = scopedKeyStack("listed-wide");
    ok(await run("up"));
    const id = Number(outputs(stack).keyId);
    expect(outputs(stack).projectId).toBe(orgs.projects[0]);
    world.emulator.replies.rewriteNext(listAnswers(null, 2));
    const refresh = ok(await run("refresh"));
    const state = keyState(stack);
    expect(state?.outputs.projectId).toBeNull();
    expect(state?.inputs.projectId).toBe(orgs.projects[0]);
    expect(refresh.warnings).toContainEqual(
      expect.stringContaining(`API key ${id} was created for project ${orgs.projects[0]}, but the service now lists`),
    );
    const up = ok(await run("up"));
    expect([ops(up), up.requests]).toEqual([["same k"], []]);
  });
});

describe("no key in plain text", () => {
  it("appears in no state, report or error of these commands", () => {
    expect(ledger.seenKeys.length).toBeGreaterThan(2);
    expect(ledger.leaks()).toEqual([]);
  });
});
