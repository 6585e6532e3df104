/**
 * Where the plugin finds its credentials: the stack config (neon:apiKey, neon:apiUrl) first, else the
 * environment names of Neon's CLI (NEON_API_KEY, NEON_API_HOST); none → a message saying how to set one.
 */
import { Emulator, startEmulator } from "../../emulator";
import { Compute } from "../../provider";
import { StepEngine } from "../harness/engine";
import { Plugin } from "../harness/plugin";
import { run } from "../harness/program";
import { REPO_ROOT } from "../harness/world";

let emulator: Emulator;
beforeAll(async () => {
  emulator = await startEmulator({ operationDurationMs: 20, rateLimit: false });
});
afterAll(() => emulator.close());

async function upWith(env: NodeJS.ProcessEnv, config: Record<string, string>) {
  const plugin = await Plugin.start({
    cwd: REPO_ROOT,
    env: { ...process.env, NEON_API_KEY: "", NEON_API_HOST: "", ...env },
  });
  try {
    await plugin.configure(config);
    const engine = new StepEngine(plugin);
    const mark = emulator.requests.length;
    const branchId = "br-does-not-matter";
    const result = await run(
      engine,
      () => new Compute("db", { projectId: emulator.projectId, branchId, type: "read_only" }).id,
    );
    return { result, requests: emulator.requests.slice(mark), output: plugin.text() };
  } finally {
    await plugin.close();
  }
}

describe("credentials", () => {
  it("come from NEON_API_KEY and NEON_API_HOST when the stack config has none", async () => {
    const { requests } = await upWith({ NEON_API_KEY: emulator.apiKey, NEON_API_HOST: emulator.baseUrl }, {});
    // Authenticated (not 401): the service answers for the made-up branch.
    expect(requests[0]).toMatchObject({ path: `/projects/${emulator.projectId}/endpoints`, status: 404 });
  });

  it("from the stack config win over the environment", async () => {
    const { requests } = await upWith(
      { NEON_API_KEY: "wrong-key", NEON_API_HOST: "http://127.0.0.1:9/api/v2" },
      { "neon:apiKey": emulator.apiKey, "neon:apiUrl": emulator.baseUrl },
    );
    // Authenticated (not 401): the service answers for the made-up branch.
    expect(requests[0]).toMatchObject({ path: `/projects/${emulator.projectId}/endpoints`, status: 404 });
  });

  it("missing everywhere stop the step before any request, saying how to set one", async () => {
    const { result, requests, output } = await upWith({ NEON_API_HOST: emulator.baseUrl }, {});
    expect(result.errors[0]?.message).toContain("pulumi config set --secret neon:apiKey");
    expect(result.errors[0]?.message).toContain("NEON_API_KEY");
    expect(requests).toEqual([]);
    expect(output).not.toContain(emulator.apiKey);
  });
});
