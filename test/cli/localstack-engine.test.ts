/**
 * `LocalStack` on its two engines: the same program (two computes and an API key: differential-world.ts programOf)
 * through `new LocalStack({ engine: "model" })` and `new LocalStack({ engine: "cli" })`, each against a fresh emulator
 * of its own, command by command: an `up`, a preview of a resize (its restart warning), the `up` of it, a refresh
 * after an out-of-band resize, and a destroy. Each command's result is compared as the differential suite compares
 * (differential-compare.ts viewOf: per resource the steps, the warnings, errors and other diagnostics, the outputs,
 * the preview's steps, the requests; ids replaced by labels), and after each, what the synchronous API answers:
 * `state` (per resource: type, parent, provider, options, the keys of the inputs and outputs and which are secret),
 * `outputs()` (secrets hidden and shown), `urnOf()` and `exportState()` (no secret in plain text).
 *
 * Then `engine: "auto"`: the CLI when PULUMI_CLI_ROOT names one, the model when PULUMI_CLI_ROOT="".
 */
import { Emulator, startEmulator } from "../../emulator";
import { NeonClient } from "../../client";
import { CommandResult, LocalStack, ResourceState, Snapshot } from "../../testing";
import { isSecret, SIG_KEY } from "../../testing/values";
import { cliRootOrThrow } from "./cli-world";
import { View, viewOf } from "./differential-compare";
import { IdLabels, PROJECT, programOf, REPO_ROOT, Spec, STACK } from "./differential-world";

const cliRoot = cliRootOrThrow();

interface Side {
  stack: LocalStack;
  emulator: Emulator;
  api: NeonClient;
  labels: IdLabels;
}

const spec: Spec = { db: { branch: "dev", size: 1 }, replica: { branch: "main" }, key: { keyName: "ci" } };
let model: Side;
let cli: Side;

async function side(engine: "model" | "cli"): Promise<Side> {
  const emulator = await startEmulator({ operationDurationMs: 20, rateLimit: false });
  const stack = new LocalStack({
    engine,
    program: programOf(() => spec, emulator),
    project: PROJECT,
    stack: STACK,
    cwd: REPO_ROOT,
    requestLog: emulator,
    env: { ...process.env, NEON_API_KEY: "", NEON_API_HOST: "" },
    config: { "neon:apiKey": { secret: emulator.apiKey }, "neon:apiUrl": emulator.baseUrl },
  });
  const api = new NeonClient({ apiKey: emulator.apiKey, apiUrl: emulator.baseUrl, rateLimit: false });
  return { stack, emulator, api, labels: new IdLabels(emulator) };
}

beforeAll(async () => {
  model = await side("model");
  cli = await side("cli");
});

afterAll(async () => {
  for (const s of [model, cli]) {
    await s?.stack.dispose();
    await s?.emulator.close();
  }
});

/** Labels every compute and key the side's emulator has (before and after a command), so ids compare. */
async function learnIds(s: Side): Promise<void> {
  for (const endpoint of await s.api.endpoints.list(s.emulator.projectId))
    s.labels.endpoint(endpoint.id, endpoint.name);
  for (const key of await s.api.apiKeys.list()) s.labels.key(String(key.id), key.name);
}

/** Which values of a property map are secret: "key" for a secret, "key.sub" inside objects. */
function secretPaths(props: Record<string, unknown>, prefix = ""): string[] {
  return Object.entries(props).flatMap(([key, value]) => {
    if (isSecret(value)) return [`${prefix}${key}`];
    if (typeof value === "object" && value !== null && !Array.isArray(value))
      return secretPaths(value as Record<string, unknown>, `${prefix}${key}.`);
    return [];
  });
}

/** A resource of the state, ids aside: what it is, where it hangs, its options, its properties' keys and secrets. */
function resourceView(state: ResourceState, labels: IdLabels) {
  return {
    urn: state.urn,
    type: state.type,
    custom: state.custom,
    hasId: state.id !== "",
    parent: state.parent,
    // `<provider urn>::<provider id>`: the id is the engine's own.
    provider: state.provider?.replace(/::[^:]+$/, "::{id}"),
    dependencies: state.dependencies,
    protect: state.protect,
    retainOnDelete: state.retainOnDelete,
    additionalSecretOutputs: state.additionalSecretOutputs,
    ignoreChanges: state.ignoreChanges,
    replaceOnChanges: state.replaceOnChanges,
    delete: state.delete ?? false,
    pendingReplacement: state.pendingReplacement ?? false,
    initErrors: state.initErrors ?? [],
    inputs: Object.keys(state.inputs).sort(),
    outputs: Object.keys(state.outputs).sort(),
    secretInputs: secretPaths(state.inputs).sort(),
    secretOutputs: secretPaths(state.outputs).sort(),
    // Values that mean the same on both sides once ids are labelled (not the emulators' URLs, keys, times).
    size: labels.text(JSON.stringify([state.outputs.autoscalingLimitMinCu, state.outputs.branchId])),
  };
}

/** The state, resources sorted by URN (independent resources are saved in the order their steps finished). */
function stateView(snapshot: Snapshot, labels: IdLabels) {
  return {
    resources: snapshot.resources
      .map((state) => resourceView(state, labels))
      .sort((a, b) => (a.urn < b.urn ? -1 : a.urn > b.urn ? 1 : 0)),
    pendingOperations: snapshot.pendingOperations.map((op) => `${op.type} ${op.resource.urn}`),
  };
}

/** What the synchronous API answers after a command. */
function syncView(s: Side) {
  const shown = s.stack.outputs({ showSecrets: true });
  const exported = s.stack.exportState();
  const plaintextSecrets = s.stack.state.resources.flatMap((state) =>
    [...Object.values(state.inputs), ...Object.values(state.outputs)]
      .filter(isSecret)
      .map((secret) => JSON.stringify(secret.value)),
  );
  return {
    state: stateView(s.stack.state, s.labels),
    outputs: JSON.parse(s.labels.text(JSON.stringify(s.stack.outputs()))) as unknown,
    shownOutputKeys: Object.keys(shown).sort(),
    // The API key `ci`'s value, shown with showSecrets: a key, not "[secret]".
    shownKey: typeof shown.key === "string" && shown.key !== "[secret]" && shown.key.length > 20,
    urns: s.stack.state.resources.some((r) => r.urn.endsWith("::db") && !r.delete) ? s.stack.urnOf("db") : undefined,
    // Every secret encrypted in the export: none of the secrets' values in plain text, and the state has some.
    secretsInExport: plaintextSecrets.filter((text) => exported.includes(text.replace(/^"|"$/g, ""))),
    hasSecrets: plaintextSecrets.length > 0 && exported.includes(SIG_KEY),
  };
}

interface Compared {
  view: View;
  /** Every step, the root stack's and the default provider's too, as "name: op" (sorted: they run in parallel). */
  allSteps: { steps: string[]; preview?: string[] };
  sync: ReturnType<typeof syncView>;
  ms: number;
}

const timings: Record<string, Record<string, number>> = {};

/** The command on the model, then on the CLI (inline programs run in this process: one at a time). */
async function both(label: string, command: (s: Side) => Promise<CommandResult>): Promise<[Compared, Compared]> {
  const out: Compared[] = [];
  for (const s of [model, cli]) {
    await learnIds(s);
    const started = Date.now();
    const result = await command(s);
    const ms = Date.now() - started;
    await learnIds(s);
    if (result.error) throw new Error(`${s.stack.engine}: ${label}: ${result.error.message}`);
    const all = (steps: { name: string; op: string }[]) => steps.map((step) => `${step.name}: ${step.op}`).sort();
    out.push({
      view: viewOf(result, s.labels),
      allSteps: { steps: all(result.steps), ...(result.preview ? { preview: all(result.preview.steps) } : {}) },
      sync: syncView(s),
      ms,
    });
    (timings[label] ??= {})[s.stack.engine] = ms;
  }
  return [out[0], out[1]];
}

/**
 * The steps the CLI reports and the model does not (testing/README.md, "On the real CLI"): the default provider's
 * `same` step, and a refresh's steps for the root stack and the default provider. Engine-internal: the CLI's display
 * shows none of them as a change.
 */
const CLI_ONLY = /^(default: (same|refresh)|differential-dev: refresh)$/;

function expectSame([local, real]: [Compared, Compared]): void {
  expect(real.view).toEqual(local.view);
  const internal = (steps: string[]) => steps.filter((step) => !CLI_ONLY.test(step));
  expect({
    steps: internal(real.allSteps.steps),
    preview: real.allSteps.preview && internal(real.allSteps.preview),
  }).toEqual({ steps: local.allSteps.steps, preview: local.allSteps.preview });
  expect([...local.allSteps.steps, ...(local.allSteps.preview ?? [])].filter((step) => CLI_ONLY.test(step))).toEqual(
    [],
  );
  expect(real.sync).toEqual(local.sync);
}

describe("LocalStack on the model and on the real CLI: the same program, the same results", () => {
  afterAll(() => console.log(`ms per command: ${JSON.stringify(timings)}`));

  it("chose the engines asked for", () => {
    expect([model.stack.engine, cli.stack.engine]).toEqual(["model", "cli"]);
  });

  it("an up creates two computes and a key: same steps, outputs (the key secret), state, requests", async () => {
    const compared = await both("create", (s) => s.stack.up());
    expectSame(compared);
    const [local] = compared;
    expect(local.view.steps).toEqual(["ci: create", "db: create", "replica: create"]);
    expect(local.view.outputs.key).toBe("[secret]");
    expect(local.sync.state.resources.find((r) => r.type.endsWith(":ApiKey"))?.secretOutputs).toEqual(["key"]);
    expect(local.sync.secretsInExport).toEqual([]);
    expect(local.sync.hasSecrets).toBe(true);
  });

  it("a preview of a resize: an update with the same restart warning", async () => {
    spec.db.size = 2;
    const compared = await both("resize-preview", (s) => s.stack.preview());
    expectSame(compared);
    expect(compared[0].view.steps).toContain("db: update diffs autoscalingLimitMaxCu,autoscalingLimitMinCu");
    expect(compared[0].view.warnings.join("\n")).toMatch(/Compute "db" \(\{ep:db\}\) will restart/);
  });

  it("the up of the resize: one PATCH", async () => {
    const compared = await both("resize", (s) => s.stack.up());
    expectSame(compared);
    expect(compared[0].view.requests.writes.filter((w) => w.startsWith("PATCH"))).toHaveLength(1);
  });

  it("a refresh after an out-of-band resize finds the change", async () => {
    const compared = await both("refresh", async (s) => {
      const id = (await s.api.endpoints.list(s.emulator.projectId)).find((e) => s.labels.text(e.id) === "{ep:db}")?.id;
      if (!id) throw new Error("no compute db");
      await s.api.endpoints.update(s.emulator.projectId, id, {
        endpoint: { autoscaling_limit_min_cu: 3, autoscaling_limit_max_cu: 3 },
      });
      return s.stack.refresh();
    });
    expectSame(compared);
    expect(compared[0].view.steps).toContain("db: refresh found update");
  });

  it("setConfig: a new stack setting updates the default provider, the resources stay", async () => {
    const compared = await both("set-config", async (s) => {
      s.stack.setConfig({ "app:tier": "gold" });
      return s.stack.up();
    });
    expectSame(compared);
    expect(compared[0].allSteps.steps).toContain("default: update");
  });

  it("--replace by name: the old replica is deleted, then created anew (the Compute class's deleteBeforeReplace)", async () => {
    const compared = await both("replace", (s) => s.stack.up({ replace: ["replica"] }));
    expectSame(compared);
    expect(compared[0].view.steps.filter((step) => step.startsWith("replica"))).toEqual([
      "replica: delete-replaced",
      "replica: replace keys id",
      "replica: create-replacement keys id",
    ]);
  });

  it("a destroy deletes everything: the state keeps no resource", async () => {
    const compared = await both("destroy", (s) => s.stack.destroy());
    expectSame(compared);
    expect(compared[0].sync.state.resources).toEqual([]);
  });
});

describe("interrupt() on the CLI engine", () => {
  it("is Ctrl-C: the command resolves interrupted, without error, and the state is what the CLI saved", async () => {
    const emulator = await startEmulator({ operationDurationMs: 20, rateLimit: false });
    const seen: string[] = [];
    let stack: LocalStack | undefined;
    let interrupted = false;
    try {
      stack = new LocalStack({
        engine: "cli",
        program: programOf(() => ({ db: { branch: "dev", size: 1 }, replica: { branch: "main" } }), emulator),
        project: PROJECT,
        stack: STACK,
        cwd: REPO_ROOT,
        env: { ...process.env, NEON_API_KEY: "", NEON_API_HOST: "" },
        config: { "neon:apiKey": { secret: emulator.apiKey }, "neon:apiUrl": emulator.baseUrl },
        // Progress reaches onStep on the CLI engine too: the first step of the update interrupts it.
        onStep: (step, { preview }) => {
          seen.push(`${preview ? "preview" : "update"} ${step.name}: ${step.op}`);
          if (!preview && !interrupted) void stack?.interrupt();
          interrupted ||= !preview;
        },
      });
      const result = await stack.up();
      expect({ interrupted: result.interrupted, error: result.error?.message }).toEqual({
        interrupted: true,
        error: undefined,
      });
      expect(seen.filter((line) => line.startsWith("preview"))).toEqual(
        expect.arrayContaining(["preview db: create", "preview replica: create"]),
      );
      // Unlike the model's interrupt (a killed CLI), Ctrl-C lets the steps under way finish: nothing is left pending.
      expect(stack.state.pendingOperations).toEqual([]);
      // What the CLI saved is in `state`: the next `up` finishes the job, the destroy removes it all.
      const next = await stack.up();
      expect({ interrupted: next.interrupted, error: next.error }).toEqual({ interrupted: false, error: undefined });
      expect(stack.state.resources.map((r) => r.urn.split("::").pop()).sort()).toEqual([
        "db",
        "default",
        "differential-dev",
        "replica",
      ]);
      expect((await stack.destroy()).error).toBeUndefined();
    } finally {
      await stack?.dispose();
      await emulator.close();
    }
  });
});

describe('engine "auto"', () => {
  const saved = { root: process.env.PULUMI_CLI_ROOT, engine: process.env.PULUMI_NEON_TESTING_ENGINE };
  afterEach(() => {
    for (const [key, value] of [
      ["PULUMI_CLI_ROOT", saved.root],
      ["PULUMI_NEON_TESTING_ENGINE", saved.engine],
    ] as const) {
      if (value === undefined) delete process.env[key];
      else process.env[key] = value;
    }
  });
  const make = (engine?: "auto") => new LocalStack({ program: () => ({}), ...(engine ? { engine } : {}) });

  it("runs on the CLI when PULUMI_CLI_ROOT names one, on the model when PULUMI_CLI_ROOT is empty", async () => {
    process.env.PULUMI_CLI_ROOT = cliRoot;
    const onCli = make("auto");
    process.env.PULUMI_CLI_ROOT = "";
    const onModel = make("auto");
    expect([onCli.engine, onModel.engine]).toEqual(["cli", "model"]);
    await onCli.dispose();
    await onModel.dispose();
  });

  it("is what PULUMI_NEON_TESTING_ENGINE=auto gives a stack created without engine", async () => {
    process.env.PULUMI_NEON_TESTING_ENGINE = "auto";
    process.env.PULUMI_CLI_ROOT = cliRoot;
    const stack = make();
    expect(stack.engine).toBe("cli");
    await stack.dispose();
  });
});
