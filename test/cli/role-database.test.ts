/**
 * Role, Database and getRolePasswordOutput through the real Pulumi CLI (`CliStack`: the Automation API, an inline
 * program, a file backend of its own) against the emulator: create, the no-change check (a preview of only `same`
 * steps that sends nothing but the program's own read of a password, a refresh that finds nothing), a password reset by
 * passwordTriggers (the preview warns, one reset, a new password), the inherited owner's password read with
 * getRolePasswordOutput (its parent's), destroy; and no role password in plain text in `pulumi stack export` or in
 * anything the CLI printed (the plugin's request log included: NEON_PROVIDER_DEBUG).
 */
import { getRolePasswordOutput, Database, Role } from "../../provider";
import { CommandResult } from "../../testing";
import { CliStack, CliStackOptions } from "../../testing/cli-stack";
import { REPO_ROOT } from "../plugin/world";
import { cliWorld, CliWorld, expectNoChange, ok, ops, outputsOf, writes } from "./cli-world";

let world: CliWorld;

beforeAll(async () => {
  world = await cliWorld();
});
afterAll(() => world?.stop());

/** A CliStack that keeps what the CLI printed in each of its runs. */
class TranscribedCliStack extends CliStack {
  readonly printed: string[] = [];

  constructor(options: CliStackOptions) {
    super(options);
    const self = this as unknown as { run: (...args: unknown[]) => Promise<{ output: string; error?: Error }> };
    const run = self.run.bind(this);
    self.run = async (...args: unknown[]) => {
      const result = await run(...args);
      this.printed.push(result.output, result.error ? `${result.error.message}\n${result.error.stack}` : "");
      return result;
    };
  }
}

/** The program's own read of a password (getRolePasswordOutput runs in every preview): not a change. */
const PROGRAM_READS = /^GET \/projects\/[^ ]+\/roles\/neondb_owner\/reveal_password 200$/;

describe("Role and Database through the real Pulumi CLI", () => {
  it("create, the no-change check, a password reset, getRolePasswordOutput, destroy; no password in plain text", async () => {
    const declared: { passwordTriggers?: string[] } = { passwordTriggers: ["v1"] };
    const { projectId } = world;
    const branchId = world.branches.dev;
    const stack = new TranscribedCliStack({
      program: () => {
        const role = new Role("app", { projectId, branchId, name: "app_user", ...declared });
        const db = new Database("db", { projectId, branchId, name: "appdb", ownerName: role.name });
        const owner = getRolePasswordOutput({ projectId, branchId, roleName: "neondb_owner" });
        return { rolePassword: role.password, ownerPassword: owner.password, database: db.name };
      },
      cliRoot: world.cliRoot,
      cwd: REPO_ROOT,
      requestLog: world.emulator,
      env: { ...process.env, NEON_API_KEY: "", NEON_API_HOST: "", NEON_PROVIDER_DEBUG: "1" },
      config: { "neon:apiKey": { secret: world.emulator.apiKey }, "neon:apiUrl": world.emulator.baseUrl },
    });
    const results: CommandResult[] = [];
    const exports: string[] = [];
    const passwords = new Set<string>();
    const keep = async (result: CommandResult) => {
      results.push(ok(result));
      exports.push(await stack.exportState());
      const shown = await outputsOf(stack);
      for (const name of ["rolePassword", "ownerPassword"])
        if (typeof shown[name] === "string") passwords.add(shown[name] as string);
      return result;
    };
    const rolesPath = `/projects/${projectId}/branches/${branchId}/roles`;
    const reveal = (name: string, branch = branchId) => world.api.roles.revealPassword(projectId, branch, name);
    try {
      const up = await keep(await stack.up());
      expect(ops(up)).toEqual(["create app", "create db"]);
      expect(writes(up)).toEqual([`POST ${rolesPath}`, `POST /projects/${projectId}/branches/${branchId}/databases`]);
      expect(up.outputs).toMatchObject({ rolePassword: "[secret]", ownerPassword: "[secret]", database: "appdb" });
      const first = await outputsOf(stack);
      expect(first.rolePassword).toBe(await reveal("app_user"));
      // dev was made from main: its neondb_owner has main's password.
      expect(first.ownerPassword).toBe(await reveal("neondb_owner", world.branches.main));
      await expectNoChange(stack, { programReads: PROGRAM_READS });

      declared.passwordTriggers = ["v2"];
      const preview = await keep(await stack.preview());
      expect(preview.warnings.join("\n")).toContain(
        `Role app_user of branch ${branchId} (${projectId}/${branchId}/app_user) will get a new password ` +
          `(passwordTriggers changed): the computes of branch ${branchId} apply it, and their open connections will drop`,
      );
      const reset = await keep(await stack.up({ skipPreview: true }));
      expect(writes(reset)).toEqual([`POST ${rolesPath}/app_user/reset_password`]);
      const second = await outputsOf(stack);
      expect(second.rolePassword).not.toBe(first.rolePassword);
      expect(second.rolePassword).toBe(await reveal("app_user"));
      await expectNoChange(stack, { programReads: PROGRAM_READS });

      // A reset outside Pulumi (the console): a refresh, then an up (`pulumi up --refresh`), records its password.
      const { role } = await world.api.roles.resetPassword(projectId, branchId, "app_user");
      await keep(await stack.refresh({ skipPreview: true }));
      const refreshed = await keep(await stack.up({ skipPreview: true }));
      expect(writes(refreshed)).toEqual([]);
      expect((await outputsOf(stack)).rolePassword).toBe(role.password);

      const destroy = await keep(await stack.destroy({ skipPreview: true }));
      expect(writes(destroy)).toEqual([
        `DELETE /projects/${projectId}/branches/${branchId}/databases/appdb`,
        `DELETE ${rolesPath}/app_user`,
      ]);

      expect(passwords.size).toBe(4);
      expect(exports.slice(0, -1).every((text) => text.includes('"ciphertext"'))).toBe(true);
      expect(stack.printed.some((text) => /neon: POST \S+\/reset_password -> 200/.test(text))).toBe(true);
      const haystacks = [
        ...exports.map((text, i) => ({ where: `pulumi stack export #${i}`, text })),
        ...stack.printed.map((text, i) => ({ where: `CLI output #${i}`, text })),
        ...results.map((result, i) => ({
          where: `${result.command} #${i}`,
          text: JSON.stringify({ ...result, requests: undefined }),
        })),
      ];
      const leaks = haystacks.flatMap(({ where, text }) =>
        [...passwords].filter((password) => text.includes(password)).map(() => where),
      );
      expect(leaks).toEqual([]);
    } catch (error) {
      await stack.destroy({ skipPreview: true }).catch(() => undefined);
      throw error;
    } finally {
      await stack.dispose();
    }
  });
});
