/**
 * Conformance of the local engine with the Pulumi engine (pulumi/pulumi v3.248.0): plugin processes and their
 * configuration. Each test names the engine behaviour it pins and where the engine does it.
 */
import { Recorder } from "./recorder";
import { recordedStack, Recorded } from "./recorded";

let recorded: Recorded;
afterEach(() => recorded?.cleanup());

describe("plugin processes (pkg/engine/deployment.go newDeployment: a plugin context per deployment)", () => {
  it("every command gets new plugin processes, and the preview and the update of one up get separate ones", async () => {
    let value = "a";
    recorded = recordedStack(() => new Recorder("r", { value }).out);
    await recorded.stack.up();
    const first = recorded.calls();
    const previewPid = first.find((c) => c.method === "check")?.pid;
    const updatePid = first.find((c) => c.method === "create")?.pid;
    expect(previewPid).toBeDefined();
    expect(updatePid).toBeDefined();
    expect(updatePid).not.toBe(previewPid);
    value = "b";
    const mark = recorded.mark();
    await recorded.stack.up();
    const second = recorded.calls(mark);
    const pids = new Set(second.map((c) => c.pid));
    expect(pids.size).toBe(2); // its own preview and update
    for (const pid of pids) expect([previewPid, updatePid]).not.toContain(pid);
  });
});

describe("configuration (target.go GetPackageConfig; provider_plugin.go NewProvider, Configure)", () => {
  const config = {
    "neon:apiKey": { secret: "neon-key" },
    "aws:region": "eu-west-1",
    apiKey: "the-program's-own-key",
    "app:settings": { tier: "gold" },
  };

  it("Configure gets the whole stack config, every namespace, secrets unwrapped; the env names the project", async () => {
    recorded = recordedStack(() => new Recorder("r", { value: "a" }).out, { config, project: "shop" });
    await recorded.stack.preview();
    const [configure] = recorded.callsOf("configure");
    expect(configure.config).toEqual({
      "neon:apiKey": "neon-key",
      "aws:region": "eu-west-1",
      "shop:apiKey": "the-program's-own-key",
      "app:settings": '{"tier":"gold"}',
    });
    expect(configure.project).toBe("shop");
  });

  it("the plugin's PULUMI_CONFIG holds only the pulumi-nodejs namespace, by name (host.go Provider)", async () => {
    const withRuntime = { ...config, "pulumi-nodejs:flag": "on" };
    recorded = recordedStack(() => new Recorder("r", { value: "a" }).out, { config: withRuntime, project: "shop" });
    await recorded.stack.preview();
    const [configure] = recorded.callsOf("configure");
    expect(JSON.parse(configure.envConfig)).toEqual({ flag: "on" });
  });

  it("refresh and destroy are configured from the configuration the last up stored, not the current one", async () => {
    recorded = recordedStack(() => new Recorder("r", { value: "a" }).out, { config });
    await recorded.stack.up({ skipPreview: true });
    recorded.stack.setConfig({ "neon:apiKey": { secret: "rotated-key" } });
    const mark = recorded.mark();
    await recorded.stack.refresh();
    await recorded.stack.destroy();
    const seen = recorded.callsOf("configure", mark).map((c) => c.config["neon:apiKey"]);
    // The provider's configure() runs when a call first loads it: the refresh's preview and update (Read), and the
    // destroy (Delete); the destroy's preview starts and configures a plugin but calls no method of the provider.
    expect(seen).toHaveLength(3);
    expect(new Set(seen)).toEqual(new Set(["neon-key"]));
  });

  it("destroy --run-program configures the provider with the current configuration (destroyMode)", async () => {
    recorded = recordedStack(() => new Recorder("r", { value: "a" }).out, { config });
    await recorded.stack.up({ skipPreview: true });
    recorded.stack.setConfig({ "neon:apiKey": { secret: "rotated-key" } });
    const mark = recorded.mark();
    const result = await recorded.stack.destroy({ runProgram: true });
    expect(result.error).toBeUndefined();
    const deleting = recorded.callsOf("delete", mark);
    expect(deleting).toHaveLength(1);
    const configured = recorded.callsOf("configure", mark).find((c) => c.pid === deleting[0].pid);
    expect(configured?.config["neon:apiKey"]).toBe("rotated-key");
    expect(recorded.stack.state.resources).toEqual([]);
  });

  it("an up after a config change updates the stored configuration (the provider is updated, not replaced)", async () => {
    recorded = recordedStack(() => new Recorder("r", { value: "a" }).out, { config });
    await recorded.stack.up({ skipPreview: true });
    const providerOf = () => recorded.stack.state.resources.find((r) => r.type === "pulumi:providers:pulumi-nodejs");
    const resourceOf = () => recorded.stack.state.resources.find((r) => r.urn.endsWith("::r"));
    const before = { provider: providerOf()?.id, ref: resourceOf()?.provider };
    recorded.stack.setConfig({ "neon:apiKey": { secret: "rotated-key" } });
    const up = await recorded.stack.up();
    // Same provider id and reference: a replaced provider would replace every resource of it (providerChanged).
    expect({ provider: providerOf()?.id, ref: resourceOf()?.provider }).toEqual(before);
    expect(up.steps.filter((s) => s.type === "pulumi:providers:pulumi-nodejs").map((s) => s.op)).toEqual(["update"]);
    expect(up.steps.find((s) => s.name === "r")?.op).toBe("same");
    const mark = recorded.mark();
    await recorded.stack.refresh({ skipPreview: true });
    expect(recorded.callsOf("configure", mark)[0].config["neon:apiKey"]).toBe("rotated-key");
  });
});
