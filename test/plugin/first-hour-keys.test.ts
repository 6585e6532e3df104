/**
 * Issue 19, item 3: advice fits the situation, through the real plugin. A wrong key on a brand-new stack was told
 * about key rotation; a revoked key got only the rotation advice. In an `up` the provider is configured with the
 * stack's current config, so a refused key is wrong or revoked: check it, or make one and set it (README,
 * Troubleshooting). Only `refresh` and `destroy`, which use the key saved by the last `up`, get the rotation advice,
 * and that too. And check failures show non-secret values, as the engine's own line beside them does.
 */
import { ApiKey, Compute } from "../../provider";
import { CommandResult } from "../../testing";
import { neonWorld, NeonWorld, ok } from "./world";

let world: NeonWorld;
beforeAll(async () => {
  world = await neonWorld();
});
afterAll(() => world.stop());

const ROTATION = /saved by the last `pulumi up`|changed neon:apiKey|rotated/;
const SET_A_KEY =
  "create a key in the Neon console (Account settings, API keys) and set it with `pulumi config set --secret neon:apiKey <key>`";

describe("a refused key (HTTP 401)", () => {
  it("on a brand-new stack: check neon:apiKey, or create a key and set it; no rotation advice", async () => {
    const stack = world.stack(
      () => ({
        id: new Compute("db", { projectId: world.projectId, branchId: world.branches.dev, type: "read_only" }).id,
      }),
      { config: { "neon:apiKey": { secret: "not-a-neon-key-0123456789" } } },
    );
    const up = await stack.up();
    const message = up.error?.message ?? "";
    expect(message).toMatch(/^HTTP 401: /);
    expect(message).toContain("Neon refused the key in neon:apiKey: it is wrong, or it was revoked. Check it, or ");
    expect(message).toContain(SET_A_KEY);
    expect(message).not.toMatch(ROTATION);
  });

  it("from NEON_API_KEY: names it", async () => {
    const stack = world.stack(() => ({ keyId: new ApiKey("ci", { keyName: "ci" }).keyId }), {
      noNeonConfig: true,
      env: { NEON_API_KEY: "not-a-neon-key-0123456789", NEON_API_HOST: world.emulator.baseUrl },
    });
    const message = (await stack.up({ skipPreview: true })).error?.message ?? "";
    expect(message).toContain("Neon refused the key in NEON_API_KEY (the stack config has no neon:apiKey)");
    expect(message).toContain("the stack config wins over NEON_API_KEY");
    expect(message).not.toMatch(ROTATION);
  });

  it("revoked, then an up that changes something: create a key and set it; a refresh adds the saved key's advice", async () => {
    const created = await world.api.apiKeys.create({ key_name: "first-hour" });
    let size = 1;
    const stack = world.stack(
      () => ({
        id: new Compute("db", {
          projectId: world.projectId,
          branchId: world.branches.dev,
          type: "read_only",
          autoscalingLimitMinCu: size,
          autoscalingLimitMaxCu: size,
        }).id,
      }),
      { config: { "neon:apiKey": { secret: created.key } } },
    );
    ok(await stack.up({ skipPreview: true }));
    await world.api.apiKeys.revoke(created.id);

    size = 2;
    const up = await stack.up();
    const message = up.error?.message ?? "";
    expect(message).toMatch(/^HTTP 401: /);
    expect(message).toContain(SET_A_KEY);
    expect(message).not.toMatch(ROTATION);

    const refresh = await stack.refresh();
    const refreshMessage = refresh.error?.message ?? "";
    expect(refreshMessage).toContain("If you changed neon:apiKey since the last `pulumi up`: `pulumi refresh` and");
    expect(refreshMessage).toContain("Otherwise the key is wrong, or it was revoked: " + SET_A_KEY);

    stack.setConfig({ "neon:apiKey": { secret: world.emulator.apiKey } });
    ok(await stack.destroy({ runProgram: true }));
    for (const text of [stack.exportState(), JSON.stringify([up, refresh])]) expect(text).not.toContain(created.key);
  });
});

/** The check failures as the engine prints them: `<type> resource '<name>': property <p> value {<v>} has a problem: …`. */
const problems = (result: CommandResult) =>
  result.diagnostics.filter((d) => d.severity === "error").map((d) => d.message);

describe("check failures show the refused value where it is no secret", () => {
  it("Compute: ids and enumerations quoted, numbers as they are; free text by its length", async () => {
    const stack = world.stack(() => {
      new Compute("db", {
        projectId: world.projectId,
        branchId: "main",
        type: "read_many" as "read_only",
        suspendTimeoutSeconds: 30,
        name: "s3cr3t".repeat(12),
      });
    });
    const preview = await stack.preview();
    const said = problems(preview).join("\n");
    expect(said).toMatch(
      /property type value \{read_many\} has a problem: must be one of read_write, read_only; got "read_many"/,
    );
    expect(said).toMatch(/property branchId value \{main\} has a problem: .*; got "main"/);
    expect(said).toMatch(/property suspendTimeoutSeconds value \{30\} has a problem: .*; got 30/);
    expect(said).toMatch(/property name value \{.*\} has a problem: must be 1 to 64 characters long \(got 72\)/);
    // The engine's own part of each line shows the value; the provider's reasons never show free text.
    const reasons = problems(preview).map((p) => p.replace(/^.* has a problem: /, ""));
    expect(reasons.join("\n")).not.toContain("s3cr3t");
    expect(preview.requests).toEqual([]);
  });

  it("ApiKey: its ids quoted, its name by its length", async () => {
    const stack = world.stack(() => {
      new ApiKey("ci", { keyName: "s3cr3t".repeat(12), orgId: "Org_Acme", projectId: "Spring Example" });
    });
    const preview = await stack.preview();
    const said = problems(preview).join("\n");
    expect(said).toMatch(/property orgId value \{Org_Acme\} has a problem: .*; got "Org_Acme"/);
    expect(said).toMatch(/property projectId value \{Spring Example\} has a problem: .*; got "Spring Example"/);
    expect(said).toMatch(/property keyName value \{.*\} has a problem: must be 1 to 64 characters long \(got 72\)/);
    const reasons = problems(preview).map((p) => p.replace(/^.* has a problem: /, ""));
    expect(reasons.join("\n")).not.toContain("s3cr3t");
    expect(preview.requests).toEqual([]);
  });
});
