/** Plugin start: from spawning the plugin to the first finished Create (configure, check, create of one compute). */
import { Emulator } from "../emulator";
import { Face } from "./faces";

export async function pluginStartMs(emulator: Emulator, face: Face): Promise<number> {
  const name = face.urn("start");
  const started = performance.now();
  const plugin = await face.start(emulator);
  try {
    const checked = await plugin.check(name, {}, face.inputs(0, "start", 0.25));
    const created = await plugin.create(name, checked.inputs);
    const elapsed = performance.now() - started;
    await plugin.delete(name, created.id, checked.inputs, created.properties);
    return elapsed;
  } finally {
    await plugin.close();
  }
}
