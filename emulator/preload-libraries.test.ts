import { branchId, emulatorForTests, primaryEndpoint, TestClient, type Body } from "./test-client";
import type { Emulator } from "./index";

/**
 * A compute's `settings.preload_libraries` (OpenAPI, EndpointSettingsData.preload_libraries: PreloadLibraries,
 * `{use_defaults?: boolean, enabled_libraries?: string[]}`): accepted on create and update, refused with a 400 naming
 * the field, echoed in every answer.
 */
describe("settings.preload_libraries", () => {
  let em: Emulator;
  let c: TestClient;
  emulatorForTests((e, client) => ([em, c] = [e, client]));
  const endpoints = () => `/projects/${em.projectId}/endpoints`;
  const libraries = { use_defaults: false, enabled_libraries: ["timescaledb", "pg_cron"] };

  it("a create takes it beside pg_settings and every answer echoes both", async () => {
    const main = await branchId(c, em.projectId, "main");
    const settings = { pg_settings: { work_mem: "64MB" }, preload_libraries: libraries };
    const made = await c.post(endpoints(), { endpoint: { branch_id: main, type: "read_only", settings } });
    expect(made.status).toBe(201);
    expect(made.body.endpoint.settings).toEqual(settings);
    expect((await c.get(`${endpoints()}/${made.body.endpoint.id}`)).body.endpoint.settings).toEqual(settings);
  });

  it("a compute that never had it reports none; an update sets it and restarts a running compute", async () => {
    const ep: Body = await primaryEndpoint(c, em.projectId);
    expect(ep.settings).toEqual({ pg_settings: {} });
    const res = await c.patch(`${endpoints()}/${ep.id}`, { endpoint: { settings: { preload_libraries: libraries } } });
    expect(res.status).toBe(200);
    expect(res.body.endpoint.settings).toEqual({ pg_settings: {}, preload_libraries: libraries });
    expect(res.body.operations.map((o: Body) => o.action)).toEqual([
      "apply_config",
      "suspend_compute",
      "start_compute",
    ]);
  });

  // The emulator's guess (validation.ts): a request's `settings` replace the compute's whole, the harsher of the two
  // plausible behaviours, so a client sending one setting alone loses the other here first.
  it("settings sent without preload_libraries replace them (why the provider sends both)", async () => {
    const ep: Body = await primaryEndpoint(c, em.projectId);
    const one = `${endpoints()}/${ep.id}`;
    await c.patch(one, { endpoint: { settings: { preload_libraries: libraries } } });
    em.clock.advance(10_000);
    const res = await c.patch(one, { endpoint: { settings: { pg_settings: { work_mem: "1MB" } } } });
    expect(res.body.endpoint.settings).toEqual({ pg_settings: { work_mem: "1MB" } });
  });

  it.each([
    ["a list", ["timescaledb"], "endpoint.settings.preload_libraries must be an object"],
    [
      "a string use_defaults",
      { use_defaults: "yes" },
      "endpoint.settings.preload_libraries.use_defaults must be a boolean",
    ],
    [
      "a string list",
      { enabled_libraries: "pg_cron" },
      "endpoint.settings.preload_libraries.enabled_libraries must be an array of strings",
    ],
    ["a number in the list", { enabled_libraries: ["pg_cron", 4] }, "enabled_libraries must be an array of strings"],
  ])("refuses %s with a 400 naming the field", async (_, value, message) => {
    const ep: Body = await primaryEndpoint(c, em.projectId);
    const res = await c.patch(`${endpoints()}/${ep.id}`, { endpoint: { settings: { preload_libraries: value } } });
    expect(res.status).toBe(400);
    expect(res.body.message).toContain(message);
  });
});
