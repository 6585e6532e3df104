/**
 * The bench's scenario runs through both plugins (faces.ts): a few computes created, resized and destroyed in the
 * engine's order, and a plugin start, on a fast emulator. Guards the bench itself (`npm run bench` is not run by the
 * suite): the native face's type, inputs and Configure must be the native plugin's, or its Check or Create fails.
 */
import { NeonClient } from "../client";
import { BenchConfig, minimumRequests, QUICK } from "./config";
import { dynamicFace, Face, withNativeFace } from "./faces";
import { statusCount } from "./measure";
import { runOurs } from "./ours";
import { pluginStartMs } from "./plugin-start";
import { captureInputs, emulatorFor, projectId } from "./world";

const config: BenchConfig = { ...QUICK, operationMs: 200, timeScale: 20, computes: 3 };

async function exercise(face: Face): Promise<void> {
  const emulator = await emulatorFor(config, 1);
  try {
    const run = await runOurs(emulator, face, config, { projects: 1, perProject: config.computes, parallel: 2 });
    expect(run.stagesMs).toHaveLength(3);
    expect(run.failed).toBe(0);
    expect(statusCount(run, 423)).toBe(0);
    expect(run.requests).toBeGreaterThanOrEqual(minimumRequests(config, config.computes));
    const api = new NeonClient({ apiKey: emulator.apiKey, apiUrl: emulator.baseUrl, rateLimit: false });
    expect(await api.endpoints.list(projectId(0))).toEqual([]); // the destroy stage deleted what the first made
    expect(await pluginStartMs(emulator, face)).toBeGreaterThan(0);
  } finally {
    await emulator.close();
  }
}

describe("the bench's scenario", () => {
  it("runs through the dynamic plugin", async () => {
    await exercise(dynamicFace(await captureInputs()));
  });

  it("runs through the native plugin, started with an engine's address", async () => {
    await withNativeFace(exercise);
  });
});
