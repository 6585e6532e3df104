/**
 * What Pulumi stores in state for every resource: the serialized provider (`__provider`). It must stay small,
 * hold no API logic (so old state runs new code) and no secret (so no key lands in state in plain text).
 */
import * as pulumi from "@pulumi/pulumi";
import { ApiKey, Compute } from "../../provider";

const SECRET = "npg_".padEnd(64, "s3cr3t");

async function serializedProviders(): Promise<Record<string, string>> {
  const captured: Record<string, string> = {};
  await pulumi.runtime.setMocks({
    newResource: (args) => {
      captured[args.type] = args.inputs.__provider;
      return { id: `${args.name}-id`, state: args.inputs };
    },
    call: () => ({}),
  });
  pulumi.runtime.setConfig("neon:apiKey", SECRET);
  process.env.NEON_API_KEY = SECRET;
  try {
    const compute = new Compute("db", { projectId: "p-1", branchId: "br-main" });
    const key = new ApiKey("ci", { keyName: "ci" });
    await new Promise((resolve) => pulumi.all([compute.urn, key.urn]).apply(resolve));
  } finally {
    delete process.env.NEON_API_KEY;
  }
  return captured;
}

describe("the serialized provider", () => {
  let providers: Record<string, string>;
  beforeAll(async () => {
    providers = await serializedProviders();
  });

  it.each(["pulumi-nodejs:dynamic/neon:Compute", "pulumi-nodejs:dynamic/neon:ApiKey"])("%s is at most 4 KB", (type) => {
    expect(providers[type]).toBeDefined();
    expect(Buffer.byteLength(providers[type])).toBeLessThanOrEqual(4096);
  });

  it("loads the installed implementation by package name at call time", () => {
    expect(providers["pulumi-nodejs:dynamic/neon:Compute"]).toContain(
      'require("pulumi-neon-dynamic/provider/compute/impl")',
    );
    expect(providers["pulumi-nodejs:dynamic/neon:ApiKey"]).toContain(
      'require("pulumi-neon-dynamic/provider/api-key/impl")',
    );
  });

  it("captures no API logic, client or resolved module path", () => {
    for (const text of Object.values(providers)) {
      expect(text).not.toMatch(/axios|zod|node_modules|\/endpoints|Bearer/);
    }
  });

  it("holds no secret, even with a key in the config and the environment at program time", () => {
    for (const text of Object.values(providers)) expect(text.includes(SECRET)).toBe(false);
  });
});
