/**
 * `preloadLibraries` (OpenAPI, EndpointSettingsData.preload_libraries): Check, what a change does, the bodies and the
 * outputs. Issue 24's proof that one row (and a named object type) carries a new field through every step.
 */
import { COMPUTE } from "./declaration";
import { inputsFromOutputs, planComputeChange, toCreateBody, toOutputs, toPatchBody } from "./plan";
import { connectionWarning } from "./refusal";
import { checkInputs } from "../shared/declaration";
import { UNKNOWN } from "../shared/unknown";

const valid = { projectId: "shiny-wind-028834", branchId: "br-aged-salad-637688" };
const reasonFor = (preloadLibraries: unknown) =>
  checkInputs(COMPUTE, { ...valid, preloadLibraries }).find((f) => f.property === "preloadLibraries")?.reason;

/** Old outputs of a compute whose settings hold both a Postgres setting and preloaded libraries. */
const olds = {
  projectId: "p-1",
  branchId: "br-main",
  type: "read_write",
  pgSettings: { work_mem: "64MB" },
  preloadLibraries: { useDefaults: true, enabledLibraries: ["timescaledb"] },
  resourceName: "db",
};
const declared = { projectId: "p-1", branchId: "br-main" };

describe("preloadLibraries: check", () => {
  it("accepts either field, both, none, and values not known yet", () => {
    for (const value of [{}, { useDefaults: false }, { enabledLibraries: [] }, olds.preloadLibraries])
      expect(reasonFor(value)).toBeUndefined();
    expect(reasonFor({ useDefaults: UNKNOWN, enabledLibraries: [UNKNOWN] })).toBeUndefined();
  });

  it.each([
    ["a list", ["timescaledb"], "must be an object of useDefaults, enabledLibraries (each optional), got a list of 1"],
    ["a string", "timescaledb", "must be an object of useDefaults, enabledLibraries (each optional), got a string"],
    ["the API's spelling", { use_defaults: true }, 'has no field "use_defaults"; known: useDefaults, enabledLibraries'],
    ["a string useDefaults", { useDefaults: "yes" }, "useDefaults must be true or false, got a string of 3 characters"],
    ["one library", { enabledLibraries: "pg_cron" }, "enabledLibraries must be a list of strings, got a string"],
    [
      "a number in the list",
      { enabledLibraries: ["pg_cron", 4] },
      "enabledLibraries must be a list of strings; item 1 is 4",
    ],
  ])("refuses %s, naming the field and the allowed shape", (_, value, reason) => {
    expect(reasonFor(value)).toContain(reason);
  });
});

describe("preloadLibraries: what a change does", () => {
  it("changes nothing when left out, when equal in another key order, or when empty on a compute without any", () => {
    expect(planComputeChange(olds, declared).changes).toBe(false);
    const reordered = { enabledLibraries: ["timescaledb"], useDefaults: true };
    expect(planComputeChange(olds, { ...declared, preloadLibraries: reordered }).changes).toBe(false);
    expect(
      planComputeChange({ ...olds, preloadLibraries: undefined }, { ...declared, preloadLibraries: {} }).changes,
    ).toBe(false);
  });

  it("is one PATCH that may drop connections, and the preview says why without the libraries' names", () => {
    const news = { ...declared, preloadLibraries: { useDefaults: true, enabledLibraries: ["pg_cron"] } };
    const plan = planComputeChange(olds, news);
    expect(plan).toMatchObject({ replaces: [], patch: ["preloadLibraries"], drops: [], mayDrop: ["preloadLibraries"] });
    const text = connectionWarning("ep-1", olds, news, plan);
    expect(text).toMatch(
      /^Compute "db" \(ep-1\) may restart if it is running: preloadLibraries changes \(Postgres loads shared_preload_libraries only at a server start \(PostgreSQL docs\).*; its open connections may drop\.$/,
    );
    expect(text).not.toContain("pg_cron");
  });

  it("is a change when a value is not known yet", () => {
    expect(planComputeChange(olds, { ...declared, preloadLibraries: UNKNOWN }).patch).toEqual(["preloadLibraries"]);
  });
});

describe("preloadLibraries: bodies and outputs", () => {
  it("a create sends it in settings, snake_case, beside pg_settings", () => {
    const body = toCreateBody({ ...declared, pgSettings: { a: "b" }, preloadLibraries: olds.preloadLibraries });
    expect(body.endpoint.settings).toEqual({
      pg_settings: { a: "b" },
      preload_libraries: { use_defaults: true, enabled_libraries: ["timescaledb"] },
    });
  });

  it("a PATCH of either setting carries the other as the service reported it, so neither erases the other", () => {
    const libraries = { ...declared, preloadLibraries: { enabledLibraries: ["pg_cron"] } };
    expect(toPatchBody(libraries, ["preloadLibraries"], olds).endpoint).toEqual({
      settings: { pg_settings: { work_mem: "64MB" }, preload_libraries: { enabled_libraries: ["pg_cron"] } },
    });
    const tuned = { ...declared, pgSettings: { work_mem: "1MB" } };
    expect(toPatchBody(tuned, ["pgSettings"], olds).endpoint).toEqual({
      settings: {
        pg_settings: { work_mem: "1MB" },
        preload_libraries: { use_defaults: true, enabled_libraries: ["timescaledb"] },
      },
    });
    // The unchanged one is the service's value, not the program's (a value the service overrode is not asked anew).
    const both = { ...tuned, preloadLibraries: { useDefaults: false } };
    expect(toPatchBody(both, ["pgSettings"], olds).endpoint.settings?.preload_libraries).toEqual({
      use_defaults: true,
      enabled_libraries: ["timescaledb"],
    });
    // A compute without preloaded libraries gets none; a PATCH of neither carries no settings.
    expect(toPatchBody(tuned, ["pgSettings"], { pgSettings: {} }).endpoint).toEqual({
      settings: { pg_settings: { work_mem: "1MB" } },
    });
    expect(toPatchBody(libraries, ["name"], olds).endpoint).toEqual({});
  });

  const endpoint = {
    id: "ep-cool-darkness-123456",
    host: "ep-cool-darkness-123456.us-east-2.aws.neon.tech",
    autoscaling_limit_min_cu: 1,
    settings: { pg_settings: {}, preload_libraries: { enabled_libraries: ["timescaledb"], use_defaults: null } },
  };

  it("outputs read settings.preload_libraries in camelCase, without nulls, and refreshed inputs carry it", () => {
    const outputs = toOutputs(endpoint, {});
    expect(outputs.preloadLibraries).toEqual({ enabledLibraries: ["timescaledb"] });
    expect(inputsFromOutputs({ ...outputs, declared: ["preloadLibraries"] })).toEqual({
      preloadLibraries: { enabledLibraries: ["timescaledb"] },
    });
  });

  it("is absent when the service reports none, and kept as the program set it when the record has no settings", () => {
    const bare = { ...endpoint, settings: { pg_settings: {} } };
    expect(toOutputs(bare, { preloadLibraries: olds.preloadLibraries })).not.toHaveProperty("preloadLibraries");
    const { settings: _, ...unsettled } = endpoint;
    expect(toOutputs(unsettled, { preloadLibraries: olds.preloadLibraries }).preloadLibraries).toEqual(
      olds.preloadLibraries,
    );
  });
});
