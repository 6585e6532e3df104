/**
 * The two plugins the bench drives, behind one small interface, so that a scenario is written once: the dynamic
 * provider's plugin (@pulumi/pulumi's dynamic-provider host, running the provider serialized in `__provider`) and the
 * native plugin (bin/pulumi-resource-neon). Both serve a Compute with the same inputs and lifecycle code; what differs
 * is the type token, what a program registers (the dynamic class adds `__provider` and `resourceName`; the native
 * Check fills resourceName and ownerTag from the URN), and how the plugin is started and configured.
 */
import { Emulator } from "../emulator";
import { LogEngine, startLogEngine } from "../testing/native-plugin";
import { Plugin } from "../testing/plugin";
import { Props } from "../testing/values";
import { branchId, Captured, COMPUTE_TYPE, computeInputs, pluginEnv, pluginFor, projectId, urn } from "./world";

export interface Face {
  /** How the table names it. */
  name: string;
  urn(name: string): string;
  /** The inputs a program registers for compute `name` of project `project`, at a fixed size of `cu`. */
  inputs(project: number, name: string, cu: number): Props;
  /** A started plugin, configured for `emulator`; the client's rate-limit windows compressed by `timeScale`. */
  start(emulator: Emulator, timeScale?: number): Promise<Plugin>;
}

export const NATIVE_COMPUTE_TYPE = "neon:index:Compute";

/** The dynamic plugin, fed the inputs the real classes registered (`captured`). */
export function dynamicFace(captured: Captured): Face {
  return {
    name: "ours",
    urn: (name) => urn(COMPUTE_TYPE, name),
    inputs: (project, name, cu) => computeInputs(captured, project, name, cu),
    start: pluginFor,
  };
}

/** The native plugin, started with the address of `engine` (where its warnings go, as under the real engine). */
export function nativeFace(engine: LogEngine): Face {
  return {
    name: "native plugin",
    urn: (name) => urn(NATIVE_COMPUTE_TYPE, name),
    inputs: (project, _name, cu) => ({
      projectId: projectId(project),
      branchId: branchId(project),
      type: "read_only",
      autoscalingLimitMinCu: cu,
      autoscalingLimitMaxCu: cu,
    }),
    async start(emulator, timeScale = 1) {
      const plugin = await Plugin.startNative({ engine: engine.address, env: pluginEnv(timeScale) });
      await plugin.configure({ apiKey: emulator.apiKey, apiUrl: emulator.baseUrl });
      return plugin;
    },
  };
}

/** Runs `fn` with the native face, its engine stand-in started before and closed after. */
export async function withNativeFace<T>(fn: (face: Face) => Promise<T>): Promise<T> {
  const engine = await startLogEngine();
  try {
    return await fn(nativeFace(engine));
  } finally {
    engine.close();
  }
}
