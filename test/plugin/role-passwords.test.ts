/**
 * A Role's password kept true, and its changes said, through the local engine and the real plugin against the
 * emulator: the preview warns of every role change that drops the branch's connections (a create, a replacement's
 * create, a reset: OpenAPI createProjectBranchRole, resetProjectBranchRolePassword); a refresh after a reset made
 * outside Pulumi records the new password (`same` before); a project whose reveal is refused loses no password
 * silently, and the advice then given works; a reset whose answer was lost is sent once under each plausible service
 * (reveal shows the new password at once, or the old one until the reset's operations finish).
 */
import { Branch, Role, RoleArgs } from "../../provider";
import { CommandResult, LocalStack } from "../../testing";
import { EmulatorOptions } from "../../emulator";
import { neonWorld, NeonWorld, ok, ops, outputs, requests, writes } from "./world";

/** Per test: each runs several commands, each a new plugin process (the machine is shared). */
const LONG = 240_000;

type Declared = Omit<RoleArgs, "projectId" | "branchId">;

/** A world with one Role, whose declaration the test changes, and the texts its commands reported. */
async function roleWorld(emulator: EmulatorOptions = {}) {
  const world = await neonWorld({ emulator });
  const holder: { declared: Declared } = { declared: { name: "app_user" } };
  const stack = world.stack(() => {
    const role = new Role("app", { projectId: world.projectId, branchId: world.branches.main, ...holder.declared });
    // null, not undefined, while the password is unknown: Pulumi warns of an undefined stack output on the console
    return { password: role.password.apply((value) => value ?? null), updatedAt: role.updatedAt };
  });
  return { world, stack, holder };
}

const warningsOf = (result: CommandResult & { preview?: { diagnostics: CommandResult["diagnostics"] } }) =>
  [...(result.preview?.diagnostics ?? []), ...result.diagnostics]
    .filter((d) => d.severity === "warning")
    .map((d) => d.message.trim());

const rolesPath = (world: NeonWorld) => `/projects/${world.projectId}/branches/${world.branches.main}/roles`;

/** A preview and a refresh that change nothing, and send no write. */
async function expectNoChange(stack: LocalStack): Promise<void> {
  const preview = ok(await stack.preview());
  expect(ops(preview, "app")).toEqual(["same app"]);
  const before = JSON.stringify(outputs(stack));
  const refresh = ok(await stack.refresh());
  expect(refresh.steps.find((s) => s.name === "app")?.found).toBe("same");
  expect(writes(refresh)).toEqual([]);
  expect(JSON.stringify(outputs(stack))).toBe(before);
}

describe("Role passwords and warnings (the service as it is)", () => {
  let w: Awaited<ReturnType<typeof roleWorld>>;
  beforeAll(async () => void (w = await roleWorld()));
  afterAll(() => w.world.stop());

  it(
    "a create's preview warns that the branch's connections drop (OpenAPI: creating a role drops them)",
    async () => {
      const { world, stack } = w;
      const preview = ok(await stack.preview());
      expect(ops(preview, "app")).toEqual(["create app"]);
      expect(preview.warnings).toContainEqual(
        `Role app_user of branch ${world.branches.main} will be created: the computes of branch ` +
          `${world.branches.main} apply it, and their open connections will drop.`,
      );
      ok(await stack.up({ skipPreview: true }));
    },
    LONG,
  );

  it(
    "a reset's preview says the branch's connections drop, besides the clients of the old password",
    async () => {
      const { world, stack, holder } = w;
      holder.declared = { name: "app_user", passwordTriggers: ["v1"] };
      ok(await stack.up());
      holder.declared = { name: "app_user", passwordTriggers: ["v2"] };
      const preview = ok(await stack.preview());
      const id = `${world.projectId}/${world.branches.main}/app_user`;
      expect(preview.warnings).toContainEqual(
        `Role app_user of branch ${world.branches.main} (${id}) will get a new password (passwordTriggers changed): ` +
          `the computes of branch ${world.branches.main} apply it, and their open connections will drop; clients ` +
          `still using the old password fail once the reset is in force: give them the new password output.`,
      );
      ok(await stack.up({ skipPreview: true }));
    },
    LONG,
  );

  it(
    "a new name's preview warns of the new role's create on the branch",
    async () => {
      const { world, stack, holder } = w;
      holder.declared = { name: "app_user2", passwordTriggers: ["v2"] };
      const preview = ok(await stack.preview());
      expect(ops(preview, "app")).toEqual(["create-replacement app", "delete-replaced app", "replace app"]);
      // Once: the engine checks a replacement's inputs again with no old inputs, which is no second create.
      expect(preview.warnings.filter((w) => w.includes("will be created"))).toEqual([
        `Role app_user2 of branch ${world.branches.main} will be created (replacing ` +
          `${world.projectId}/${world.branches.main}/app_user: name changed): the computes of branch ` +
          `${world.branches.main} apply it, and their open connections will drop.`,
      ]);
      ok(await stack.up({ skipPreview: true }));
    },
    LONG,
  );

  it(
    "refresh after a reset made outside Pulumi records the new password, a secret, and then finds nothing",
    async () => {
      const { world, stack } = w;
      const before = outputs(stack).password;
      const { role } = await world.api.roles.resetPassword(world.projectId, world.branches.main, "app_user2");
      expect(role.password).not.toBe(before);
      // The step says `same`: the engine decides it by a Diff of the inputs, and a password is no input.
      const refresh = ok(await stack.refresh());
      expect(requests(refresh).map((r) => `${r.method} ${r.path}`)).toContain(
        `GET ${rolesPath(world)}/app_user2/reveal_password`,
      );
      // What `pulumi up --refresh` does: the program then reads the refreshed password; the up sends nothing.
      const up = ok(await stack.up());
      expect(writes(up)).toEqual([]);
      expect(outputs(stack).password).toBe(role.password);
      expect(stack.exportState()).not.toContain(String(role.password));
      await expectNoChange(stack);
      ok(await stack.destroy());
    },
    LONG,
  );
});

describe("a Role on a branch the same update creates", () => {
  it(
    "warns of no dropped connections, in the preview (the branch unknown) or the update (created by this process)",
    async () => {
      const world = await neonWorld();
      try {
        const stack = world.stack(() => {
          const branch = new Branch("feature", { projectId: world.projectId, parentId: world.branches.main });
          const role = new Role("app", { projectId: world.projectId, branchId: branch.id, name: "app_user" });
          return { role: role.name };
        });
        const up = ok(await stack.up());
        expect(ops(up, "feature", "app").sort()).toEqual(["create app", "create feature"]);
        expect(warningsOf(up).filter((w) => w.includes("connections will drop"))).toEqual([]);
        ok(await stack.destroy());
      } finally {
        await world.stop();
      }
    },
    LONG,
  );
});

describe("Role passwords when the project stores none (reveal_password answers 412)", () => {
  let w: Awaited<ReturnType<typeof roleWorld>>;
  beforeAll(async () => void (w = await roleWorld({ storePasswords: false })));
  afterAll(() => w.world.stop());

  it(
    "a lost create's advice works: the first passwordTriggers value resets the password it could not read",
    async () => {
      const { world, stack, holder } = w;
      world.emulator.faults.add({ method: "POST", path: /\/roles$/, kind: "ambiguous", times: 1 });
      const up = ok(await stack.up({ skipPreview: true }));
      world.emulator.faults.clear();
      expect(outputs(stack).password).toBeNull();
      expect(warningsOf(up).join("\n")).toContain(
        "so the password output is empty: set passwordTriggers (or give it a new value) to reset it",
      );
      holder.declared = { name: "app_user", passwordTriggers: ["first"] };
      const reset = ok(await stack.up());
      expect(writes(reset)).toEqual([`POST ${rolesPath(world)}/app_user/reset_password`]);
      expect(outputs(stack).password).toMatch(/^[A-Za-z0-9]{12}$/);
      await expectNoChange(stack);
    },
    LONG,
  );

  it(
    "refresh after a reset made outside Pulumi drops the stale password, saying what to do, and that works",
    async () => {
      const { world, stack, holder } = w;
      const { role } = await world.api.roles.resetPassword(world.projectId, world.branches.main, "app_user");
      const refresh = ok(await stack.refresh());
      ok(await stack.up());
      expect(outputs(stack).password).toBeNull();
      expect(refresh.warnings.join("\n")).toContain(
        `Role app_user of branch ${world.branches.main} changed on the service since the state was written, and its ` +
          `password could not be read (HTTP 412: Storing passwords is disabled`,
      );
      expect(refresh.warnings.join("\n")).toContain("set passwordTriggers (or give it a new value) to reset it");
      holder.declared = { name: "app_user", passwordTriggers: ["second"] };
      const reset = ok(await stack.up());
      expect(writes(reset)).toEqual([`POST ${rolesPath(world)}/app_user/reset_password`]);
      expect(outputs(stack).password).toMatch(/^[A-Za-z0-9]{12}$/);
      expect(outputs(stack).password).not.toBe(role.password);
      await expectNoChange(stack);
      ok(await stack.destroy());
    },
    LONG,
  );
});

describe.each(["new", "old"] as const)("a lost reset answer when reveal shows the %s password meanwhile", (shows) => {
  let w: Awaited<ReturnType<typeof roleWorld>>;
  // On main, which has a compute: the reset runs operations, long enough that the provider reveals while they run.
  beforeAll(async () => void (w = await roleWorld({ revealAfterReset: shows, operationDurationMs: 500 })));
  afterAll(() => w.world.stop());

  it(
    "is sent once, and the new password recorded",
    async () => {
      const { world, stack, holder } = w;
      holder.declared = { name: "app_user", passwordTriggers: ["v1"] };
      ok(await stack.up({ skipPreview: true }));
      holder.declared = { name: "app_user", passwordTriggers: ["v2"] };
      world.emulator.faults.add({ method: "POST", path: "/reset_password", kind: "ambiguous", times: 1 });
      const up = ok(await stack.up({ skipPreview: true }));
      world.emulator.faults.clear();
      expect(writes(up)).toEqual([`POST ${rolesPath(world)}/app_user/reset_password`]);
      const now = await world.api.roles.revealPassword(world.projectId, world.branches.main, "app_user");
      expect(outputs(stack).password).toBe(now);
      await expectNoChange(stack);
      ok(await stack.destroy());
    },
    LONG,
  );
});
