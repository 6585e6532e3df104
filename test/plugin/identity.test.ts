/**
 * Roles and databases are addressed by name, and a name can pass to another object outside Pulumi (a blue/green swap:
 * ours renamed, a new one given the old name; or ours deleted and another made under its name). Through the local
 * engine and the real plugin against the emulator: every write (PATCH, DELETE, password reset) first confirms that the
 * object under the state's name is ours (its id, its creation time): the other one is never changed or deleted, ours
 * is acted on under its new name or treated as gone, and the user is told. Also: a resource renamed in the program
 * without an alias is refused with the alias advice first (it keeps the data).
 */
import type { Database as ServiceDatabase } from "../../client";
import { Database, DatabaseArgs, Role, RoleArgs } from "../../provider";
import { LocalStack } from "../../testing";
import { neonWorld, NeonWorld, ok, requests, writes } from "./world";

let world: NeonWorld;
beforeAll(async () => {
  world = await neonWorld();
});
afterAll(() => world.stop());

const databasesPath = () => `/projects/${world.projectId}/branches/${world.branches.dev}/databases`;
const rolesPath = () => `/projects/${world.projectId}/branches/${world.branches.dev}/roles`;
const databaseNamed = async (name: string): Promise<ServiceDatabase | undefined> =>
  (await world.api.databases.list(world.projectId, world.branches.dev)).find((d) => d.name === name);

/** The writes of a command to one path (`METHOD path`), whatever their status. */
const writesTo = (result: Parameters<typeof requests>[0], path: string) =>
  requests(result)
    .filter((r) => r.method !== "GET" && r.path === path)
    .map((r) => `${r.method} ${r.path}`);

/** A stack of one owner Role and one Database on dev, the database's inputs and presence as `declared` says. */
function databaseStack(resource: string, owner: string, declared: { db?: Partial<DatabaseArgs> & { name: string } }) {
  return world.stack(() => {
    const projectId = world.projectId;
    const branchId = world.branches.dev;
    const role = new Role(`${resource}-owner`, { projectId, branchId, name: owner });
    if (declared.db) new Database(resource, { projectId, branchId, ownerName: role.name, ...declared.db });
  });
}

/** Over HTTP, as a blue/green swap does: `name` renamed `<name>_blue`, and a new database given `name`. */
async function blueGreenSwap(name: string, owner: string): Promise<{ ours: ServiceDatabase; green: ServiceDatabase }> {
  const ours = (await databaseNamed(name))!;
  await world.api.databases.update(world.projectId, world.branches.dev, name, { name: `${name}_blue` });
  const body = { name, owner_name: owner };
  return { ours, green: (await world.api.databases.create(world.projectId, world.branches.dev, body)).database };
}

describe("a Database whose old name another database took (blue/green swap outside Pulumi)", () => {
  let stack: LocalStack;
  const declared: { db?: Partial<DatabaseArgs> & { name: string } } = { db: { name: "shop" } };

  it("an owner change goes to ours under its new name; the other database is untouched, and the user is told", async () => {
    stack = databaseStack("shop", "shop_owner", declared);
    ok(await stack.up({ skipPreview: true }));
    const { ours, green } = await blueGreenSwap("shop", "shop_owner");
    declared.db = { name: "shop", ownerName: "neondb_owner" };
    const up = ok(await stack.up({ skipPreview: true }));
    expect(writesTo(up, `${databasesPath()}/shop`)).toEqual([]);
    expect(writes(up)).toEqual([`PATCH ${databasesPath()}/shop_blue`]);
    expect(await databaseNamed("shop")).toEqual(green);
    expect(await databaseNamed("shop_blue")).toMatchObject({ id: ours.id, owner_name: "neondb_owner" });
    expect(up.warnings.join("\n")).toContain(
      `Database shop (id ${ours.id}) of branch ${world.branches.dev} was renamed outside Pulumi to shop_blue, and ` +
        `the database now named shop (id ${green.id}) is another one, left untouched`,
    );
  });

  it("removing it deletes ours under its new name; the other database is untouched", async () => {
    const green = (await databaseNamed("shop"))!;
    delete declared.db;
    const up = ok(await stack.up());
    expect(writesTo(up, `${databasesPath()}/shop`)).toEqual([]);
    expect(writes(up)).toEqual([`DELETE ${databasesPath()}/shop_blue`]);
    expect(await databaseNamed("shop")).toEqual(green);
    expect(await databaseNamed("shop_blue")).toBeUndefined();
  });

  it("a swap just before the removal: ours deleted under its new name, the other untouched, the user told", async () => {
    const swapped = databaseStack("cart", "cart_owner", { db: { name: "cart" } });
    ok(await swapped.up({ skipPreview: true }));
    const { ours, green } = await blueGreenSwap("cart", "neondb_owner");
    const destroy = ok(await swapped.destroy({ skipPreview: true }));
    expect(writesTo(destroy, `${databasesPath()}/cart`)).toEqual([]);
    expect(writes(destroy)[0]).toBe(`DELETE ${databasesPath()}/cart_blue`);
    expect(await databaseNamed("cart")).toEqual(green);
    expect(destroy.warnings.join("\n")).toContain(`was renamed outside Pulumi to cart_blue`);
    expect(ours.id).not.toBe(green.id);
  });

  const declaredGone: { db?: Partial<DatabaseArgs> & { name: string } } = { db: { name: "ledger" } };
  let gone: LocalStack;
  let other: ServiceDatabase;

  it("ours deleted and its name given to another: the owner change is refused, nothing is sent to it", async () => {
    gone = databaseStack("ledger", "ledger_owner", declaredGone);
    ok(await gone.up({ skipPreview: true }));
    const ours = (await databaseNamed("ledger"))!;
    await world.api.databases.delete(world.projectId, world.branches.dev, "ledger");
    other = (
      await world.api.databases.create(world.projectId, world.branches.dev, {
        name: "ledger",
        owner_name: "ledger_owner",
      })
    ).database;
    declaredGone.db = { name: "ledger", ownerName: "neondb_owner" };
    const refused = await gone.up({ skipPreview: true });
    expect(refused.error?.message).toContain(
      `Database ledger (id ${ours.id}) no longer exists on branch ${world.branches.dev}`,
    );
    expect(refused.error?.message).toContain(`the database now named ledger (id ${other.id}) is another one`);
    expect(writesTo(refused, `${databasesPath()}/ledger`)).toEqual([]);
    expect(await databaseNamed("ledger")).toEqual(other);
  });

  it("then its removal deletes nothing, and says so", async () => {
    delete declaredGone.db;
    const removal = ok(await gone.up({ skipPreview: true }));
    expect(writesTo(removal, `${databasesPath()}/ledger`)).toEqual([]);
    expect(removal.warnings.join("\n")).toContain(`the database now named ledger (id ${other.id}) is another one`);
    expect(await databaseNamed("ledger")).toEqual(other);
  });
});

describe("a Role whose name another role took (deleted and made again outside Pulumi)", () => {
  const declared: { role?: Omit<RoleArgs, "projectId" | "branchId"> } = {
    role: { name: "swap_user", passwordTriggers: ["v1"] },
  };
  let stack: LocalStack;
  let other: { password: string; createdAt: string };

  it("a password reset is refused: the other role's password stays, nothing is sent", async () => {
    stack = world.stack(() => {
      if (declared.role)
        new Role("swap", { projectId: world.projectId, branchId: world.branches.dev, ...declared.role });
    });
    ok(await stack.up());
    await world.api.roles.delete(world.projectId, world.branches.dev, "swap_user");
    const made = (await world.api.roles.create(world.projectId, world.branches.dev, { name: "swap_user" })).role;
    other = { password: made.password!, createdAt: made.created_at };
    declared.role = { name: "swap_user", passwordTriggers: ["v2"] };
    const refused = await stack.up();
    expect(refused.error?.message).toContain(`Role swap_user no longer exists on branch ${world.branches.dev}`);
    expect(refused.error?.message).toContain(
      `the role now named swap_user (created ${other.createdAt}) is another one, left untouched`,
    );
    expect(writesTo(refused, `${rolesPath()}/swap_user/reset_password`)).toEqual([]);
    expect(await world.api.roles.revealPassword(world.projectId, world.branches.dev, "swap_user")).toBe(other.password);
  });

  it("removing it deletes nothing: the other role stays, and the user is told", async () => {
    delete declared.role;
    const up = ok(await stack.up());
    expect(writesTo(up, `${rolesPath()}/swap_user`)).toEqual([]);
    expect(up.warnings.join("\n")).toContain(
      `the role now named swap_user (created ${other.createdAt}) is another one, left untouched`,
    );
    const role = await world.api.roles.get(world.projectId, world.branches.dev, "swap_user");
    expect(role.created_at).toBe(other.createdAt);
    expect(await world.api.roles.revealPassword(world.projectId, world.branches.dev, "swap_user")).toBe(other.password);
    await world.api.roles.delete(world.projectId, world.branches.dev, "swap_user");
  });
});

describe.each(["Role", "Database"])("a %s renamed in the program without an alias", (kind) => {
  const names = { resource: `keep-${kind.toLowerCase()}`, aliases: [] as string[] };
  const old = names.resource;
  let stack: LocalStack;

  beforeAll(() => {
    stack = world.stack(() => {
      const projectId = world.projectId;
      const branchId = world.branches.dev;
      const opts = { aliases: names.aliases.map((name) => ({ name })) };
      if (kind === "Role") new Role(names.resource, { projectId, branchId, name: `kept_${kind}` }, opts);
      else new Database(names.resource, { projectId, branchId, name: `kept_${kind}`, ownerName: "neondb_owner" }, opts);
    });
  });

  it("is refused offering aliases first (before any advice to delete it or leave it out); nothing is sent", async () => {
    ok(await stack.up({ skipPreview: true }));
    names.resource = `${old}-renamed`;
    const refused = await stack.up({ skipPreview: true });
    const message = refused.error?.message ?? "";
    expect(message).toContain('aliases: [{ name: "<its old resource name>" }]');
    expect(message.indexOf("aliases")).toBeLessThan(message.search(/remove this|Leave it out|delete it/));
    expect(writes(refused)).toEqual([]);
  });

  it("with the alias the advice names, it keeps its object: nothing is sent", async () => {
    names.aliases = [old];
    const up = ok(await stack.up({ skipPreview: true }));
    expect(writes(up)).toEqual([]);
    ok(await stack.destroy({ skipPreview: true }));
  });
});
