import { Compute } from "pulumi-neon-dynamic";
import { startEmulator } from "pulumi-neon-dynamic/emulator";
import { LocalStack } from "pulumi-neon-dynamic/testing";

jest.setTimeout(300_000); // every command starts the provider's plugin: 5 to 20 s a test, minutes on a loaded CI machine

test("a size change is an update that restarts the compute: the preview says so, the up sends one PATCH", async () => {
  const emulator = await startEmulator({ operationDurationMs: 20 }); // Neon's API, on a free local port
  let size = 1;
  const stack = new LocalStack({
    program: () => {
      const db = new Compute("db", {
        projectId: emulator.projectId,
        branchId: emulator.branches.dev, // the emulator's project has the branches main, dev and staging
        autoscalingLimitMinCu: size,
        autoscalingLimitMaxCu: size,
      });
      return { host: db.host };
    },
    config: { "neon:apiKey": { secret: emulator.apiKey }, "neon:apiUrl": emulator.baseUrl },
    requestLog: emulator, // each result lists the requests the emulator got during the command
  });
  try {
    const first = await stack.up(); // a preview, then the update, each in new plugin processes
    expect(first.error).toBeUndefined();

    size = 2;
    const preview = await stack.preview();
    expect(preview.error).toBeUndefined();
    expect(preview.steps).toContainEqual(expect.objectContaining({ name: "db", op: "update" }));
    expect(preview.warnings.join("\n")).toMatch(/Compute "db" \(ep-.*\) will restart/);

    const up = await stack.up();
    expect(up.error).toBeUndefined();
    const writes = (up.requests as { method: string }[]).filter((request) => request.method !== "GET");
    expect(writes.map((request) => request.method)).toEqual(["PATCH"]);
  } finally {
    await stack.destroy();
    await emulator.close();
  }
});
