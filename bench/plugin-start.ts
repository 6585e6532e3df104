/** Plugin start: from spawning the plugin to the first finished Create (configure, check, create of one compute). */
import { Emulator } from "../emulator";
import { Captured, COMPUTE_TYPE, computeInputs, pluginFor, urn } from "./world";

export async function pluginStartMs(emulator: Emulator, captured: Captured): Promise<number> {
  const name = urn(COMPUTE_TYPE, "start");
  const started = performance.now();
  const plugin = await pluginFor(emulator);
  try {
    const checked = await plugin.check(name, {}, computeInputs(captured, 0, "start", 0.25));
    const created = await plugin.create(name, checked.inputs);
    const elapsed = performance.now() - started;
    await plugin.delete(name, created.id, checked.inputs, created.properties);
    return elapsed;
  } finally {
    await plugin.close();
  }
}
