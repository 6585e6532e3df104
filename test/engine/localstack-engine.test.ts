/**
 * Which engine a `LocalStack` runs on, without running a command (no CLI needed): `engine` ("model", "cli", "auto"),
 * else PULUMI_NEON_TESTING_ENGINE, else the model; "cli" without a CLI fails at once, saying how to get one. And the
 * CLI engine's reading of `pulumi stack export --show-secrets` into the model's `Snapshot` (cli-stack.ts snapshotOf).
 * Commands on the CLI engine, compared with the model's: test/cli/localstack-engine.test.ts.
 */
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { ENGINE_VARIABLE, LocalStack, LocalStackOptions } from "../../testing";
import { CliStack, snapshotOf } from "../../testing/cli-stack";
import { SECRET_SIG, SIG_KEY } from "../../testing/values";

const saved = { root: process.env.PULUMI_CLI_ROOT, engine: process.env[ENGINE_VARIABLE] };
const roots: string[] = [];

afterEach(() => {
  for (const [key, value] of [
    ["PULUMI_CLI_ROOT", saved.root],
    [ENGINE_VARIABLE, saved.engine],
  ] as const) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});

afterAll(() => roots.forEach((root) => fs.rmSync(root, { recursive: true, force: true })));

/** An install root whose `bin/pulumi` is executable (never run here: no command is). */
function fakeCliRoot(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-root-"));
  roots.push(root);
  fs.mkdirSync(path.join(root, "bin"));
  fs.writeFileSync(path.join(root, "bin", "pulumi"), "#!/bin/sh\nexit 1\n", { mode: 0o755 });
  return root;
}

function stack(options: Partial<LocalStackOptions> = {}): LocalStack {
  return new LocalStack({ program: () => ({}), ...options });
}

/** Environment for one case: PULUMI_CLI_ROOT and PULUMI_NEON_TESTING_ENGINE (undefined unsets). */
function env(root: string | undefined, engine: string | undefined): void {
  if (root === undefined) delete process.env.PULUMI_CLI_ROOT;
  else process.env.PULUMI_CLI_ROOT = root;
  if (engine === undefined) delete process.env[ENGINE_VARIABLE];
  else process.env[ENGINE_VARIABLE] = engine;
}

describe("the engine a LocalStack runs on", () => {
  it("is the model by default, even where a CLI is installed", () => {
    env(fakeCliRoot(), undefined);
    expect(stack().engine).toBe("model");
  });

  it('"cli" without a CLI fails at once, saying how to get one', () => {
    env("", undefined);
    const message = (() => {
      try {
        stack({ engine: "cli" });
        return "no error";
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(message).toContain('engine is "cli", but no Pulumi CLI was found');
    expect(message).toContain('PULUMI_CLI_ROOT is "", which means no CLI');
    expect(message).toContain("npm run pulumi:install");
    expect(message).toContain("https://get.pulumi.com");
    expect(message).toContain("PULUMI_CLI_ROOT to its install root");
    expect(message).toContain('engine "auto"');
  });

  it('"cli" names a PULUMI_CLI_ROOT without bin/pulumi', () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), "pulumi-root-"));
    roots.push(empty);
    env(empty, undefined);
    expect(() => stack({ engine: "cli" })).toThrow(`PULUMI_CLI_ROOT is "${empty}", which has no executable bin/pulumi`);
  });

  it('"auto" is the model without a CLI, the CLI with one', async () => {
    env("", undefined);
    expect(stack({ engine: "auto" }).engine).toBe("model");
    env(fakeCliRoot(), undefined);
    const onCli = stack({ engine: "auto" });
    expect(onCli.engine).toBe("cli");
    await onCli.dispose();
  });

  it("an explicit cliRoot is the CLI the cli and auto engines use", async () => {
    env("", undefined);
    const onCli = stack({ engine: "auto", cliRoot: fakeCliRoot() });
    expect(onCli.engine).toBe("cli");
    await onCli.dispose();
  });

  it("PULUMI_NEON_TESTING_ENGINE chooses it for a stack created without engine", async () => {
    const root = fakeCliRoot();
    env(root, "cli");
    const onCli = stack();
    expect(onCli.engine).toBe("cli");
    await onCli.dispose();
    env("", "auto");
    expect(stack().engine).toBe("model");
    env(root, "auto");
    const auto = stack();
    expect(auto.engine).toBe("cli");
    await auto.dispose();
    env(root, "model");
    expect(stack().engine).toBe("model");
  });

  it("PULUMI_NEON_TESTING_ENGINE=cli without a CLI fails, naming the variable", () => {
    env("", "cli");
    expect(() => stack()).toThrow(`${ENGINE_VARIABLE} is "cli", but no Pulumi CLI was found`);
  });

  it("an explicit engine wins over PULUMI_NEON_TESTING_ENGINE", () => {
    env("", "cli");
    expect(stack({ engine: "model" }).engine).toBe("model");
  });

  it("an unknown engine is refused", () => {
    env("", "docker");
    expect(() => stack()).toThrow(`${ENGINE_VARIABLE} is "docker"; it must be "model", "cli" or "auto"`);
    env("", undefined);
    expect(() => stack({ engine: "CLI" as "cli" })).toThrow('engine is "CLI"; it must be "model", "cli" or "auto"');
  });

  it("the CLI engine's stack directory goes with dispose(); the model's dispose() does nothing", async () => {
    env(fakeCliRoot(), undefined);
    const onCli = stack({ engine: "cli" });
    // The CliStack it drives (private): its directory under the OS's temp dir holds the backend and PULUMI_HOME.
    const { workDir } = (onCli as unknown as { cli: CliStack }).cli;
    expect(fs.existsSync(workDir)).toBe(true);
    await onCli.dispose();
    expect(fs.existsSync(workDir)).toBe(false);
    const model = stack();
    await model.dispose();
    expect(model.state).toEqual({ resources: [], pendingOperations: [] });
  });

  it("before any command, the CLI engine's state is empty, its outputs none, its export {}", async () => {
    env(fakeCliRoot(), undefined);
    const onCli = stack({ engine: "cli" });
    expect([onCli.state, onCli.outputs(), onCli.exportState()]).toEqual([
      { resources: [], pendingOperations: [] },
      {},
      "{}",
    ]);
    expect(() => onCli.urnOf("db")).toThrow('0 resources named "db" in the state of dev');
    await onCli.dispose();
  });
});

describe("pulumi stack export --show-secrets read as the model's Snapshot", () => {
  const secret = (plaintext: string) => ({ [SIG_KEY]: SECRET_SIG, plaintext });
  const wrapped = (value: unknown) => ({ [SIG_KEY]: SECRET_SIG, value });
  const STACK_URN = "urn:pulumi:dev::p::pulumi:pulumi:Stack::p-dev";
  const PROVIDER_URN = "urn:pulumi:dev::p::pulumi:providers:pulumi-nodejs::default";
  const KEY_URN = "urn:pulumi:dev::p::pulumi-nodejs:dynamic/neon:ApiKey::ci";

  it("fills in what the CLI leaves out when empty, drops its own fields, wraps secrets as the model does", () => {
    const snapshot = snapshotOf({
      resources: [
        {
          urn: STACK_URN,
          type: "pulumi:pulumi:Stack",
          custom: false,
          outputs: { key: secret('"k-1"'), nested: { list: [secret("[1,2]")] } },
          created: "2026-01-01T00:00:00Z",
          sourcePosition: "project:///index.js#1,1",
        },
        {
          urn: PROVIDER_URN,
          type: "pulumi:providers:pulumi-nodejs",
          custom: true,
          id: "p-id",
          inputs: { "neon:apiKey": secret('"api"') },
          outputs: { "neon:apiKey": secret('"api"') },
        },
        {
          urn: KEY_URN,
          type: "pulumi-nodejs:dynamic/neon:ApiKey",
          custom: true,
          id: "1",
          inputs: { keyName: "ci" },
          outputs: { keyName: "ci", key: secret('"k-1"') },
          parent: STACK_URN,
          provider: `${PROVIDER_URN}::p-id`,
          propertyDependencies: { keyName: [] },
          additionalSecretOutputs: ["key"],
          protect: true,
          delete: true,
          pendingReplacement: true,
          initErrors: ["not ready"],
        },
      ],
      pending_operations: [{ type: "creating", resource: { urn: KEY_URN, type: "pulumi-nodejs:dynamic/neon:ApiKey" } }],
    } as Parameters<typeof snapshotOf>[0]);
    const common = {
      dependencies: [],
      propertyDependencies: {},
      protect: false,
      retainOnDelete: false,
      additionalSecretOutputs: [],
      ignoreChanges: [],
      replaceOnChanges: [],
    };
    expect(snapshot).toStrictEqual({
      resources: [
        {
          urn: STACK_URN,
          type: "pulumi:pulumi:Stack",
          custom: false,
          id: "",
          inputs: {},
          outputs: { key: wrapped("k-1"), nested: { list: [wrapped([1, 2])] } },
          ...common,
        },
        {
          urn: PROVIDER_URN,
          type: "pulumi:providers:pulumi-nodejs",
          custom: true,
          id: "p-id",
          inputs: { "neon:apiKey": wrapped("api") },
          outputs: { "neon:apiKey": wrapped("api") },
          ...common,
        },
        {
          urn: KEY_URN,
          type: "pulumi-nodejs:dynamic/neon:ApiKey",
          custom: true,
          id: "1",
          inputs: { keyName: "ci" },
          outputs: { keyName: "ci", key: wrapped("k-1") },
          parent: STACK_URN,
          provider: `${PROVIDER_URN}::p-id`,
          ...common,
          propertyDependencies: { keyName: [] },
          additionalSecretOutputs: ["key"],
          protect: true,
          initErrors: ["not ready"],
          pendingReplacement: true,
          delete: true,
        },
      ],
      pendingOperations: [
        {
          type: "creating",
          resource: {
            urn: KEY_URN,
            type: "pulumi-nodejs:dynamic/neon:ApiKey",
            custom: false,
            id: "",
            inputs: {},
            outputs: {},
            ...common,
          },
        },
      ],
    });
  });

  it("reads a stack that has no deployment yet as the empty state", () => {
    expect(snapshotOf(undefined)).toEqual({ resources: [], pendingOperations: [] });
    expect(snapshotOf({})).toEqual({ resources: [], pendingOperations: [] });
  });
});
