/**
 * Branch as a user's `pulumi up` drives it, through the local engine and the real plugin against the emulator: create
 * with each input, the no-change check after every up, each update as one PATCH, a reset from the parent, a
 * replacement with a compute on the branch, the delete refusals, refresh after out-of-band changes, adoption.
 */
import { Branch, BranchArgs, Compute } from "../../provider";
import { CommandResult, LocalStack } from "../../testing";
import { neonWorld, NeonWorld, ok, outputs, requests, writes } from "./world";

const BRANCH = "pulumi-nodejs:dynamic/neon:Branch";

let world: NeonWorld;
beforeAll(async () => {
  world = await neonWorld();
});
afterAll(() => world.stop());

const branchesPath = () => `/projects/${world.projectId}/branches`;
const endpointsPath = () => `/projects/${world.projectId}/endpoints`;

/** "op name" of the Branch steps, sorted. */
const branchOps = (result: { steps: { op: string; name: string; type: string }[] }) =>
  result.steps
    .filter((s) => s.type === BRANCH)
    .map((s) => `${s.op} ${s.name}`)
    .sort();

/** The warnings of an `up`'s preview. */
const previewWarnings = (up: CommandResult) =>
  (up.preview?.diagnostics ?? []).filter((d) => d.severity === "warning").map((d) => d.message);

/** A stack of one Branch named `name`; a test changes `declared.args` between commands. */
function branchStack(name: string, args: Partial<BranchArgs> = {}) {
  const declared = { args };
  const stack = world.stack(() => {
    const branch = new Branch(name, { projectId: world.projectId, ...declared.args });
    // Every declared output is an Output, set or not (a missing one would throw here: dynamic-class.ts, constructedWith).
    const lastReset = branch.lastResetAt.apply((at) => at ?? "never");
    return { id: branch.branchId, name: branch.name, protected: branch.protected, lastReset };
  });
  return { stack, declared, id: () => String(outputs(stack).id) };
}

/**
 * The check Pulumi's own provider tests make after every up: a preview shows only `same` steps and sends nothing, a
 * refresh finds nothing changed and writes nothing.
 */
async function expectNoChange(stack: LocalStack): Promise<void> {
  const preview = ok(await stack.preview());
  expect(branchOps(preview).filter((op) => !op.startsWith("same "))).toEqual([]);
  expect(preview.requests).toEqual([]);
  const refresh = ok(await stack.refresh({ skipPreview: true }));
  const found = refresh.steps.filter((s) => s.type === BRANCH).map((s) => `${s.name} ${s.found}`);
  expect(found.filter((f) => !f.endsWith(" same"))).toEqual([]);
  expect(writes(refresh)).toEqual([]);
}

/** The names of the stack's resources that Pulumi's `protect` option holds. */
const protectedInState = (stack: LocalStack) =>
  stack.state.resources.filter((r) => r.protect).map((r) => r.urn.split("::").pop());

const serviceBranch = async (id: string) => (await world.api.branches.get(world.projectId, id)).branch;
const namesOnService = async () => (await world.api.branches.list(world.projectId)).map((b) => b.name).sort();

describe("creating a branch", () => {
  it("from the default branch when parentId is left out: one POST; the parent is recorded, so no diff later", async () => {
    const { stack, id } = branchStack("plain");
    const up = ok(await stack.up());
    expect(branchOps(up)).toEqual(["create plain"]);
    expect(writes(up)).toEqual([`POST ${branchesPath()}`]);
    expect(await serviceBranch(id())).toMatchObject({ name: "plain", parent_id: world.branches.main });
    expect(outputs(stack)).toMatchObject({ name: "plain", protected: false, lastReset: "never" });
    const held = stack.state.resources.find((r) => r.type === BRANCH);
    expect(held?.outputs).toMatchObject({ parentId: world.branches.main, origin: { parentId: world.branches.main } });
    expect(held?.inputs.parentId).toBeUndefined();
    await expectNoChange(stack);
    ok(await stack.destroy());
  });

  it("with each input: parent, LSN, timestamp, schema-only, protected, expiry, annotations", async () => {
    const dev = await serviceBranch(world.branches.dev);
    const at = Math.ceil(Date.parse(dev.created_at) / 1000) * 1000 + 1000;
    while (Date.now() < at + 200) await new Promise((resolve) => setTimeout(resolve, 100));
    const expiresAt = new Date(Date.now() + 2 * 86_400_000).toISOString().replace(/\.\d{3}Z$/, "Z");
    const parentTimestamp = new Date(at).toISOString().replace(/\.\d{3}Z$/, "Z");
    const made: Record<string, Branch> = {};
    const guard = { protected: true };
    const stack = world.stack(() => {
      const projectId = world.projectId;
      made.child = new Branch("from-dev", { projectId, parentId: world.branches.dev });
      made.lsn = new Branch("at-lsn", { projectId, parentId: world.branches.dev, parentLsn: "0/1DE2850" });
      made.time = new Branch("at-time", { projectId, parentId: world.branches.dev, parentTimestamp });
      made.schema = new Branch("schema", { projectId, initSource: "schema-only", name: "schema-only-copy" });
      made.guarded = new Branch("guarded", { projectId, ...guard });
      made.expiring = new Branch("expiring", { projectId, expiresAt });
      made.annotated = new Branch("annotated", { projectId, annotations: { "github-commit-ref": "main" } });
      return Object.fromEntries(Object.entries(made).map(([key, branch]) => [key, branch.branchId]));
    });
    const up = ok(await stack.up());
    expect(writes(up).filter((w) => w === `POST ${branchesPath()}`)).toHaveLength(7);
    expect(writes(up)).toHaveLength(7);
    const ids = outputs(stack) as Record<string, string>;
    expect(await serviceBranch(ids.child)).toMatchObject({ name: "from-dev", parent_id: world.branches.dev });
    expect(await serviceBranch(ids.lsn)).toMatchObject({ parent_id: world.branches.dev, parent_lsn: "0/1DE2850" });
    expect(Date.parse(String((await serviceBranch(ids.time)).parent_timestamp))).toBe(at);
    const schema = await serviceBranch(ids.schema);
    expect(schema).toMatchObject({ name: "schema-only-copy", init_source: "schema-only" });
    expect(schema.parent_id).toBeUndefined();
    expect(await serviceBranch(ids.guarded)).toMatchObject({ protected: true });
    expect(await serviceBranch(ids.expiring)).toMatchObject({ expires_at: expiresAt });
    const annotated = await world.api.branches.get(world.projectId, ids.annotated);
    expect(annotated.annotation?.value).toEqual({ "github-commit-ref": "main" });
    // protected: true brought Pulumi's protect option with it; the others have none.
    expect(protectedInState(stack)).toEqual(["guarded"]);
    await expectNoChange(stack);
    guard.protected = false;
    ok(await stack.up());
    expect(protectedInState(stack)).toEqual([]);
    ok(await stack.destroy());
    expect(await namesOnService()).toEqual(["dev", "main", "staging"]);
  });
});

describe("updating a branch: one PATCH each, then nothing", () => {
  let subject: ReturnType<typeof branchStack>;
  const soon = () => new Date(Date.now() + 86_400_000).toISOString().replace(/\.\d{3}Z$/, "Z");
  beforeAll(async () => {
    subject = branchStack("upd", { parentId: world.branches.dev });
    ok(await subject.stack.up({ skipPreview: true }));
  });
  afterAll(async () => {
    subject.declared.args = { parentId: world.branches.dev };
    ok(await subject.stack.up({ skipPreview: true }));
    ok(await subject.stack.destroy({ skipPreview: true }));
  });

  it.each<[string, Partial<BranchArgs> | (() => Partial<BranchArgs>), (b: Record<string, unknown>) => void]>([
    ["a rename", { name: "upd-renamed" }, (b) => expect(b.name).toBe("upd-renamed")],
    ["protect", { name: "upd-renamed", protected: true }, (b) => expect(b.protected).toBe(true)],
    ["unprotect", { name: "upd-renamed", protected: false }, (b) => expect(b.protected).toBe(false)],
    ["an expiry", () => ({ name: "upd-renamed", expiresAt: soon() }), (b) => expect(b.expires_at).toBeDefined()],
    ["the expiry removed (expires_at: null)", { name: "upd-renamed" }, (b) => expect(b.expires_at).toBeUndefined()],
  ])("%s", async (_, change, holds) => {
    subject.declared.args = { parentId: world.branches.dev, ...(typeof change === "function" ? change() : change) };
    const up = ok(await subject.stack.up());
    expect(branchOps(up)).toEqual(["update upd"]);
    expect(writes(up)).toEqual([`PATCH ${branchesPath()}/${subject.id()}`]);
    holds((await serviceBranch(subject.id())) as unknown as Record<string, unknown>);
    await expectNoChange(subject.stack);
  });

  it("a new resetTriggers value: the preview warns, and the update is one restore from the parent", async () => {
    subject.declared.args = { parentId: world.branches.dev, name: "upd-renamed", resetTriggers: ["v1"] };
    const first = ok(await subject.stack.up());
    expect(writes(first)).toEqual([]); // a first value is recorded: nothing to reset from
    subject.declared.args = { ...subject.declared.args, resetTriggers: ["v2"] };
    const preview = ok(await subject.stack.preview());
    expect(preview.requests).toEqual([]);
    expect(preview.warnings).toContainEqual(
      `Branch "upd" (${subject.id()}) will be reset from its parent ${world.branches.dev}: resetTriggers changed. ` +
        "The branch takes its parent's latest data: every change made on it since it was created or last reset is " +
        "discarded, and the open connections of its computes drop (a running compute restarts). Its roles and " +
        "databases become its parent's: a Role or Database this stack made on the branch (not inherited) is gone " +
        "after the reset, and a role's password is the parent's again; run pulumi up --refresh after this up to " +
        "make them again.",
    );
    const up = ok(await subject.stack.up());
    expect(writes(up)).toEqual([`POST ${branchesPath()}/${subject.id()}/restore`]);
    expect((await serviceBranch(subject.id())).last_reset_at).toBeDefined();
    await expectNoChange(subject.stack);
  });

  it("a reset of a protected branch is refused at preview, naming the property", async () => {
    subject.declared.args = {
      parentId: world.branches.dev,
      name: "upd-renamed",
      protected: true,
      resetTriggers: ["v3"],
    };
    const preview = await subject.stack.preview();
    expect(preview.error?.message ?? "").toMatch(/resetTriggers.*Neon does not reset a protected branch/s);
  });
});

describe("replacing a branch that has a compute on it", () => {
  it("the compute moves to the new branch, the old branch is deleted once, nothing is left behind", async () => {
    const declared = { parentId: world.branches.dev };
    const stack = world.stack(() => {
      const branch = new Branch("app", { projectId: world.projectId, ...declared });
      const db = new Compute("app-db", { projectId: world.projectId, branchId: branch.branchId });
      return { branch: branch.branchId, compute: db.id, computeBranch: db.branchId };
    });
    ok(await stack.up({ skipPreview: true }));
    const old = String(outputs(stack).branch);
    const computeId = String(outputs(stack).compute);
    const before = (await world.api.endpoints.list(world.projectId)).map((e) => e.id).sort();

    declared.parentId = world.branches.staging;
    const up = ok(await stack.up());
    const now = String(outputs(stack).branch);
    expect(now).not.toBe(old);
    expect(branchOps(up.preview!)).toEqual(["create-replacement app", "delete-replaced app", "replace app"]);
    expect(previewWarnings(up).join("\n")).toContain(
      `Branch "app" (${old}) will be replaced (parentId changed): a new branch is created from its parent, and ${old} ` +
        "is then deleted with its data",
    );
    expect(writes(up)).toEqual([
      `PATCH ${branchesPath()}/${old}`, // renamed out of the way, so the new branch takes the name "app"
      `POST ${branchesPath()}`,
      `PATCH ${endpointsPath()}/${computeId}`, // the compute moves
      `DELETE ${branchesPath()}/${old}`,
    ]);
    expect(outputs(stack)).toMatchObject({ compute: computeId, computeBranch: now });
    expect(await serviceBranch(now)).toMatchObject({ name: "app", parent_id: world.branches.staging });
    expect(await namesOnService()).toEqual(["app", "dev", "main", "staging"]);
    expect((await world.api.endpoints.list(world.projectId)).map((e) => e.id).sort()).toEqual(before);
    expect(requests(up).filter((r) => r.method === "DELETE")).toHaveLength(1);
    await expectNoChange(stack);

    const destroy = ok(await stack.destroy());
    expect(writes(destroy)).toEqual([`DELETE ${endpointsPath()}/${computeId}`, `DELETE ${branchesPath()}/${now}`]);
  });
});

describe("replacements: a replacementTrigger, --replace, a failed create, a protected branch, a moved resource", () => {
  it("a new replacementTrigger: the old branch gives up its name, the compute moves, the old branch is deleted", async () => {
    const trigger = { value: "v1" };
    const stack = world.stack(() => {
      const branch = new Branch("forced", { projectId: world.projectId }, { replacementTrigger: trigger.value });
      const db = new Compute("forced-db", { projectId: world.projectId, branchId: branch.branchId, type: "read_only" });
      return { branch: branch.branchId, compute: db.id, computeBranch: db.branchId };
    });
    ok(await stack.up({ skipPreview: true }));
    const old = String(outputs(stack).branch);
    const computeId = String(outputs(stack).compute);
    trigger.value = "v2";
    const up = ok(await stack.up());
    const now = String(outputs(stack).branch);
    expect(writes(up)).toEqual([
      `PATCH ${branchesPath()}/${old}`,
      `POST ${branchesPath()}`,
      `PATCH ${endpointsPath()}/${computeId}`,
      `DELETE ${branchesPath()}/${old}`,
    ]);
    expect(up.warnings.join("\n")).toContain(
      `Branch "forced" (${old}) is being replaced: it was renamed "forced-replaced-`,
    );
    expect(outputs(stack)).toMatchObject({ compute: computeId, computeBranch: now });
    expect((await serviceBranch(now)).name).toBe("forced");
    await expectNoChange(stack);

    // pulumi up --replace tells the provider nothing of the old branch: a kept name is refused before anything is
    // created, saying what to do; with a new name in the same up, it is replaced.
    const refused = await stack.up({ replace: ["forced"], skipPreview: true });
    expect(refused.error?.message).toContain(
      `a branch named "forced" already exists in project ${world.projectId}: ${now}`,
    );
    expect(refused.error?.message).toContain("give the branch a new name in the same up");
    expect(writes(refused)).toEqual([]);
    ok(await stack.destroy({ skipPreview: true }));
  });

  it("a replacement whose create fails gives the old branch its name back", async () => {
    const declared: Partial<BranchArgs> = {};
    const stack = world.stack(() => ({
      id: new Branch("retry", { projectId: world.projectId, ...declared }).branchId,
    }));
    ok(await stack.up({ skipPreview: true }));
    const old = String(outputs(stack).id);
    declared.parentId = "br-no-such-branch-1";
    const up = await stack.up({ skipPreview: true });
    expect(up.error?.message).toMatch(/HTTP 404/);
    expect(writes(up)).toEqual([
      `PATCH ${branchesPath()}/${old}`,
      `POST ${branchesPath()}`,
      `PATCH ${branchesPath()}/${old}`, // its name back
    ]);
    expect((await serviceBranch(old)).name).toBe("retry");
    delete declared.parentId;
    await expectNoChange(stack);
    ok(await stack.destroy({ skipPreview: true }));
  });

  it("a protected branch is not replaced: refused at preview, or before anything is created, even with protected: false in the same up", async () => {
    const declared: Partial<BranchArgs> = { protected: true };
    const options: { replacementTrigger: string } = { replacementTrigger: "v1" };
    const stack = world.stack(() => ({
      id: new Branch("vault", { projectId: world.projectId, ...declared }, options).branchId,
    }));
    ok(await stack.up({ skipPreview: true }));
    const old = String(outputs(stack).id);
    const refusal = "parentId: changed on a protected branch: the replacement would make a new branch and then fail";

    // A new parent: the preview fails saying so, naming the property; nothing is sent.
    declared.parentId = world.branches.staging;
    const up = await stack.up();
    expect(up.error?.message).toContain(refusal);
    expect(up.error?.message).toContain("Unprotect it first in an up of its own");
    expect(up.requests).toEqual([]);

    // protected: false and a new name in the same up would unprotect only the new branch: refused the same way.
    Object.assign(declared, { protected: false, name: "vault-2" });
    const together = await stack.up();
    expect(together.error?.message).toContain(refusal);
    expect(together.requests).toEqual([]);

    // A new replacementTrigger (the engine replaces whatever the Diff says) with protected: false and a new name:
    // refused by the create, before anything is created.
    Object.assign(declared, { parentId: undefined });
    options.replacementTrigger = "v2";
    const forced = await stack.up({ skipPreview: true });
    expect(forced.error?.message).toContain(
      `Branch "vault" (${old}) cannot be replaced (a replacement Pulumi decided): it is protected`,
    );
    expect(writes(forced)).toEqual([]);
    expect(await serviceBranch(old)).toMatchObject({ name: "vault", protected: true });

    // Unprotected by an up of its own, then replaced.
    options.replacementTrigger = "v1";
    Object.assign(declared, { protected: false, name: undefined });
    ok(await stack.up({ skipPreview: true }));
    declared.parentId = world.branches.staging;
    ok(await stack.up());
    expect(String(outputs(stack).id)).not.toBe(old);
    expect(await namesOnService()).not.toContain("vault-replaced");
    ok(await stack.destroy({ skipPreview: true }));
  });

  it("protected: true removed from the program unprotects the branch (one PATCH, said in the preview), and Pulumi's protect goes with it", async () => {
    const declared: Partial<BranchArgs> = { protected: true };
    const stack = world.stack(() => ({
      id: new Branch("unguard", { projectId: world.projectId, ...declared }).branchId,
    }));
    ok(await stack.up({ skipPreview: true }));
    const id = String(outputs(stack).id);
    expect(protectedInState(stack)).toEqual(["unguard"]);
    delete declared.protected;
    const preview = ok(await stack.preview());
    expect(preview.steps.filter((s) => s.type === BRANCH).map((s) => [s.op, s.diffs])).toEqual([
      ["update", ["protected"]],
    ]);
    const up = ok(await stack.up({ skipPreview: true }));
    expect(writes(up)).toEqual([`PATCH ${branchesPath()}/${id}`]);
    expect(await serviceBranch(id)).toMatchObject({ protected: false });
    expect(protectedInState(stack)).toEqual([]);
    await expectNoChange(stack);
    ok(await stack.destroy());
    expect(await namesOnService()).not.toContain("unguard");
  });

  it("a branch protected outside the program, which says nothing of it: the refresh and each preview warn that it has no Pulumi protect", async () => {
    const { stack, declared, id } = branchStack("console-guarded");
    ok(await stack.up({ skipPreview: true }));
    await world.api.branches.update(world.projectId, id(), { protected: true });
    const refresh = ok(await stack.refresh({ skipPreview: true }));
    const warning = `Branch "console-guarded" (${id()}) is protected on Neon (set outside this program)`;
    expect(refresh.warnings.join("\n")).toContain(warning);
    const preview = ok(await stack.preview());
    expect(preview.warnings.join("\n")).toContain(warning);
    expect(preview.requests).toEqual([]);
    // Following the warning's advice: protected: true, the value the branch has, is recorded (an update that sends
    // nothing) and brings protect; removing it later is then seen, and unprotects.
    declared.args = { protected: true };
    const kept = ok(await stack.up());
    expect(branchOps(kept)).toEqual(["update console-guarded"]);
    expect(writes(kept)).toEqual([]);
    expect(protectedInState(stack)).toEqual(["console-guarded"]);
    await expectNoChange(stack);
    declared.args = {};
    const up = ok(await stack.up());
    expect(writes(up)).toEqual([`PATCH ${branchesPath()}/${id()}`]);
    expect(up.warnings.join("\n")).not.toContain(warning);
    expect(await serviceBranch(id())).toMatchObject({ protected: false });
    expect(protectedInState(stack)).toEqual([]);
    ok(await stack.destroy());
  });

  it("an expiry set outside the program, then written with that value, then removed: the removal sends expires_at null", async () => {
    const { stack, declared, id } = branchStack("console-expiry");
    ok(await stack.up({ skipPreview: true }));
    const expiresAt = new Date(Date.now() + 2 * 86_400_000).toISOString().replace(/\.\d{3}Z$/, "Z");
    await world.api.branches.update(world.projectId, id(), { expires_at: expiresAt });
    ok(await stack.refresh({ skipPreview: true }));
    declared.args = { expiresAt };
    const recorded = ok(await stack.up());
    expect(writes(recorded)).toEqual([]);
    await expectNoChange(stack);
    declared.args = {};
    const removed = ok(await stack.up());
    expect(writes(removed)).toEqual([`PATCH ${branchesPath()}/${id()}`]);
    expect((await serviceBranch(id())).expires_at).toBeUndefined();
    ok(await stack.destroy());
  });

  it("a resource moved under a new parent without an alias: its create is refused by name; then adoptId keeps the branch", async () => {
    const where: { parented: boolean; adoptId?: string } = { parented: false };
    const stack = world.stack(() => {
      const parent = where.parented ? { parent: new Branch("holder", { projectId: world.projectId }) } : {};
      const args = { projectId: world.projectId, ...(where.adoptId ? { adoptId: where.adoptId } : {}) };
      return { id: new Branch("moved", args, parent).branchId };
    });
    ok(await stack.up({ skipPreview: true }));
    const old = String(outputs(stack).id);
    where.parented = true;
    const up = await stack.up({ skipPreview: true });
    expect(up.error?.message).toContain(`a branch named "moved" already exists in project ${world.projectId}: ${old}`);
    expect(up.error?.message).toContain(
      "(1) The resource was renamed or moved under a new parent: give it an alias to its old name or place",
    );
    expect(writes(up).filter((w) => w.startsWith("PATCH"))).toEqual([]); // the other's branch is not touched
    // Found by a review: following the message's adoptId (case 3) for this case deleted the branch, the old URN's
    // Delete coming after the new one adopted it. The same process now keeps it.
    where.adoptId = old;
    const adopted = ok(await stack.up({ skipPreview: true }));
    expect(writes(adopted).filter((w) => w.startsWith("DELETE"))).toEqual([]);
    expect(adopted.warnings.join("\n")).toContain(`another resource of this update adopted it (adoptId ${old})`);
    expect(outputs(stack).id).toBe(old);
    expect(await namesOnService()).toContain("moved");
    delete where.adoptId;
    ok(await stack.up({ skipPreview: true }));
    ok(await stack.destroy({ skipPreview: true }));
    expect(await namesOnService()).not.toContain("moved");
  });
});

describe("deleting a branch: refusals send no DELETE and name the branch", () => {
  it("a protected branch: destroy is refused before anything is deleted, naming it; once unprotected, deleted", async () => {
    const declared: { args: Partial<BranchArgs>; protect?: boolean } = { args: { protected: true } };
    const stack = world.stack(() => {
      const options = declared.protect === undefined ? {} : { protect: declared.protect };
      const branch = new Branch("keep", { projectId: world.projectId, ...declared.args }, options);
      const compute = new Compute("keep-db", { projectId: world.projectId, branchId: branch.branchId });
      return { id: branch.branchId, compute: compute.endpointId };
    });
    ok(await stack.up({ skipPreview: true }));
    const { id, compute } = outputs(stack) as Record<string, string>;
    // protected: true brought Pulumi's protect option: the destroy's preview fails at the branch, naming it, and
    // nothing is deleted, not even the compute on it that Pulumi would delete first.
    const destroy = await stack.destroy();
    expect(destroy.error?.message).toContain(`resource "${stack.urnOf("keep")}" cannot be deleted`);
    expect(destroy.error?.message).toContain("because it is protected");
    expect(writes(destroy)).toEqual([]);
    expect((await world.api.endpoints.list(world.projectId)).map((e) => e.id)).toContain(compute);
    // With protect: false set explicitly, the destroy goes ahead and Pulumi deletes the compute first: the provider
    // reads the branch, finds it protected on Neon, and refuses before sending anything (issue 23, item 14: what is
    // on a protected branch survives every destroy); the message names the branch and what to do.
    declared.protect = false;
    ok(await stack.up({ skipPreview: true }));
    const refused = await stack.destroy();
    expect(refused.error?.message).toContain(`unprotect branch ${id} first`);
    expect(writes(refused)).toEqual([]);
    declared.protect = undefined;
    declared.args = { protected: false };
    ok(await stack.up({ skipPreview: true }));
    ok(await stack.destroy());
    expect(await namesOnService()).not.toContain("keep");
  });

  it("a protected branch let go with retainOnDelete (the refusals' advice): no protect then, and it stays on Neon", async () => {
    const declared: { options: { retainOnDelete?: boolean } } = { options: {} };
    const stack = world.stack(() => ({
      id: new Branch("let-go", { projectId: world.projectId, protected: true }, declared.options).branchId,
    }));
    ok(await stack.up({ skipPreview: true }));
    const id = String(outputs(stack).id);
    expect(protectedInState(stack)).toEqual(["let-go"]);
    declared.options = { retainOnDelete: true };
    ok(await stack.up({ skipPreview: true }));
    expect(protectedInState(stack)).toEqual([]);
    const destroyed = ok(await stack.destroy());
    expect(writes(destroyed)).toEqual([]);
    expect(await serviceBranch(id)).toMatchObject({ name: "let-go", protected: true });
    await world.api.branches.update(world.projectId, id, { protected: false });
    await world.api.branches.delete(world.projectId, id);
  });

  it("a branch with children: refused, naming them; once they are gone, deleted", async () => {
    const { stack, id } = branchStack("parent");
    ok(await stack.up({ skipPreview: true }));
    const child = (await world.api.branches.create(world.projectId, { parent_id: id(), name: "kid" })).branch;
    const destroy = await stack.destroy();
    expect(destroy.error?.message).toContain(`has child branches "kid" (${child.id})`);
    expect(destroy.error?.message).toContain("Delete the child branches first");
    expect(writes(destroy)).toEqual([]);
    await world.api.branches.delete(world.projectId, child.id);
    ok(await stack.destroy());
  });

  it("the default branch: refused, saying how to let go of it (pulumi state delete, retainOnDelete)", async () => {
    const { stack, declared } = branchStack("main", { adoptId: world.branches.main });
    ok(await stack.up({ skipPreview: true }));
    declared.args = {};
    const letGo = ok(await stack.up()); // adoptId removed: recorded, nothing sent; its preview says what that means
    expect(writes(letGo)).toEqual([]);
    expect(previewWarnings(letGo).join("\n")).toContain(
      `Branch "main" (${world.branches.main}) is the project's default branch (${world.branches.main}), which Neon ` +
        "never deletes. With adoptId removed, pulumi destroy (or removing the resource) deletes what depends on it",
    );
    const destroy = await stack.destroy();
    expect(destroy.error?.message).toContain(`(${world.branches.main}) named "main" is the project's default branch`);
    expect(destroy.error?.message).toContain("pulumi state delete <its URN>");
    expect(destroy.error?.message).toContain("retainOnDelete: true");
    expect(writes(destroy)).toEqual([]);
    declared.args = { adoptId: world.branches.main };
    ok(await stack.up({ skipPreview: true }));
    ok(await stack.destroy()); // with adoptId kept, Pulumi leaves it: never deleted
  });

  it("a branch already gone is fine", async () => {
    const { stack, id } = branchStack("gone");
    ok(await stack.up({ skipPreview: true }));
    await world.api.branches.delete(world.projectId, id());
    const destroy = ok(await stack.destroy());
    expect(writes(destroy)).toEqual([]);
  });
});

describe("refresh after out-of-band changes", () => {
  it("a rename and an unprotect are recorded; the next up puts them back with one PATCH", async () => {
    const { stack, declared, id } = branchStack("drift", { protected: true });
    ok(await stack.up({ skipPreview: true }));
    await world.api.branches.update(world.projectId, id(), { name: "renamed-by-hand", protected: false });
    const refresh = ok(await stack.refresh());
    expect(refresh.steps.filter((s) => s.type === BRANCH).map((s) => s.found)).toEqual(["update"]);
    expect(refresh.warnings).toEqual([]);
    const up = ok(await stack.up());
    expect(writes(up)).toEqual([`PATCH ${branchesPath()}/${id()}`]);
    expect(await serviceBranch(id())).toMatchObject({ name: "drift", protected: true });
    await expectNoChange(stack);
    await world.api.branches.update(world.projectId, id(), { protected: false });
    ok(await stack.refresh({ skipPreview: true }));
    await world.api.branches.delete(world.projectId, id());
    const gone = ok(await stack.refresh());
    expect(gone.steps.filter((s) => s.type === BRANCH).map((s) => s.found)).toEqual(["delete"]);
    expect(stack.state.resources.filter((r) => r.type === BRANCH)).toEqual([]);
    const again = ok(await stack.up({ skipPreview: true })); // the program still declares it: created again
    expect(writes(again)).toEqual([`POST ${branchesPath()}`]);
    declared.args = { protected: false };
    ok(await stack.up({ skipPreview: true }));
    ok(await stack.destroy());
  });
});

describe("adoption: by adoptId, never by accident", () => {
  it("a name another branch has is refused before anything is created, naming it and adoptId", async () => {
    const { stack } = branchStack("taken", { name: "staging" });
    const up = await stack.up();
    expect(up.error?.message).toContain(
      `a branch named "staging" already exists in project ${world.projectId}: ${world.branches.staging}. Pulumi ` +
        `does not take over an existing branch by accident.`,
    );
    expect(up.error?.message).toContain(`this resource should manage it: set adoptId: "${world.branches.staging}"`);
    expect(writes(up)).toEqual([]);
  });

  it("adoptId takes the branch with one PATCH of what differs; protected, its destroy is refused first; else destroy leaves it, with a warning", async () => {
    const { stack } = branchStack("adopted", { adoptId: world.branches.staging, protected: true });
    const up = ok(await stack.up());
    expect(previewWarnings(up).join("\n")).toContain(`Branch "adopted" adopts ${world.branches.staging}`);
    expect(writes(up)).toEqual([`PATCH ${branchesPath()}/${world.branches.staging}`]);
    expect(outputs(stack)).toMatchObject({ id: world.branches.staging, name: "staging", protected: true });
    const preview = ok(await stack.preview());
    expect(preview.requests).toEqual([]);
    expect(branchOps(preview)).toEqual(["same adopted"]);
    // protected: true brought Pulumi's protect here too: a destroy would delete the databases on the branch and stop
    // at its computes (Neon does not delete them on a protected branch), so it is refused first.
    const refused = await stack.destroy();
    expect(refused.error?.message).toContain(`resource "${stack.urnOf("adopted")}" cannot be deleted`);
    expect(writes(refused)).toEqual([]);
    // With adoptId and protected: false, the destroy leaves the branch, with a warning.
    const { stack: unguarded } = branchStack("adopted-2", { adoptId: world.branches.staging, protected: false });
    ok(await unguarded.up({ skipPreview: true }));
    const destroy = ok(await unguarded.destroy());
    expect(writes(destroy)).toEqual([]);
    expect(destroy.warnings.join("\n")).toContain(`was not deleted: it was adopted`);
    expect(await serviceBranch(world.branches.staging)).toMatchObject({ name: "staging", protected: false });
  });

  it("a branch that does not exist is refused, naming adoptId", async () => {
    const { stack } = branchStack("nothing", { adoptId: "br-nothing-000000" });
    const up = await stack.up();
    expect(up.error?.message).toContain(
      `adoptId: branch br-nothing-000000 does not exist in project ${world.projectId}`,
    );
  });
});
