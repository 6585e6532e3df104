/**
 * The bench's world: the emulator with realistic latency and operation durations, a fixture of several projects,
 * the real dynamic-provider plugin configured for it (the native plugin: faces.ts), and the inputs (with
 * `__provider`) that the real resource classes produce, captured once under Pulumi's mocks and reused for every
 * resource.
 */
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import { Emulator, Fixture, startEmulator } from "../emulator";
import { ApiKey, Compute } from "../provider";
import { Plugin } from "../testing/plugin";
import { Props } from "../testing/values";
import { BenchConfig, real } from "./config";

const settings = require("@pulumi/pulumi/runtime/settings");

export const REPO_ROOT = path.resolve(__dirname, "../..");
export const COMPUTE_TYPE = "pulumi-nodejs:dynamic/neon:Compute";
export const API_KEY_TYPE = "pulumi-nodejs:dynamic/neon:ApiKey";

/** Project `i` of the fixture and its branch: fixed ids, so every scenario can address them directly. */
export const projectId = (i: number): string => `bench-project-${i}`;
export const branchId = (i: number): string => `br-bench-main-${i}`;

export function fixture(projects: number): Fixture {
  const list = Array.from({ length: projects }, (_, i) => ({
    id: projectId(i),
    name: projectId(i),
    branches: [{ id: branchId(i), name: "main" }],
  }));
  return { accounts: [{ projects: list }] };
}

/**
 * An emulator as the bench uses it: the service's rate limits on, latency and durations from the config, and the
 * service's behaviours from the config (the real service's by default).
 */
export function emulatorFor(config: BenchConfig, projects: number): Promise<Emulator> {
  const s = config.service;
  return startEmulator({
    operationDurationMs: config.operationMs,
    timeScale: config.timeScale,
    latencyMs: Math.round(real(config, config.latencyMs)),
    fixture: fixture(projects),
    deleteOperations: s.deleteOperations,
    retryAfter: s.retryAfter,
    omitPoolerFields: !s.poolerFields,
    restartRequiresActive: s.restartRequiresActive,
    branchReadyDelayMs: s.branchReadyDelayMs,
  });
}

/**
 * A plugin's environment, as the bench's CLI runs give it: no key or host of the user's, and the client's rate-limit
 * windows scaled like every other duration (as strict as in reality, not more).
 */
export function pluginEnv(timeScale = 1): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NEON_API_KEY: "",
    NEON_API_HOST: "",
    NEON_PROVIDER_DEBUG: "",
    NEON_RATE_LIMIT: `600/${60_000 / timeScale}ms,35/${1000 / timeScale}ms`,
  };
}

/** The real plugin, started in the repository (where the package resolves by its name) and configured. */
export async function pluginFor(emulator: Emulator, timeScale = 1): Promise<Plugin> {
  const plugin = await Plugin.start({ cwd: REPO_ROOT, project: "bench", env: pluginEnv(timeScale) });
  await plugin.configure({ "neon:apiKey": emulator.apiKey, "neon:apiUrl": emulator.baseUrl });
  return plugin;
}

export interface Captured {
  compute: Props;
  apiKey: Props;
}

/** The inputs the real classes register (`__provider` included), captured once under Pulumi's mocks. */
export async function captureInputs(): Promise<Captured> {
  const seen = new Map<string, Props>();
  const mocks: pulumi.runtime.Mocks = {
    newResource: async (args) => {
      seen.set(args.type, args.inputs);
      return { id: `${args.name}-id`, state: args.inputs };
    },
    call: () => ({}),
  };
  await pulumi.runtime.setMocks(mocks, "bench", "bench", false);
  new Compute("c", { projectId: projectId(0), branchId: branchId(0), type: "read_only" });
  new ApiKey("k", { keyName: "bench" });
  await settings.waitForRPCs();
  const compute = seen.get(COMPUTE_TYPE);
  const apiKey = seen.get(API_KEY_TYPE);
  if (!compute?.__provider || !apiKey?.__provider) throw new Error("the mocks saw no __provider");
  return { compute, apiKey };
}

/** The inputs of compute `name` in project `project`, at the given fixed size. */
export function computeInputs(captured: Captured, project: number, name: string, cu: number): Props {
  return {
    ...captured.compute,
    projectId: projectId(project),
    branchId: branchId(project),
    type: "read_only",
    autoscalingLimitMinCu: cu,
    autoscalingLimitMaxCu: cu,
    resourceName: name,
  };
}

export const urn = (type: string, name: string): string => `urn:pulumi:bench::bench::${type}::${name}`;
