/**
 * `preloadLibraries` as a user's `pulumi up` drives it, through the local engine, the real plugin and the emulator
 * over HTTP: created with `pgSettings` in one `settings`, changed by one PATCH that keeps `pgSettings` (the emulator
 * replaces a PATCH's `settings` whole, so a body without `pg_settings` would erase them), the preview's restart
 * warning, and no request on the next `up`.
 */
import { Compute, ComputeArgs } from "../../provider";
import { LocalStack } from "../../testing";
import { neonWorld, NeonWorld, ok, ops, outputs, writes } from "./world";

let world: NeonWorld;
let stack: LocalStack;
let args: Partial<ComputeArgs>;

beforeAll(async () => {
  world = await neonWorld();
  args = {
    pgSettings: { work_mem: "64MB" },
    preloadLibraries: { useDefaults: false, enabledLibraries: ["timescaledb"] },
  };
  stack = world.stack(() => {
    const db = new Compute("preloaded", {
      projectId: world.projectId,
      branchId: world.branches.main,
      type: "read_only",
      ...args,
    });
    return { id: db.id, preloadLibraries: db.preloadLibraries, pgSettings: db.pgSettings };
  });
});
afterAll(() => world.stop());

const id = () => String(outputs(stack).id);
const onService = async () => (await world.api.endpoints.get(world.projectId, id())).settings;

describe("Compute's preloadLibraries through the local engine", () => {
  it("up creates the compute with both settings; the outputs read them back in camelCase", async () => {
    ok(await stack.up());
    expect(await onService()).toEqual({
      pg_settings: { work_mem: "64MB" },
      preload_libraries: { use_defaults: false, enabled_libraries: ["timescaledb"] },
    });
    expect(outputs(stack)).toMatchObject({
      preloadLibraries: { useDefaults: false, enabledLibraries: ["timescaledb"] },
      pgSettings: { work_mem: "64MB" },
    });
  });

  it("a second up changes nothing and sends no request, nor does the same value in another key order", async () => {
    expect((await stack.up()).requests).toEqual([]);
    args = { ...args, preloadLibraries: { enabledLibraries: ["timescaledb"], useDefaults: false } };
    const up = ok(await stack.up());
    expect(ops(up)).toEqual(["same preloaded"]);
    expect(up.requests).toEqual([]);
  });

  it("a change: the preview warns the compute may restart; the up is one PATCH that keeps pgSettings", async () => {
    args = { ...args, preloadLibraries: { useDefaults: false, enabledLibraries: ["timescaledb", "pg_cron"] } };
    const preview = ok(await stack.preview());
    expect(ops(preview)).toEqual(["update preloaded"]);
    expect(preview.requests).toEqual([]);
    expect(preview.warnings).toContainEqual(
      expect.stringMatching(
        new RegExp(
          `^Compute "preloaded" \\(${id()}\\) may restart if it is running: preloadLibraries changes \\(Postgres loads ` +
            `shared_preload_libraries only at a server start \\(PostgreSQL docs\\).*; its open connections may drop\\.$`,
        ),
      ),
    );
    const up = ok(await stack.up());
    expect(writes(up)).toEqual([`PATCH /projects/${world.projectId}/endpoints/${id()}`]);
    expect(await onService()).toEqual({
      pg_settings: { work_mem: "64MB" },
      preload_libraries: { use_defaults: false, enabled_libraries: ["timescaledb", "pg_cron"] },
    });
    expect(outputs(stack).preloadLibraries).toEqual({
      useDefaults: false,
      enabledLibraries: ["timescaledb", "pg_cron"],
    });
    expect((await stack.up()).requests).toEqual([]);
  });

  it("a pgSettings change is one PATCH that keeps preloadLibraries; the next up sends nothing", async () => {
    args = { ...args, pgSettings: { work_mem: "1MB" } };
    const up = ok(await stack.up());
    expect(writes(up)).toEqual([`PATCH /projects/${world.projectId}/endpoints/${id()}`]);
    expect(await onService()).toEqual({
      pg_settings: { work_mem: "1MB" },
      preload_libraries: { use_defaults: false, enabled_libraries: ["timescaledb", "pg_cron"] },
    });
    expect((await stack.up()).requests).toEqual([]);
  });

  it("destroy deletes the compute", async () => {
    ok(await stack.destroy());
    expect(
      (await world.api.endpoints.listForBranch(world.projectId, world.branches.main)).map((e) => e.id),
    ).not.toContain(id());
  });
});
