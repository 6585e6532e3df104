/**
 * Role as a user's `pulumi up` drives it, through the local engine and the real plugin against the emulator: create
 * (and the no-change check after every up: a preview of only `same` steps that sends nothing, a refresh that finds
 * nothing), a password reset by passwordTriggers (warned in the preview, one reset, a new password), replacement on a
 * new name or noLogin, a role a child branch inherited (refused before anything is sent; its password read with
 * getRolePasswordOutput, the parent's), a lost create response (no duplicate, the password recovered), a role deleted
 * on the service (refresh drops it), a role owning a database (destroy refused, naming it), bad input, and no password
 * in plain text in the state, any diagnostic, the plugin's output (its request log included) or any error.
 */
import { getRolePassword, getRolePasswordOutput, Role, RoleArgs } from "../../provider";
import { CommandResult, LocalStack } from "../../testing";
import { neonWorld, NeonWorld, ok, ops, outputs, requests, writes } from "./world";

let world: NeonWorld;
let stack: LocalStack;
let declared: Omit<RoleArgs, "projectId" | "branchId"> & { branchId?: string };
const seen = new Set<string>();
const texts: string[] = [];

beforeAll(async () => {
  world = await neonWorld();
  declared = { name: "app_user" };
  stack = world.stack(
    () => {
      const role = new Role("app", { projectId: world.projectId, branchId: world.branches.dev, ...declared });
      // null, not undefined, for a role without a password: Pulumi warns of an undefined stack output on the console
      const password = role.password.apply((value) => value ?? null);
      return { id: role.id, password, name: role.name, noLogin: role.noLogin };
    },
    { env: { NEON_PROVIDER_DEBUG: "1" } },
  );
});
afterAll(() => world.stop());

const rolesPath = (branchId = world.branches.dev) => `/projects/${world.projectId}/branches/${branchId}/roles`;
const reveal = (name: string, branchId = world.branches.dev) =>
  world.api.roles.revealPassword(world.projectId, branchId, name);
const roleNames = async (branchId = world.branches.dev) =>
  (await world.api.roles.list(world.projectId, branchId)).map((role) => role.name).sort();

/** A command whose report is kept for the secrets scan, and whose stack's password (if any) is remembered. */
async function run<T extends CommandResult>(command: Promise<T>, on: LocalStack = stack): Promise<T> {
  const result = await command;
  texts.push(JSON.stringify(result), result.error?.stack ?? "");
  const password = on.outputs({ showSecrets: true }).password;
  if (typeof password === "string") seen.add(password);
  return result;
}

/** After an up: a preview of only `same` steps and no request, then a refresh that finds nothing and writes nothing. */
async function expectNoChange(on: LocalStack, names: string[]): Promise<void> {
  const preview = ok(await run(on.preview(), on));
  expect(ops(preview, ...names)).toEqual(names.map((name) => `same ${name}`).sort());
  expect(preview.requests).toEqual([]);
  expect(preview.warnings).toEqual([]);
  const before = JSON.stringify(on.outputs({ showSecrets: true }));
  const refresh = ok(await run(on.refresh(), on));
  expect(
    refresh.steps
      .filter((s) => names.includes(s.name))
      .map((s) => `${s.name} ${s.found}`)
      .sort(),
  ).toEqual(names.map((name) => `${name} same`).sort());
  expect(writes(refresh)).toEqual([]);
  expect(refresh.warnings).toEqual([]);
  expect(JSON.stringify(on.outputs({ showSecrets: true }))).toBe(before);
}

describe("Role through the local engine", () => {
  it("up creates the role: one POST, its password a secret output equal to the service's", async () => {
    const up = ok(await run(stack.up()));
    expect(ops(up, "app")).toEqual(["create app"]);
    expect(writes(up)).toEqual([`POST ${rolesPath()}`]);
    expect(up.outputs.password).toBe("[secret]");
    expect(outputs(stack)).toMatchObject({
      id: `${world.projectId}/${world.branches.dev}/app_user`,
      name: "app_user",
      noLogin: false,
      password: await reveal("app_user"),
    });
    await expectNoChange(stack, ["app"]);
  });

  it("a first passwordTriggers value is recorded: an update that sends nothing and warns of nothing", async () => {
    const before = outputs(stack).password;
    declared = { ...declared, passwordTriggers: ["v1"] };
    const up = ok(await run(stack.up()));
    expect(ops(up, "app")).toEqual(["update app"]);
    expect(writes(up)).toEqual([]);
    expect([...(up.preview?.diagnostics ?? []), ...up.diagnostics].filter((d) => d.severity === "warning")).toEqual([]);
    expect(outputs(stack).password).toBe(before);
    await expectNoChange(stack, ["app"]);
  });

  it("new passwordTriggers: the preview warns, the up sends one reset, the new password is recorded", async () => {
    const before = outputs(stack).password;
    declared = { ...declared, passwordTriggers: ["v2"] };
    const preview = ok(await run(stack.preview()));
    expect(ops(preview, "app")).toEqual(["update app"]);
    expect(preview.requests).toEqual([]);
    const id = `${world.projectId}/${world.branches.dev}/app_user`;
    expect(preview.warnings).toContainEqual(
      `Role app_user of branch ${world.branches.dev} (${id}) will get a new password (passwordTriggers changed): ` +
        `the computes of branch ${world.branches.dev} apply it, and their open connections will drop; clients ` +
        "still using the old password fail once the reset is in force: give them the new password output.",
    );
    const up = ok(await run(stack.up({ skipPreview: true })));
    expect(writes(up)).toEqual([`POST ${rolesPath()}/app_user/reset_password`]);
    const after = outputs(stack).password;
    expect(after).not.toBe(before);
    expect(after).toBe(await reveal("app_user"));
    await expectNoChange(stack, ["app"]);
  });

  it("a reset whose response is lost is settled by reading the password: one reset, the new password recorded", async () => {
    const before = outputs(stack).password;
    declared = { ...declared, passwordTriggers: ["v3"] };
    world.emulator.faults.add({ method: "POST", path: "/reset_password", kind: "ambiguous", times: 1 });
    const up = ok(await run(stack.up({ skipPreview: true })));
    world.emulator.faults.clear();
    expect(writes(up)).toEqual([`POST ${rolesPath()}/app_user/reset_password`]);
    expect(requests(up).map((r) => `${r.method} ${r.path}`)).toContain(`GET ${rolesPath()}/app_user/reveal_password`);
    expect(outputs(stack).password).not.toBe(before);
    expect(outputs(stack).password).toBe(await reveal("app_user"));
    await expectNoChange(stack, ["app"]);
  });

  it("removing passwordTriggers resets nothing, and a refresh never warns of a reset", async () => {
    const before = outputs(stack).password;
    declared = { name: "app_user" };
    const up = ok(await run(stack.up()));
    expect(ops(up, "app")).toEqual(["update app"]);
    expect(writes(up)).toEqual([]);
    expect(up.preview?.diagnostics.filter((d) => d.severity === "warning")).toEqual([]);
    expect(outputs(stack).password).toBe(before);
    await expectNoChange(stack, ["app"]);
  });

  it("a new name replaces the role: the new one is created first, then the old one deleted", async () => {
    const before = outputs(stack).password;
    declared = { name: "app_user2" };
    const up = ok(await run(stack.up()));
    expect(ops(up, "app")).toEqual(["create-replacement app", "delete-replaced app", "replace app"]);
    expect(writes(up)).toEqual([`POST ${rolesPath()}`, `DELETE ${rolesPath()}/app_user`]);
    expect(await roleNames()).toEqual(["app_user2", "neondb_owner"]);
    expect(outputs(stack).password).not.toBe(before);
    expect(outputs(stack).password).toBe(await reveal("app_user2"));
    await expectNoChange(stack, ["app"]);
  });

  it("noLogin replaces the role, deleting the old one first (its name is taken); it has no password", async () => {
    declared = { name: "app_user2", noLogin: true };
    const up = ok(await run(stack.up()));
    expect(ops(up, "app")).toEqual(["create-replacement app", "delete-replaced app", "replace app"]);
    // One warning, the delete-first one, which says that connections drop (it was three: also the Diff's and the
    // engine's second Check's "will be created").
    const warnings = up.preview?.diagnostics.filter((d) => d.severity === "warning" && d.message.startsWith("Role "));
    expect(warnings?.map((d) => d.message)).toEqual([
      expect.stringContaining("will be replaced (noLogin changed), the old role deleted first"),
    ]);
    expect(writes(up)).toEqual([`DELETE ${rolesPath()}/app_user2`, `POST ${rolesPath()}`]);
    expect(outputs(stack).noLogin).toBe(true);
    expect(outputs(stack).password).toBeNull();
    await expectNoChange(stack, ["app"]);
    declared = { name: "app_user2" };
    ok(await run(stack.up()));
    expect(outputs(stack).password).toBe(await reveal("app_user2"));
  });

  it("refresh drops a role deleted on the service, and the next up creates it again", async () => {
    await world.api.roles.delete(world.projectId, world.branches.dev, "app_user2");
    const refresh = ok(await run(stack.refresh()));
    expect(refresh.steps.find((s) => s.name === "app")).toMatchObject({ found: "delete" });
    expect(stack.state.resources.some((r) => r.urn.endsWith("::app"))).toBe(false);
    const up = ok(await run(stack.up()));
    expect(ops(up, "app")).toEqual(["create app"]);
    expect(outputs(stack).password).toBe(await reveal("app_user2"));
  });

  it("destroy of a role that owns a database is refused, naming the database; once it is gone, destroy deletes", async () => {
    await world.api.databases.create(world.projectId, world.branches.dev, {
      name: "made_aside",
      owner_name: "app_user2",
    });
    const refused = await run(stack.destroy());
    expect(refused.error?.message).toContain(
      `Neon refused to delete role app_user2 of branch ${world.branches.dev} (HTTP 422: role app_user2 owns database`,
    );
    expect(refused.error?.message).toContain(
      "it owns database made_aside, and a role that owns a database cannot be deleted. Delete it first, or give it " +
        "another owner",
    );
    expect(stack.state.resources.some((r) => r.urn.endsWith("::app"))).toBe(true);
    await world.api.databases.delete(world.projectId, world.branches.dev, "made_aside");
    ok(await run(stack.destroy()));
    expect(await roleNames()).toEqual(["neondb_owner"]);
  });

  it("a create whose response is lost makes no duplicate: the role is read back, its password revealed", async () => {
    world.emulator.faults.add({ method: "POST", path: /\/roles$/, kind: "ambiguous", times: 1 });
    const up = ok(await run(stack.up({ skipPreview: true })));
    world.emulator.faults.clear();
    expect(writes(up)).toEqual([`POST ${rolesPath()}`]);
    expect(requests(up).map((r) => `${r.method} ${r.path}`)).toContain(`GET ${rolesPath()}/app_user2/reveal_password`);
    expect(await roleNames()).toEqual(["app_user2", "neondb_owner"]);
    expect(outputs(stack).password).toBe(await reveal("app_user2"));
    await expectNoChange(stack, ["app"]);
    ok(await run(stack.destroy()));
  });

  it("check refuses a protected name and one over 63 bytes, naming the property, with no request", async () => {
    for (const [name, reason] of [
      ["neon_superuser", "is one of Neon's protected role names"],
      ["pg_reader", "must not start with pg_"],
      ["r".repeat(64), "must be at most 63 bytes long"],
    ]) {
      declared = { name };
      const preview = await run(stack.preview());
      expect(preview.error).toBeDefined();
      expect(preview.diagnostics.map((d) => d.message).join("\n")).toMatch(
        new RegExp(`property name value .* has a problem: ${reason}`),
      );
      expect(preview.requests).toEqual([]);
    }
    declared = { name: "app_user2" };
  });
});

describe("roles a child branch inherited", () => {
  let child: string;
  let inherited: LocalStack;
  let declareOwner = false;

  beforeAll(async () => {
    const made = await world.api.branches.create(world.projectId, { parent_id: world.branches.main, name: "child" });
    child = made.branch.id;
    inherited = world.stack(() => {
      const owner = getRolePasswordOutput({ projectId: world.projectId, branchId: child, roleName: "neondb_owner" });
      const out: Record<string, unknown> = { ownerPassword: owner.password };
      if (declareOwner)
        out.role = new Role("owner", { projectId: world.projectId, branchId: child, name: "neondb_owner" }).id;
      return out;
    });
  });
  afterAll(() => void texts.push(inherited.exportState()));

  it("declaring one fails before any create, saying the branch has it and to use getRolePasswordOutput", async () => {
    declareOwner = true;
    const up = await run(inherited.up(), inherited);
    declareOwner = false;
    expect(up.error?.message).toContain(
      `Branch ${child} of project ${world.projectId} already has a role named neondb_owner: it was inherited from ` +
        "the branch's parent",
    );
    expect(up.error?.message).toContain(
      `getRolePasswordOutput({ projectId: "${world.projectId}", branchId: "${child}", roleName: "neondb_owner" })`,
    );
    expect(writes(up)).toEqual([]);
  });

  it("getRolePasswordOutput reads its password, the parent's, as a secret", async () => {
    const up = ok(await run(inherited.up(), inherited));
    expect(up.outputs.ownerPassword).toBe("[secret]");
    const password = outputs(inherited).ownerPassword;
    seen.add(password);
    expect(password).toBe(await reveal("neondb_owner", world.branches.main));
    expect(requests(up).map((r) => `${r.method} ${r.path} ${r.status}`)).toContain(
      `GET ${rolesPath(child)}/neondb_owner/reveal_password 200`,
    );
  });

  it("getRolePassword: a role the branch lacks names it, the branch and its roles; 403 says what the key may do", async () => {
    // Programs that await getRolePassword: an error inside an Output's apply would escape the local engine.
    const reading = (projectId: string, branchId: string, roleName: string, apiKey: string) =>
      world.stack(() => getRolePassword({ projectId, branchId, roleName }).then(() => ({ read: true })), {
        config: { "neon:apiKey": { secret: apiKey } },
      });
    const missing = await run(reading(world.projectId, child, "nobody", world.emulator.apiKey).up());
    expect(missing.error?.message).toContain(
      `getRolePassword: branch ${child} of project ${world.projectId} has no role named nobody (HTTP 404`,
    );
    expect(missing.error?.message).toContain("its roles: neondb_owner");

    const { orgId, projectIds } = world.emulator.createOrganization({ projects: 2 });
    const scoped = await world.api.orgApiKeys.create(orgId, { key_name: "ci", project_id: projectIds[0] });
    const [other] = await world.api.branches.list(projectIds[1]);
    const refused = await run(reading(projectIds[1], other.id, "neondb_owner", scoped.key).up());
    expect(refused.error?.message).toContain("HTTP 403");
    expect(refused.error?.message).toContain(
      `the service refused to reveal the password of role neondb_owner of branch ${other.id} with neon:apiKey`,
    );
    expect(refused.error?.message).toContain("A project-scoped API key can use only its own project");
  });
});

describe("secrets", () => {
  it("no role password appears in plain text in the state, a diagnostic, the plugin's output or an error", async () => {
    for (const name of ["neondb_owner"]) seen.add(await reveal(name));
    expect(seen.size).toBeGreaterThanOrEqual(5);
    const haystacks = [stack.exportState(), ...texts];
    // The plugin's output is in the scan: with NEON_PROVIDER_DEBUG its request log reaches the diagnostics.
    expect(texts.some((text) => /neon: POST \/projects\/[^ ]+\/reset_password -> 200/.test(text))).toBe(true);
    const leaks = [...seen].filter((password) => haystacks.some((text) => text.includes(password)));
    expect(leaks).toEqual([]);
  });
});
