import { DEFAULT_API_URL, NO_KEY_MESSAGE, resolveConfig } from "./config";
import { NeonError } from "./errors";

const pulumi = (values: Record<string, string>) => ({ get: (k: string) => values[k] });

describe("resolveConfig: explicit > Pulumi config > environment > default", () => {
  it("takes explicit options first", () => {
    const result = resolveConfig(
      { apiKey: "explicit", apiUrl: "http://explicit/api/v2" },
      pulumi({ "neon:apiKey": "cfg", "neon:apiUrl": "http://cfg" }),
      { NEON_API_KEY: "env", NEON_API_HOST: "http://env" },
    );
    expect(result).toEqual({ apiKey: "explicit", apiUrl: "http://explicit/api/v2" });
  });
  it("then the Pulumi config, namespaced", () => {
    const result = resolveConfig({}, pulumi({ "neon:apiKey": "cfg", "neon:apiUrl": "http://cfg/" }), {
      NEON_API_KEY: "env",
    });
    expect(result).toEqual({ apiKey: "cfg", apiUrl: "http://cfg" });
  });
  it("never reads an un-namespaced key: inside the plugin that is the program's own setting", () => {
    // The plugin's Config maps `apiKey` to `<project>:apiKey`: a program's own key for another service.
    const programOwn = pulumi({ apiKey: "payments-key", apiUrl: "https://payments.example", "myapp:apiKey": "x" });
    expect(resolveConfig(undefined, programOwn, { NEON_API_KEY: "env" })).toEqual({
      apiKey: "env",
      apiUrl: DEFAULT_API_URL,
    });
    expect(() => resolveConfig(undefined, programOwn, {})).toThrow(NO_KEY_MESSAGE);
  });
  it("then NEON_API_KEY and NEON_API_HOST (as neonctl reads them)", () => {
    const result = resolveConfig(undefined, pulumi({}), { NEON_API_KEY: "env", NEON_API_HOST: "http://h/api/v2" });
    expect(result).toEqual({ apiKey: "env", apiUrl: "http://h/api/v2" });
  });
  it("refuses a URL that is not http(s) at once, naming neon:apiUrl (it used to be retried for two minutes)", () => {
    for (const url of ["console.neon.tech/api/v2", "not a url", "ftp://x/api/v2"]) {
      const refused = (() => {
        try {
          resolveConfig({ apiKey: "k", apiUrl: url }, undefined, {});
        } catch (error) {
          return error as NeonError;
        }
      })();
      expect(refused).toBeInstanceOf(NeonError);
      expect(refused?.kind).toBe("config");
      expect(refused?.message).toContain(
        `neon:apiUrl (or NEON_API_HOST) must be an http(s) URL such as ${DEFAULT_API_URL}`,
      );
      expect(refused?.message).toContain(JSON.stringify(url));
    }
  });
  it("defaults the URL to the production API", () => {
    expect(resolveConfig({ apiKey: "k" }, undefined, {}).apiUrl).toBe(DEFAULT_API_URL);
  });
  it("treats empty strings as unset", () => {
    expect(resolveConfig({ apiKey: "" }, pulumi({ "neon:apiKey": " " }), { NEON_API_KEY: "env" }).apiKey).toBe("env");
  });
  it("survives a Config.get that throws", () => {
    const throwing = {
      get: () => {
        throw new Error("bad key");
      },
    };
    expect(resolveConfig(undefined, throwing, { NEON_API_KEY: "env" }).apiKey).toBe("env");
  });
  it("guards #195: no key anywhere → a config error saying how to set it", () => {
    let thrown: unknown;
    try {
      resolveConfig(undefined, pulumi({}), {});
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(NeonError);
    expect(thrown).toMatchObject({ kind: "config", retryable: false });
    expect((thrown as Error).message).toBe(NO_KEY_MESSAGE);
    expect((thrown as Error).message).toContain("pulumi config set --secret neon:apiKey");
    expect((thrown as Error).message).toContain("NEON_API_KEY");
  });
});
