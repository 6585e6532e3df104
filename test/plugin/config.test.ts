/**
 * Where the provider finds its credentials, with the stack config the engine really sends (every namespace): only
 * `neon:apiKey` / `neon:apiUrl`, else NEON_API_KEY / NEON_API_HOST; never the program's own `apiKey` or `apiUrl`.
 * And what a user who rotated the key does to refresh and destroy (configured from the config stored by the last up).
 */
import { createServer, Server } from "http";
import { AddressInfo } from "net";
import * as pulumi from "@pulumi/pulumi";
import { ApiKey, Compute, getProjectsOutput } from "../../provider";
import { neonWorld, NeonWorld, ok, requests } from "./world";

let world: NeonWorld;
let decoy: Server;
let decoyUrl: string;
const decoyHits: string[] = [];

beforeAll(async () => {
  world = await neonWorld();
  // The program's own API (a payments service): nothing of Neon's may ever reach it.
  decoy = createServer((req, res) => {
    decoyHits.push(`${req.method} ${req.url} ${req.headers.authorization ?? ""}`);
    res.writeHead(404).end("{}");
  });
  await new Promise<void>((resolve) => decoy.listen(0, "127.0.0.1", resolve));
  decoyUrl = `http://127.0.0.1:${(decoy.address() as AddressInfo).port}/api/v2`;
});
afterAll(async () => {
  await world.stop();
  await new Promise((resolve) => decoy.close(resolve));
});

const NO_KEY =
  "No Neon API key: set it with `pulumi config set --secret neon:apiKey <key>` or the NEON_API_KEY environment variable";

const replica = () =>
  new Compute("db", { projectId: world.projectId, branchId: world.branches.dev, type: "read_only" }).id;

describe("credentials", () => {
  it("a program with its own apiKey and apiUrl settings: Neon gets neon:apiKey at neon:apiUrl, the program's API nothing", async () => {
    const stack = world.stack(
      () => {
        const projects = getProjectsOutput({}).projects;
        return {
          id: replica(),
          projects: projects.apply((list) => list.length),
          own: new pulumi.Config().requireSecret("apiKey"),
        };
      },
      { config: { apiKey: { secret: "payments-secret-key" }, apiUrl: decoyUrl } },
    );
    const up = ok(await stack.up());
    expect(requests(up).every((r) => r.status < 400)).toBe(true);
    expect(up.outputs).toMatchObject({ projects: 1, own: "[secret]" });
    const refresh = ok(await stack.refresh());
    expect(refresh.steps).toMatchObject([{ name: "db", found: "same" }]);
    ok(await stack.destroy());
    expect(decoyHits).toEqual([]);
  });

  it("come from NEON_API_KEY and NEON_API_HOST when the stack config has no neon:* settings", async () => {
    const stack = world.stack(replica, {
      noNeonConfig: true,
      config: { apiKey: "the-program's-own" },
      env: { NEON_API_KEY: world.emulator.apiKey, NEON_API_HOST: world.emulator.baseUrl },
    });
    const up = ok(await stack.up());
    // The create reached the emulator named by NEON_API_HOST with the key of NEON_API_KEY (its list of the branch's
    // computes goes first: a compute named for this resource that no state is known to hold refuses the create).
    expect(requests(up).find((r) => r.method === "POST")).toMatchObject({
      path: `/projects/${world.projectId}/endpoints`,
      status: 201,
    });
    ok(await stack.destroy());
  });

  it("from the stack config win over the environment", async () => {
    const stack = world.stack(replica, { env: { NEON_API_KEY: "wrong-key", NEON_API_HOST: decoyUrl } });
    ok(await stack.up({ skipPreview: true }));
    ok(await stack.destroy());
    expect(decoyHits).toEqual([]);
  });

  it("missing everywhere stop the step before any request, saying how to set one", async () => {
    const stack = world.stack(replica, { noNeonConfig: true, env: { NEON_API_HOST: world.emulator.baseUrl } });
    const up = await stack.up();
    expect(up.error?.message).toContain("pulumi config set --secret neon:apiKey");
    expect(up.error?.message).toContain("NEON_API_KEY");
    expect(up.requests).toEqual([]);
  });

  it("missing everywhere fail the preview too (issue 23, item 13): offline, with the message up gives, once", async () => {
    const stack = world.stack(() => ({ id: replica(), key: new ApiKey("ci", { keyName: "ci" }).keyId }), {
      noNeonConfig: true,
      env: { NEON_API_HOST: world.emulator.baseUrl },
    });
    const preview = await stack.preview();
    const up = await stack.up({ skipPreview: true });
    expect(up.error?.message).toContain(NO_KEY);
    expect(preview.error?.message).toContain(NO_KEY);
    expect(preview.requests).toEqual([]);
    const said = preview.diagnostics.map((d) => d.message).join("\n");
    expect(said).not.toMatch(/\n\s+at /);
    expect(said.split("No Neon API key").length - 1).toBeLessThanOrEqual(2); // one line per resource, no echo
  });
});

describe("a rotated key", () => {
  it("refresh and destroy say how to proceed; an up with the new key, or destroy --run-program, then works", async () => {
    const first = await world.api.apiKeys.create({ key_name: "rotating" });
    const stack = world.stack(() => ({ id: replica(), key: new ApiKey("ci", { keyName: "ci" }).keyId }), {
      config: { "neon:apiKey": { secret: first.key } },
    });
    ok(await stack.up({ skipPreview: true }));
    const second = await world.api.apiKeys.create({ key_name: "rotating-2" });
    await world.api.apiKeys.revoke(first.id);
    stack.setConfig({ "neon:apiKey": { secret: second.key } });

    const refresh = await stack.refresh();
    expect(refresh.error?.message).toMatch(/HTTP 401/);
    expect(refresh.error?.message).toContain("run `pulumi up` once with the new key");
    const destroy = await stack.destroy();
    expect(destroy.error?.message).toContain("`pulumi destroy --run-program`");
    expect(stack.state.resources.length).toBeGreaterThan(0);

    const withProgram = ok(await stack.destroy({ runProgram: true }));
    expect(withProgram.steps.filter((s) => s.op === "delete").length).toBeGreaterThan(0);
    expect(stack.state.resources).toEqual([]);
    for (const text of [stack.exportState(), JSON.stringify([refresh, destroy, withProgram])]) {
      expect(text).not.toContain(first.key);
      expect(text).not.toContain(second.key);
    }
  });

  it("an up with the new key stores it, and a plain refresh and destroy then work", async () => {
    const first = await world.api.apiKeys.create({ key_name: "rotating-b" });
    const stack = world.stack(replica, { config: { "neon:apiKey": { secret: first.key } } });
    ok(await stack.up({ skipPreview: true }));
    const second = await world.api.apiKeys.create({ key_name: "rotating-b2" });
    await world.api.apiKeys.revoke(first.id);
    stack.setConfig({ "neon:apiKey": { secret: second.key } });
    const up = ok(await stack.up());
    expect(up.requests).toEqual([]);
    ok(await stack.refresh());
    ok(await stack.destroy());
    expect(stack.state.resources).toEqual([]);
  });
});
