/**
 * `pulumi up --continue-on-error` with resources renamed in the program (their Pulumi names changed, the same `name`)
 * without an alias, through the real Pulumi CLI (v3.248.0) on a small `Pulumi.yaml` program, against the emulator
 * (docs/troubleshooting.md, "`--continue-on-error` and renamed resources"). Each rename is a create of the new name,
 * which fails (the service already has that role or database), and a delete of the old one, which
 * `--continue-on-error` carries out:
 * - a Database renamed: the database is deleted (with its data); the CLI exits 1; the next `up` creates an empty one;
 * - a Role renamed that another resource depends on (`dependsOn`) without owning anything of it: the role is deleted,
 *   the dependent is skipped and still names it in the state, so the CLI cannot save the state ("snapshot integrity
 *   failure"); with stack outputs (the program exports ids), it then panics (exit 2) and leaves its lock: the save of
 *   the outputs fails too, and with --continue-on-error that error path marks a step that is nil as failed
 *   (step_executor.go, executeRegisterResourceOutputs → cancelDueToError(err, nil) → step.Fail()). Without stack
 *   outputs it exited 1, without a panic, in the runs made. After `pulumi cancel`, `preview` refuses the state until
 *   `pulumi state repair`, and the next `up` creates the role again.
 */
import { Emulator, startEmulator } from "../../emulator";
import { NeonClient } from "../../client";
import { cliRootOrThrow } from "./cli-world";
import { ProgramDir, Run } from "./program-dir";

const PROJECT = "renamed";

let emulator: Emulator;
let api: NeonClient;
let cliRoot: string;

beforeAll(async () => {
  cliRoot = cliRootOrThrow();
  emulator = await startEmulator({ operationDurationMs: 20, rateLimit: false });
  api = new NeonClient({ apiKey: emulator.apiKey, apiUrl: emulator.baseUrl, rateLimit: false });
});
afterAll(() => emulator?.close());

/** A Role, a Database owned by another role, and a Database that depends on the Role; their resource names from config. */
const newProgramDir = () =>
  new ProgramDir({
    prefix: "continue",
    project: PROJECT,
    emulator,
    cliRoot,
    program: [
      `const pulumi = require("@pulumi/pulumi");`,
      `const { Database, Role } = require("pulumi-neon-dynamic");`,
      `const config = new pulumi.Config();`,
      `const projectId = config.require("projectId");`,
      `const branchId = config.require("branchId");`,
      `const owner = "neondb_owner";`,
      `const role = new Role(config.get("roleResource") || "app", { projectId, branchId, name: "app_user" });`,
      `const db = new Database(config.get("dbResource") || "db", { projectId, branchId, name: "appdb", ownerName: owner });`,
      `new Database("keep", { projectId, branchId, name: "keepdb", ownerName: owner }, { dependsOn: [role] });`,
      `exports.role = role.id;`,
      `exports.db = db.id;`,
    ],
  });

/** "METHOD /path status" of the writes of a run, the path after the branch. */
const writes = (run: Run) =>
  run.requests
    .filter((r) => r.method !== "GET")
    .map((r) => `${r.method} ${r.path.replace(/^\/projects\/[^/]+\/branches\/[^/]+/, "")} ${r.status}`);

/** "name <- dependencies" of the provider's resources in the stack's checkpoint. */
const stateOf = (dir: ProgramDir) => {
  const name = (urn: string) => urn.split("::").pop();
  return (dir.checkpoint().resources ?? [])
    .filter((r) => r.urn.includes("dynamic/neon:"))
    .map((r) => `${name(r.urn)} <- ${(r.dependencies ?? []).map(name).join(",")}`);
};

const UP = ["up", "--yes", "--skip-preview"];

it("the real CLI: up --continue-on-error deletes a renamed Database, and deletes a renamed Role then panics on the state; pulumi state repair recovers", async () => {
  const branchId = (await api.branches.create(emulator.projectId, { branch: { name: "renamed" } })).branch.id;
  const names = async () => ({
    roles: (await api.roles.list(emulator.projectId, branchId)).map((r) => r.name).sort(),
    databases: (await api.databases.list(emulator.projectId, branchId)).map((d) => d.name).sort(),
  });
  const dir = newProgramDir();
  try {
    await dir.ok(["stack", "init", "dev"]);
    await dir.ok(["config", "set", "--secret", "neon:apiKey", emulator.apiKey]);
    await dir.ok(["config", "set", "neon:apiUrl", emulator.baseUrl]);
    await dir.ok(["config", "set", "projectId", emulator.projectId]);
    await dir.ok(["config", "set", "branchId", branchId]);
    await dir.ok(UP);
    const appdb = (await api.databases.list(emulator.projectId, branchId)).find((d) => d.name === "appdb")?.id;

    // The Database renamed: the create fails, the old database is deleted; exit 1, no crash.
    await dir.ok(["config", "set", "dbResource", "db2"]);
    const dbRenamed = await dir.run([...UP, "--continue-on-error"]);
    expect(dbRenamed.code).toBe(1);
    expect(dbRenamed.stdout).toContain("already has a database named appdb");
    expect(dbRenamed.stderr).not.toContain("panic:");
    expect(writes(dbRenamed)).toEqual(["DELETE /databases/appdb 200"]);
    expect((await names()).databases).not.toContain("appdb");
    // The next up creates an empty database of that name (another id).
    expect(writes(await dir.ok(UP))).toEqual(["POST /databases 201"]);
    const again = (await api.databases.list(emulator.projectId, branchId)).find((d) => d.name === "appdb")?.id;
    expect(again).toBeDefined();
    expect(again).not.toBe(appdb);

    // The Role renamed: the create fails, "keep" (dependsOn the role) is skipped, the old role is deleted; the state
    // would keep keep's dependency on it, so the CLI cannot save it and panics, leaving its lock.
    await dir.ok(["config", "set", "roleResource", "app2"]);
    const roleRenamed = await dir.run([...UP, "--continue-on-error"]);
    expect(roleRenamed.code).toBe(2);
    expect(roleRenamed.stdout).toContain("already has a role named app_user");
    expect(roleRenamed.stdout).toContain(
      `snapshot integrity failure; it was already written, but is invalid (backup available at .pulumi/stacks/${PROJECT}/dev.json.bak): ` +
        `resource urn:pulumi:dev::${PROJECT}::pulumi-nodejs:dynamic/neon:Database::keep refers to missing dependency ` +
        `urn:pulumi:dev::${PROJECT}::pulumi-nodejs:dynamic/neon:Role::app`,
    );
    expect(roleRenamed.stderr).toContain("panic: runtime error: invalid memory address or nil pointer dereference");
    expect(writes(roleRenamed)).toEqual(["DELETE /roles/app_user 200"]);
    expect((await names()).roles).not.toContain("app_user");
    expect(stateOf(dir)).toContain("keep <- app");

    const locked = await dir.run(UP);
    expect(locked.stderr).toContain("the stack is currently locked by 1 lock(s)");
    await dir.ok(["cancel", "--yes"]);
    const refused = await dir.run(["preview"]);
    expect(refused.code).not.toBe(0);
    expect(refused.stdout + refused.stderr).toContain("The Pulumi CLI encountered a snapshot integrity error");
    expect(writes(refused)).toEqual([]);

    // `pulumi state repair` drops the dangling dependency; the next up creates the role again (a new password).
    const repaired = await dir.ok(["state", "repair", "--yes"]);
    expect(repaired.stdout + repaired.stderr).toContain("State repaired successfully");
    expect(stateOf(dir)).toContain("keep <- ");
    expect(writes(await dir.ok(UP))).toEqual(["POST /roles 201"]);
    expect(stateOf(dir)).toContain("keep <- app2");
    expect(await names()).toMatchObject({ roles: expect.arrayContaining(["app_user"]) });
  } finally {
    await dir.dispose();
  }
});
