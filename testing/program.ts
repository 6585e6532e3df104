/**
 * Runs a Pulumi program in this process, as the Node.js language host runs one, against an in-process resource
 * monitor that hands every registration to the engine.
 *
 * - The program runs inside the root stack (`runInPulumiStack`, as `@pulumi/pulumi/cmd/run` does), so resources get
 *   the stack as parent and the program's return value becomes the stack's outputs (RegisterResourceOutputs).
 * - The stack configuration reaches `new pulumi.Config()` as the language host passes it (PULUMI_CONFIG, with the
 *   secret keys listed).
 * - The monitor answers the SDK's feature queries (SupportsFeature) for what this engine models; a program using an
 *   unmodelled feature (transforms, hooks, deletedWith, replaceWith) fails loudly in the SDK instead of being
 *   silently ignored. Resource references are not offered, so the SDK sends ids, which is what the engine sends a
 *   plugin that does not accept resources.
 */
import * as pulumi from "@pulumi/pulumi";
import { Goal, goalOf } from "./goal";
import { requireFromPulumi } from "./pulumi-deps";
import { Props } from "./values";

/* eslint-disable @typescript-eslint/no-explicit-any */
const settings = require("@pulumi/pulumi/runtime/settings");
const stackRuntime = require("@pulumi/pulumi/runtime/stack");
const runtimeConfig = require("@pulumi/pulumi/runtime/config");
const resproto = require("@pulumi/pulumi/proto/resource_pb");
const gstruct = requireFromPulumi<any>("google-protobuf/google/protobuf/struct_pb");

/** A program as `setMocks` programs are written: a function declaring resources; what it returns is the outputs. */
export type Program = () => unknown;

/**
 * What the engine answers a registration: its URN, id and outputs (secrets wrapped, unknowns in preview), and how it
 * went (source_eval.go RegisterResource: Result SUCCESS, FAIL for a failed step, SKIP; the SDK then resolves the
 * outputs as unknown instead of failing them).
 */
export interface Registered {
  urn: string;
  id: string;
  outputs: Props;
  result: "success" | "fail" | "skip";
}

const RESULTS = { success: 0, fail: 1, skip: 2 } as const;

export interface ProgramRun {
  project: string;
  stack: string;
  preview: boolean;
  /** Every `namespace:key` of the stack configuration as a string, and which of them are secrets. */
  config: Record<string, string>;
  secretKeys: string[];
  register(goal: Goal): Promise<Registered>;
  /** The stack's outputs as the program registered them. */
  registerOutputs(urn: string, outputs: Props): void;
  /** The program failed: told at once, so that nothing it registers afterwards counts (its stack outputs). */
  failed(error: unknown): void;
}

const FEATURES: Record<string, boolean> = {
  secrets: true,
  resourceReferences: false,
  outputValues: false,
  deletedWith: false,
  replaceWith: false,
  aliasSpecs: true,
  transforms: false,
  invokeTransforms: false,
  parameterization: false,
  resourceHooks: false,
  errorHooks: false,
};

let running: Promise<unknown> = Promise.resolve();

/** Runs `program` to completion; one program at a time per process (the SDK's runtime state is global). */
export function runProgram(program: Program, run: ProgramRun): Promise<void> {
  const result = running.then(() => runAlone(program, run));
  running = result.catch(() => undefined);
  return result;
}

/**
 * One program run. Its errors are the program's failure, as the language host reports them (sdk/nodejs/cmd/run/run.ts
 * installs `uncaughtException` and `unhandledRejection` handlers): they fail the command. What the program function
 * throws (or its promise rejects with) is caught around it; errors left unhandled elsewhere (in an `apply` callback)
 * are caught by process handlers, except under jest, whose sandboxed `process` never hears of them: jest reports
 * those itself.
 */
async function runAlone(program: Program, run: ProgramRun): Promise<void> {
  settings.setMockOptions(new EngineMonitor(run), run.project, run.stack, run.preview);
  runtimeConfig.setAllConfig(run.config, run.secretKeys);
  const failures: unknown[] = [];
  const onFailure = (error: unknown) => failures.push(error);
  process.on("unhandledRejection", onFailure);
  process.on("uncaughtException", onFailure);
  try {
    await stackRuntime.runInPulumiStack(async () => {
      try {
        return await program();
      } catch (error) {
        failures.push(error);
        run.failed(error);
        return undefined;
      }
    });
    await settings.waitForRPCs();
    await new Promise((resolve) => setImmediate(resolve)); // rejections are reported after the microtasks settle
  } catch (error) {
    failures.push(error);
  } finally {
    process.off("unhandledRejection", onFailure);
    process.off("uncaughtException", onFailure);
  }
  if (failures.length > 0) throw failures[0];
}

/** The resource monitor's RPCs the Node.js SDK calls, answered in process (the shape of the SDK's MockMonitor). */
class EngineMonitor {
  constructor(private readonly run: ProgramRun) {}

  supportsFeature(req: any, callback: any): void {
    const hasSupport = FEATURES[req.getId()] ?? false;
    callback(null, { getHassupport: () => hasSupport });
  }

  async registerResource(req: any, callback: any): Promise<void> {
    try {
      const registered = await this.run.register(goalOf(req));
      const response = new resproto.RegisterResourceResponse();
      response.setUrn(registered.urn);
      response.setId(registered.id);
      response.setObject(gstruct.Struct.fromJavaScript(JSON.parse(JSON.stringify(registered.outputs))));
      response.setResult(RESULTS[registered.result]);
      callback(null, response);
    } catch (error) {
      callback(error, undefined);
    }
  }

  registerResourceOutputs(req: any, callback: any): void {
    this.run.registerOutputs(req.getUrn(), req.getOutputs()?.toJavaScript() ?? {});
    callback(null, {});
  }

  readResource(req: any, callback: any): void {
    callback(new Error(`reading existing resources (${req.getType()} .get) is not modelled by the local engine`));
  }

  invoke(req: any, callback: any): void {
    callback(new Error(`provider functions (${req.getTok()}) are not modelled by the local engine`));
  }

  call(req: any, callback: any): void {
    callback(new Error(`method calls (${req.getTok()}) are not modelled by the local engine`));
  }

  registerPackage(_req: any, callback: any): void {
    const response = new resproto.RegisterPackageResponse();
    response.setRef("local-engine");
    callback(null, response);
  }
}

/** Resolves Outputs inside a value (for exports read outside the program). */
export async function resolveOutputs(value: unknown): Promise<unknown> {
  if (pulumi.Output.isInstance(value)) return (value as any).promise().catch(() => undefined);
  if (Array.isArray(value)) return Promise.all(value.map(resolveOutputs));
  if (value && typeof value === "object" && !pulumi.Resource.isInstance(value)) {
    const entries = await Promise.all(Object.entries(value).map(async ([k, v]) => [k, await resolveOutputs(v)]));
    return Object.fromEntries(entries);
  }
  return value;
}
