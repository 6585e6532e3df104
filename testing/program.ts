/**
 * Runs a Pulumi program in this process, as the Node.js language host runs one, against an in-process resource
 * monitor that hands every registration to the engine.
 *
 * - The program runs inside the root stack (`runInPulumiStack`, as `@pulumi/pulumi/cmd/run` does), so resources get
 *   the stack as parent and the program's return value becomes the stack's outputs (RegisterResourceOutputs).
 * - The stack configuration reaches `new pulumi.Config()` as the language host passes it (PULUMI_CONFIG, with the
 *   secret keys listed).
 * - The monitor answers the SDK's feature queries (SupportsFeature) for what this engine models; a program using an
 *   unmodelled feature (transforms, hooks, deletedWith, replaceWith) fails in the SDK, and the run fails at once with
 *   a message naming the feature, instead of the feature being silently ignored. Resource references are not
 *   offered, so the SDK sends ids, which is what the engine sends a plugin that does not accept resources.
 * - A failed program ends its run at once (the language host exits with it), even when the SDK left promises that
 *   will never settle; its errors are contained (containment.ts) and its monitor answers nothing more, so the next
 *   command runs as if in a new language host.
 */
import * as pulumi from "@pulumi/pulumi";
import { watchFailures } from "./containment";
import { Goal, goalOf } from "./goal";
import { requireFromPulumi } from "./pulumi-deps";
import { makeUrn } from "./urn";
import { Props } from "./values";

/* eslint-disable @typescript-eslint/no-explicit-any */
const settings = require("@pulumi/pulumi/runtime/settings");
const stackRuntime = require("@pulumi/pulumi/runtime/stack");
const runtimeConfig = require("@pulumi/pulumi/runtime/config");
const stateStore = require("@pulumi/pulumi/runtime/state");
const resproto = require("@pulumi/pulumi/proto/resource_pb");
const providerproto = require("@pulumi/pulumi/proto/provider_pb");
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
  /** The engine refuses what the program asked for (a feature it does not model): the deployment fails with it. */
  refuse(message: string, urn?: string): void;
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
 * installs `uncaughtException` and `unhandledRejection` handlers): what the program function throws, and what it
 * leaves unhandled (a registration the SDK refuses, an `apply` callback that throws). The first ends the run at once:
 * the SDK may have left promises that never settle (a refused `transforms` option leaves its resource's outputs
 * unresolved), which a language host would not wait for either.
 */
async function runAlone(program: Program, run: ProgramRun): Promise<void> {
  const monitor = new EngineMonitor(run);
  settings.setMockOptions(monitor, run.project, run.stack, run.preview);
  runtimeConfig.setAllConfig(run.config, run.secretKeys);
  const failures: Error[] = [];
  let ended: () => void = () => undefined;
  const failure = new Promise<void>((resolve) => (ended = resolve));
  const fail = (error: unknown) => {
    const explained = explain(error);
    failures.push(explained);
    run.failed(explained);
    ended();
  };
  const watch = watchFailures(fail);
  const caught = (error: unknown) => {
    watch.caught(error);
    fail(error);
  };
  try {
    await Promise.race([failure, runToEnd(program, caught)]);
  } catch (error) {
    caught(error);
  } finally {
    monitor.close();
    // A turn of the event loop, for Node to report the last rejections, and to tell whoever listens for
    // `rejectionHandled` (jest) of those the watch handled.
    await new Promise((resolve) => setImmediate(resolve));
    watch.stop();
  }
  if (failures.length === 0) return;
  // The language host of a failed program exits non-zero, and the SDK reports leaked promises only on a clean exit.
  stateStore.getStore().leakCandidates = new Set();
  throw failures[0];
}

/** The program inside the root stack, then every RPC it started. */
async function runToEnd(program: Program, caught: (error: unknown) => void): Promise<void> {
  await stackRuntime.runInPulumiStack(async () => {
    try {
      return await program();
    } catch (error) {
      caught(error);
      return undefined;
    }
  });
  await settings.waitForRPCs();
  await new Promise((resolve) => setImmediate(resolve)); // rejections are reported after the microtasks settle
}

/**
 * The SDK's refusal of a feature the monitor said it lacks ("The Pulumi CLI does not support transforms. Please update
 * the Pulumi CLI"), said as it is: the local engine does not model it.
 */
function explain(error: unknown): Error {
  const refused =
    error instanceof Error && /^The Pulumi CLI does not support (.+?)\. Please update/.exec(error.message);
  if (!refused) return error instanceof Error ? error : new Error(String(error));
  const feature = UNMODELLED_FEATURES[refused[1]] ?? refused[1];
  return new Error(`${feature}: not modelled by the local engine (pulumi-neon-dynamic/testing), so the program fails`);
}

/** The SDK's names of the features it refuses, as a user writes them. */
const UNMODELLED_FEATURES: Record<string, string> = {
  transforms:
    "transforms (the transforms resource option, registerResourceTransform, registerStackTransform, registerInvokeTransform)",
  "the ReplaceWith option": "the replaceWith resource option",
  "the DeletedWith option": "the deletedWith resource option",
  "resource hooks": "resource hooks (the hooks resource option, ResourceHook)",
  "error hooks": "error hooks (the onError resource hook, ErrorHook)",
  parameterization: "parameterized providers",
};

/**
 * A failed RPC as a gRPC server returns it: the SDK reads `code`, and shows `details` (`new Error(err.details)` for an
 * invoke or a call). An error a Go server returns without a status is codes.Unknown (2).
 */
function rpcError(details: string): Error {
  return Object.assign(new Error(`2 UNKNOWN: ${details}`), { code: 2, details });
}

/**
 * The resource monitor's RPCs the Node.js SDK calls, answered in process (the shape of the SDK's MockMonitor). Once
 * its run is over, late calls of the abandoned program get empty answers (a skipped registration), so that nothing it
 * does counts, fails or waits.
 */
class EngineMonitor {
  private closed = false;

  constructor(private readonly run: ProgramRun) {}

  close(): void {
    this.closed = true;
  }

  supportsFeature(req: any, callback: any): void {
    const hasSupport = FEATURES[req.getId()] ?? false;
    callback(null, { getHassupport: () => hasSupport });
  }

  async registerResource(req: any, callback: any): Promise<void> {
    try {
      const registered = this.closed ? SKIPPED : await this.run.register(goalOf(req));
      const response = new resproto.RegisterResourceResponse();
      response.setUrn(registered.urn);
      response.setId(registered.id);
      response.setObject(gstruct.Struct.fromJavaScript(JSON.parse(JSON.stringify(registered.outputs))));
      response.setResult(RESULTS[registered.result]);
      callback(null, response);
    } catch (error) {
      callback(rpcError(error instanceof Error ? error.message : String(error)), undefined);
    }
  }

  registerResourceOutputs(req: any, callback: any): void {
    if (!this.closed) this.run.registerOutputs(req.getUrn(), req.getOutputs()?.toJavaScript() ?? {});
    callback(null, {});
  }

  /**
   * `.get` and the `id` option: refused by the engine (the deployment fails, naming the resource), and answered with
   * the resource's URN and no state, so the program ends on its own instead of with a rejection the SDK spreads to
   * every output.
   */
  readResource(req: any, callback: any): void {
    const urn = makeUrn(this.run.stack, this.run.project, req.getParent() || undefined, req.getType(), req.getName());
    if (!this.closed) {
      this.run.refuse(
        `${req.getName()}: reading an existing resource (${req.getType()} .get, or the id option) is not modelled by the local engine`,
        urn,
      );
    }
    const response = new resproto.ReadResourceResponse();
    response.setUrn(urn);
    response.setProperties(gstruct.Struct.fromJavaScript({}));
    callback(null, response);
  }

  /** Invokes and calls: refused (the deployment fails) with an error the program sees as the SDK reads it. */
  invoke(req: any, callback: any): void {
    const message = `provider functions (${req.getTok()}) are not modelled by the local engine`;
    this.refuseRpc(message, callback, () => new providerproto.InvokeResponse());
  }

  call(req: any, callback: any): void {
    const message = `method calls (${req.getTok()}) are not modelled by the local engine`;
    this.refuseRpc(message, callback, () => new providerproto.CallResponse());
  }

  registerPackage(_req: any, callback: any): void {
    const response = new resproto.RegisterPackageResponse();
    response.setRef("local-engine");
    callback(null, response);
  }

  private refuseRpc(message: string, callback: any, empty: () => unknown): void {
    if (this.closed) return callback(null, empty());
    this.run.refuse(message);
    callback(rpcError(message), undefined);
  }
}

const SKIPPED: Registered = { urn: "", id: "", outputs: {}, result: "skip" };

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
