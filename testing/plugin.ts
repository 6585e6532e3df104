/**
 * The real dynamic-provider plugin of @pulumi/pulumi (or the package's native plugin, `Plugin.startNative`), started
 * as the engine starts it, with typed calls over the gRPC stubs the package ships.
 *
 * - The engine launches `pulumi-resource-pulumi-nodejs <engine address>`, a launcher for
 *   `@pulumi/pulumi/cmd/dynamic-provider`, with the program's directory as cwd; the plugin prints its port as the
 *   first line of stdout (pulumi/pulumi `sdk/go/common/resource/plugin/plugin.go`, newPlugin).
 * - Its environment is the CLI's plus `PULUMI_NODEJS_PROJECT`, `PULUMI_PROJECT` and `PULUMI_CONFIG` (the config of
 *   the `pulumi-nodejs` namespace only) (provider_plugin.go NewProvider; pkg/host/host.go Provider).
 * - Every request carries what provider_plugin.go sends: Check(olds = old inputs, news), Diff(old_inputs,
 *   olds = old outputs, news), Create(properties), Read(id, properties = old outputs, inputs), Update(olds = old
 *   outputs, news, old_inputs), Delete(id, properties = outputs, old_inputs).
 * Everything the plugin writes to stderr is kept: the engine shows it as diagnostics of the command.
 */
import { ChildProcess, spawn } from "child_process";
import type * as Grpc from "@grpc/grpc-js";
import type * as StructProto from "google-protobuf/google/protobuf/struct_pb";
import { NativeStart, readPort, spawnNativePlugin } from "./native-plugin";
import { requireFromPulumi } from "./pulumi-deps";
import { Props } from "./values";

const grpc = requireFromPulumi<typeof Grpc>("@grpc/grpc-js");
const structproto = requireFromPulumi<typeof StructProto>("google-protobuf/google/protobuf/struct_pb");

/* eslint-disable @typescript-eslint/no-explicit-any */
const provproto: any = require("@pulumi/pulumi/proto/provider_pb");
const provrpc: any = require("@pulumi/pulumi/proto/provider_grpc_pb");
const statusproto: any = require("@pulumi/pulumi/proto/status_pb");

/** A failed Create/Update that left an object behind (ErrorResourceInitFailed): the engine keeps it. */
export interface InitFailure {
  id: string;
  properties: Props;
  reasons: string[];
}

/** An error answered by the plugin, with the init-failure details when the object exists. */
export class PluginError extends Error {
  constructor(
    message: string,
    readonly initFailure?: InitFailure,
    readonly unavailable = false,
  ) {
    super(message);
    this.name = "PluginError";
  }
}

export interface PluginStart {
  /** The program's directory: the plugin resolves the provider's `require`s from there. */
  cwd: string;
  project: string;
  env?: NodeJS.ProcessEnv;
  /** PULUMI_CONFIG: the `pulumi-nodejs` namespace of the stack config, as JSON (StackConfig.pluginEnvConfig). */
  pluginConfig?: string;
  /**
   * Preload lazy-serializer.ts: @pulumi/pulumi's closure serializer (TypeScript, arborist), which a plugin never uses,
   * loads on first use, not at start (a plugin's CPU 1.75 s -> 0.70 s). Default: `PULUMI_NEON_TESTING_LAZY_SERIALIZER=1` in
   * this process's environment; else off, the plugin started exactly as the engine starts it.
   */
  lazySerializer?: boolean;
}

/** The environment variable that turns on `PluginStart.lazySerializer` (jest.config.js sets it for the suites). */
export const LAZY_SERIALIZER_VARIABLE = "PULUMI_NEON_TESTING_LAZY_SERIALIZER";

export type DiffChanges = "unknown" | "none" | "some";

export class Plugin {
  /** What the plugin wrote to stderr (and to stdout after the port), in order. */
  readonly output: string[] = [];

  private constructor(
    private readonly child: ChildProcess,
    private readonly client: any,
  ) {
    child.stderr?.on("data", (chunk: Buffer) => this.output.push(chunk.toString()));
  }

  static async start(options: PluginStart): Promise<Plugin> {
    const entry = require.resolve("@pulumi/pulumi/cmd/dynamic-provider/index.js", { paths: [options.cwd] });
    const env = {
      ...(options.env ?? process.env),
      PULUMI_NODEJS_PROJECT: options.project,
      PULUMI_PROJECT: options.project,
      PULUMI_CONFIG: options.pluginConfig ?? "{}",
    };
    const preloads = [require.resolve("./orphan-guard")];
    if (options.lazySerializer ?? process.env[LAZY_SERIALIZER_VARIABLE] === "1") {
      preloads.push(require.resolve("./lazy-serializer"));
    }
    const args = [...preloads.flatMap((file) => ["--require", file]), entry, "127.0.0.1:0"];
    const child = spawn(process.execPath, args, { cwd: options.cwd, env });
    return Plugin.connect(child, await readPort(child));
  }

  /**
   * The native plugin (bin/pulumi-resource-neon), with the engine's address when given (native-plugin.ts). The calls
   * are the same; its resources are `neon:index:*`, configured by their arguments (`apiKey`, `apiUrl`), and its Check
   * fills what the dynamic classes set (resourceName, ownerTag).
   */
  static async startNative(options: NativeStart = {}): Promise<Plugin> {
    const { child, port } = await spawnNativePlugin({ ...options, stderr: "pipe" });
    return Plugin.connect(child, port);
  }

  private static connect(child: ChildProcess, port: number): Plugin {
    const client = new provrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
    const plugin = new Plugin(child, client);
    child.stdout?.on("data", (chunk: Buffer) => plugin.output.push(chunk.toString()));
    return plugin;
  }

  /** The plugin's process id. */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** The text the plugin has written so far. */
  text(): string {
    return this.output.join("");
  }

  /** Configure with the provider's inputs (secrets wrapped, as the engine marshals them with KeepSecrets). */
  async configure(args: Props): Promise<void> {
    const req = new provproto.ConfigureRequest();
    req.setArgs(struct(args));
    req.setAcceptsecrets(true);
    req.setAcceptresources(true);
    req.setSendsOldInputs?.(true);
    req.setSendsOldInputsToDelete?.(true);
    await this.call("configure", req);
  }

  async check(urn: string, olds: Props, news: Props): Promise<{ inputs: Props; failures: CheckFailure[] }> {
    const req = new provproto.CheckRequest();
    req.setUrn(urn);
    req.setOlds(struct(olds));
    req.setNews(struct(news));
    const resp = await this.call("check", req);
    const failures = resp.getFailuresList().map((f: any) => ({ property: f.getProperty(), reason: f.getReason() }));
    return { inputs: resp.getInputs()?.toJavaScript() ?? {}, failures };
  }

  async diff(
    urn: string,
    id: string,
    oldInputs: Props,
    oldOutputs: Props,
    news: Props,
  ): Promise<{ changes: DiffChanges; replaces: string[]; deleteBeforeReplace: boolean; diffs: string[] }> {
    const req = new provproto.DiffRequest();
    req.setUrn(urn);
    req.setId(id);
    req.setOldInputs(struct(oldInputs));
    req.setOlds(struct(oldOutputs));
    req.setNews(struct(news));
    const resp = await this.call("diff", req);
    return {
      changes: (["unknown", "none", "some"] as const)[resp.getChanges()] ?? "unknown",
      replaces: resp.getReplacesList(),
      deleteBeforeReplace: resp.getDeletebeforereplace(),
      diffs: resp.getDiffsList(),
    };
  }

  async create(urn: string, properties: Props): Promise<{ id: string; properties: Props }> {
    const req = new provproto.CreateRequest();
    req.setUrn(urn);
    req.setProperties(struct(properties));
    const resp = await this.call("create", req);
    return { id: resp.getId(), properties: resp.getProperties()?.toJavaScript() ?? {} };
  }

  async read(
    urn: string,
    id: string,
    state: Props,
    inputs: Props,
  ): Promise<{ id: string; outputs: Props; inputs?: Props }> {
    const req = new provproto.ReadRequest();
    req.setUrn(urn);
    req.setId(id);
    req.setProperties(struct(state));
    req.setInputs(struct(inputs));
    const resp = await this.call("read", req);
    return {
      id: resp.getId(),
      outputs: resp.getProperties()?.toJavaScript() ?? {},
      inputs: resp.getInputs()?.toJavaScript(),
    };
  }

  async update(urn: string, id: string, oldInputs: Props, oldOutputs: Props, news: Props): Promise<Props> {
    const req = new provproto.UpdateRequest();
    req.setUrn(urn);
    req.setId(id);
    req.setOldInputs(struct(oldInputs));
    req.setOlds(struct(oldOutputs));
    req.setNews(struct(news));
    const resp = await this.call("update", req);
    return resp.getProperties()?.toJavaScript() ?? {};
  }

  async delete(urn: string, id: string, oldInputs: Props, outputs: Props): Promise<void> {
    const req = new provproto.DeleteRequest();
    req.setUrn(urn);
    req.setId(id);
    req.setProperties(struct(outputs));
    req.setOldInputs(struct(oldInputs));
    await this.call("delete", req);
  }

  /** Kills the plugin as an interrupted CLI leaves it (SIGKILL: no chance to clean up). */
  kill(): void {
    this.child.kill("SIGKILL");
  }

  /**
   * Closes the connection and ends the process (plugin.go Close kills the plugin), then waits until its output
   * streams are drained: what it printed during a call travels on its own pipe and can arrive after the call's answer.
   */
  async close(): Promise<void> {
    this.client.close();
    const closed = new Promise((resolve) => this.child.once("close", resolve));
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill("SIGTERM");
    else if (this.child.stdout?.readableEnded !== false && this.child.stderr?.readableEnded !== false) return;
    await Promise.race([closed, new Promise((resolve) => setTimeout(resolve, 5000).unref())]);
  }

  private call(method: string, req: unknown): Promise<any> {
    return new Promise((resolve, reject) => {
      this.client[method](req, (error: Grpc.ServiceError | null, resp: any) => {
        if (error) reject(toPluginError(error));
        else resolve(resp);
      });
    });
  }
}

export interface CheckFailure {
  property: string;
  reason: string;
}

function struct(value: Props): StructProto.Struct {
  return structproto.Struct.fromJavaScript(JSON.parse(JSON.stringify(value)));
}

/** Decodes ErrorResourceInitFailed from grpc-status-details-bin, as the engine does (provider_plugin.go parseError). */
function toPluginError(error: Grpc.ServiceError): PluginError {
  const unavailable = error.code === grpc.status.UNAVAILABLE || error.code === grpc.status.CANCELLED;
  const details = error.metadata?.get("grpc-status-details-bin")?.[0];
  if (!details) return new PluginError(error.details || error.message, undefined, unavailable);
  const status = statusproto.Status.deserializeBinary(new Uint8Array(details as Buffer));
  const any = status.getDetailsList()[0];
  const failed = provproto.ErrorResourceInitFailed.deserializeBinary(any.getValue_asU8());
  return new PluginError(error.details || error.message, {
    id: failed.getId(),
    properties: failed.getProperties()?.toJavaScript() ?? {},
    reasons: failed.getReasonsList(),
  });
}
