/**
 * Key rotation, through the real Pulumi CLI:
 * - an ApiKey whose `keyName` changes is replaced, the new key created before the old one is revoked;
 * - `neon:apiKey` rotated and the old key revoked: `refresh` and `destroy` (configured from the config saved by the
 *   last `up`) fail with 401 and say what to do, losing nothing; an `up` (sending nothing) saves the new key, then
 *   refresh and destroy work; or `destroy --run-program` works at once (README, "After rotating the key").
 * Each runs on the real CLI (asserted), then on the model of the engine (`LocalStack`), whose transcript must equal the
 * CLI's except for the disagreements recorded here.
 */
import axios from "axios";
import { ApiKey, Compute } from "../../provider";
import {
  AnyStack,
  checkNoChange,
  cliWorld,
  CliWorld,
  compareWithModel,
  computesOn,
  Engine,
  ok,
  outputsOf,
  requests,
  runOn,
  stateIds,
  writes,
} from "./cli-world";

let world: CliWorld;
beforeAll(async () => {
  world = await cliWorld();
});
afterAll(() => world?.stop());

const replica = (branch: string) =>
  new Compute("db", { projectId: world.projectId, branchId: branch, type: "read_only" });

/** The HTTP status the service answers a key with (200: it works; 401: revoked). */
async function statusWith(key: string): Promise<number> {
  const response = await axios.get(`${world.emulator.baseUrl}/api_keys`, {
    headers: { Authorization: `Bearer ${key}` },
    validateStatus: () => true,
  });
  return response.status;
}

/**
 * The engine's own prefix on an error from a provider call made during a preview (the CLI's refresh fails in its
 * preview, which reads too): the model reports the provider's message alone.
 */
const withoutPreviewPrefix = (errors: unknown) => (errors as string[]).map((e) => e.replace(/^Preview failed: /, ""));

describe("key rotation, through the real CLI", () => {
  const branch = () => world.branches.staging;
  const declared = { keyName: "ci" };
  const program = () => {
    const key = new ApiKey("ci", { keyName: declared.keyName });
    return { id: replica(branch()).id, keyId: key.keyId, key: key.key };
  };

  /** neon:apiKey rotated: a second key of the account, the first revoked, the stack config set to the second. */
  async function rotate(stack: AnyStack, first: { id: number }): Promise<string> {
    const second = await world.api.apiKeys.create({ key_name: "rotating-2" });
    await world.api.apiKeys.revoke(first.id);
    stack.setConfig({ "neon:apiKey": { secret: second.key } });
    return second.key;
  }

  it("a new keyName replaces the ApiKey (new before old); after neon:apiKey is rotated, refresh and destroy fail saying what to do, an up saves the new key, then destroy works", async () => {
    const scenario = async (engine: Engine) => {
      declared.keyName = "ci";
      const first = await world.api.apiKeys.create({ key_name: "rotating" });
      const keys: string[] = [first.key];
      const transcript = await runOn(
        world,
        engine,
        program,
        { config: { "neon:apiKey": { secret: first.key } } },
        async (stack, t) => {
          t.command("first up", ok(await stack.up({ skipPreview: true })));
          await checkNoChange(stack, t, engine, "after first up");
          const firstCi = await outputsOf(stack);
          keys.push(String(firstCi.key));

          // keyName changes: the new key is created, then the old one revoked.
          declared.keyName = "ci-2";
          const rotated = t.command("new keyName", ok(await stack.up()));
          const now = await outputsOf(stack);
          keys.push(String(now.key));
          expect(writes(rotated)).toEqual(["POST /api_keys", `DELETE /api_keys/${firstCi.keyId}`]);
          expect(await statusWith(String(firstCi.key))).toBe(401);
          expect(await statusWith(String(now.key))).toBe(200);
          expect(now.id).toBe(firstCi.id);
          await checkNoChange(stack, t, engine, "after new keyName");

          // neon:apiKey rotated, the old key revoked.
          keys.push(await rotate(stack, first));
          const refresh = t.command("refresh after rotation", await stack.refresh());
          expect(refresh.error?.message).toMatch(/HTTP 401/);
          expect(refresh.error?.message).toContain("run `pulumi up` once with the new key");
          expect(writes(refresh)).toEqual([]);
          const destroy = t.command("destroy after rotation", await stack.destroy());
          expect(destroy.error?.message).toMatch(/HTTP 401/);
          expect(destroy.error?.message).toContain("`pulumi destroy --run-program`");
          // Nothing lost: both resources in state, on the service, the CI key working.
          expect(await stateIds(stack, "db")).toEqual([now.id]);
          expect(await stateIds(stack, "ci")).toEqual([String(now.keyId)]);
          expect(await computesOn(world, branch())).toEqual([now.id]);
          expect(await statusWith(String(now.key))).toBe(200);

          // An up with the new key changes nothing, sends nothing, and saves the key for refresh and destroy.
          const saved = t.command("up with the new key", ok(await stack.up()));
          expect(saved.requests).toEqual([]);
          await checkNoChange(stack, t, engine, "after up with the new key");
          const destroyed = t.command("destroy", ok(await stack.destroy()));
          expect(requests(destroyed).filter((r) => r.status >= 400)).toEqual([]);
          expect(await computesOn(world, branch())).toEqual([]);
          expect(await statusWith(String(now.key))).toBe(401);
          expect(await stateIds(stack, "db")).toEqual([]);
          for (const key of keys) expect(await exported(stack)).not.toContain(key);
        },
      );
      return transcript;
    };
    const cli = await scenario("cli");
    expect(cli.entries["new keyName: preview steps"]).toEqual([
      "create-replacement ci",
      "replace ci",
      "delete-replaced ci",
      "same db",
    ]);
    expect(cli.entries["new keyName: steps"]).toEqual([
      "create-replacement ci",
      "replace ci",
      "delete-replaced ci",
      "same db",
    ]);
    expect(cli.entries["destroy after rotation: steps"]).toEqual(["delete ci", "delete db"]);
    expect(cli.entries["destroy after rotation: failed"]).toEqual(expect.arrayContaining(["delete ci", "delete db"]));
    expect(cli.entries["up with the new key: steps"]).toEqual(["same ci", "same db"]);
    const model = await scenario("model");
    const held = compareWithModel(cli, model, {
      // The CLI's refresh fails in its preview (which reads): its event stream has no outputs event for either
      // resource (no step), and the engine prefixes each provider error with "Preview failed: ". The model reports
      // the two reads as failed refresh steps, and the provider's messages alone.
      "refresh after rotation: steps": ["refresh ci", "refresh db"],
      "refresh after rotation: failed": ["refresh ci", "refresh db"],
      "refresh after rotation: found": ["ci failed", "db failed"],
      "refresh after rotation: errors": withoutPreviewPrefix(cli.entries["refresh after rotation: errors"]),
    });
    console.log(JSON.stringify(held, null, 1));
    expect(cli.entries["refresh after rotation: steps"]).toEqual([]);
    expect(cli.entries["refresh after rotation: errors"]).toEqual([
      expect.stringMatching(/^Preview failed: HTTP 401: .* \(GET \/api_keys,/),
      expect.stringMatching(/^Preview failed: HTTP 401: .* \(GET \/projects\/[^/]+\/endpoints\/ep#1,/),
    ]);
  });

  it("after neon:apiKey is rotated, destroy --run-program works at once with the new key", async () => {
    const scenario = async (engine: Engine) => {
      declared.keyName = "ci";
      const first = await world.api.apiKeys.create({ key_name: "rotating-b" });
      return runOn(world, engine, program, { config: { "neon:apiKey": { secret: first.key } } }, async (stack, t) => {
        t.command("first up", ok(await stack.up({ skipPreview: true })));
        await checkNoChange(stack, t, engine, "after first up");
        const ci = await outputsOf(stack);
        await rotate(stack, first);
        const destroy = t.command("destroy --run-program", ok(await stack.destroy({ runProgram: true })));
        expect(requests(destroy).filter((r) => r.status >= 400)).toEqual([]);
        expect(await computesOn(world, branch())).toEqual([]);
        expect(await statusWith(String(ci.key))).toBe(401);
        expect(await stateIds(stack, "db")).toEqual([]);
        expect(await stateIds(stack, "ci")).toEqual([]);
      });
    };
    const cli = await scenario("cli");
    expect(cli.entries["destroy --run-program: preview steps"]).toEqual([
      "same ci",
      "delete ci",
      "same db",
      "delete db",
    ]);
    expect(cli.entries["destroy --run-program: steps"]).toEqual(["same ci", "delete ci", "same db", "delete db"]);
    const model = await scenario("model");
    console.log(JSON.stringify(compareWithModel(cli, model), null, 1));
  });
});

/** The state as the backend keeps it. */
async function exported(stack: AnyStack): Promise<string> {
  return await stack.exportState();
}
