/**
 * Runs a Pulumi program (a function declaring resources) against the StepEngine: `up`, `preview`.
 *
 * The program runs under the Pulumi runtime with a mock monitor that forwards every registration to the
 * engine, which drives the real plugin. So `__provider` is produced by the real resource classes, inputs
 * flow from one resource's outputs to the next, and additionalSecretOutputs come from the real options.
 */
import * as pulumi from "@pulumi/pulumi";
import { Declared, StepEngine } from "./engine";

/* eslint-disable @typescript-eslint/no-explicit-any */
const { MockMonitor } = require("@pulumi/pulumi/runtime/mocks");
const settings = require("@pulumi/pulumi/runtime/settings");

export type Program = () => unknown;

export interface RunResult {
  /** What the program returned, with Outputs resolved where known. */
  exports: any;
  /** Errors of resources that failed in this run. */
  errors: Error[];
}

/** `pulumi up` (or `pulumi preview` with preview: true) of `program` through `engine`. */
export async function run(
  engine: StepEngine,
  program: Program,
  options: { preview?: boolean } = {},
): Promise<RunResult> {
  const preview = options.preview ?? false;
  const declared = new Set<string>();
  const secretOutputs = new Map<string, string[]>();
  const errorsBefore = engine.errors.length;
  const mocks: pulumi.runtime.Mocks = {
    newResource: async (args) => {
      const resource: Declared = {
        type: args.type,
        name: args.name,
        inputs: args.inputs,
        secretOutputs: secretOutputs.get(args.name) ?? [],
      };
      declared.add(StepEngine.urn(args.type, args.name));
      try {
        const { id, outputs } = await engine.apply(resource, preview);
        return { id, state: outputs };
      } catch (error) {
        // Recorded for the test, which reads RunResult.errors; rejecting here would leave unobserved
        // rejections in every output of the resource, which the test runner reports as failures.
        if (!engine.errors.includes(error as Error)) engine.errors.push(error as Error);
        return { id: undefined, state: {} };
      }
    },
    call: () => ({}),
  };
  await pulumi.runtime.setMocks(mocks, "project", "stack", preview);
  settings.setMockOptions(new RecordingMonitor(mocks, secretOutputs), "project", "stack", preview);
  const exports = await resolve(program());
  await settings.waitForRPCs();
  if (engine.errors.length === errorsBefore) await engine.finish(declared, preview);
  return { exports, errors: engine.errors.slice(errorsBefore) };
}

/** The mock monitor, also recording each registration's additionalSecretOutputs. */
class RecordingMonitor extends MockMonitor {
  constructor(
    mocks: pulumi.runtime.Mocks,
    private readonly secretOutputs: Map<string, string[]>,
  ) {
    super(mocks);
  }

  registerResource(req: any, callback: any): Promise<void> {
    this.secretOutputs.set(req.getName(), req.getAdditionalsecretoutputsList());
    return super.registerResource(req, callback);
  }
}

/** Resolves Outputs inside the program's result (failed ones become undefined). */
async function resolve(value: unknown): Promise<any> {
  if (pulumi.Output.isInstance(value)) {
    // Output.promise() is internal; it settles (rejecting for a failed resource) where apply() never runs.
    return (value as any).promise().catch(() => undefined);
  }
  if (Array.isArray(value)) return Promise.all(value.map(resolve));
  if (value && typeof value === "object" && !pulumi.Resource.isInstance(value)) {
    const entries = await Promise.all(Object.entries(value).map(async ([k, v]) => [k, await resolve(v)]));
    return Object.fromEntries(entries);
  }
  return value;
}
