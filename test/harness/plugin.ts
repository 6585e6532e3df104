/**
 * The real dynamic-provider plugin of @pulumi/pulumi, started the way the engine starts it (a child
 * process in the program's directory, its gRPC port read from the first line of stdout), with typed calls
 * over the shipped gRPC stubs. Everything the plugin prints after the port is kept, as the engine keeps it
 * as diagnostics.
 */
import { ChildProcess, spawn } from "child_process";
import * as grpc from "@grpc/grpc-js";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";

/* eslint-disable @typescript-eslint/no-explicit-any */
const provproto: any = require("@pulumi/pulumi/proto/provider_pb");
const provrpc: any = require("@pulumi/pulumi/proto/provider_grpc_pb");
const statusproto: any = require("@pulumi/pulumi/proto/status_pb");

export type Props = Record<string, any>;

/** A failed Create/Update that left an object behind (ErrorResourceInitFailed): the engine keeps it. */
export interface InitFailure {
  id: string;
  properties: Props;
  reasons: string[];
}

/** An error from the plugin, with the init-failure details when the object exists. */
export class PluginError extends Error {
  constructor(
    message: string,
    readonly initFailure?: InitFailure,
  ) {
    super(message);
  }
}

export interface PluginOptions {
  cwd: string;
  env?: NodeJS.ProcessEnv;
}

export class Plugin {
  /** Everything printed after the port line, stdout and stderr, in order. */
  readonly output: string[] = [];
  private constructor(
    private readonly child: ChildProcess,
    private readonly client: any,
  ) {
    child.stderr?.on("data", (chunk: Buffer) => this.output.push(chunk.toString()));
  }

  static async start(options: PluginOptions): Promise<Plugin> {
    const entry = require.resolve("@pulumi/pulumi/cmd/dynamic-provider/index.js", { paths: [options.cwd] });
    const child = spawn(process.execPath, [entry, "127.0.0.1:1"], {
      cwd: options.cwd,
      env: options.env ?? process.env,
    });
    const port = await readPort(child);
    const client = new provrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
    const plugin = new Plugin(child, client);
    child.stdout?.on("data", (chunk: Buffer) => plugin.output.push(chunk.toString()));
    return plugin;
  }

  /** The text printed so far, for assertions (warnings, leaks). */
  text(): string {
    return this.output.join("");
  }

  /**
   * Waits until the output from `from` on matches `pattern`. What the plugin prints during a call travels on
   * its own pipe, so it can arrive after the call's gRPC answer.
   */
  async waitForOutput(pattern: RegExp, from = 0, timeoutMs = 2000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    while (!pattern.test(this.text().slice(from))) {
      if (Date.now() > deadline) throw new Error(`the plugin did not print ${pattern} within ${timeoutMs} ms`);
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    return this.text().slice(from);
  }

  async configure(config: Record<string, string>): Promise<void> {
    const req = new provproto.ConfigureRequest();
    req.setArgs(structproto.Struct.fromJavaScript(config));
    req.setAcceptsecrets(true);
    await this.call("configure", req);
  }

  async check(
    urn: string,
    olds: Props,
    news: Props,
  ): Promise<{ inputs: Props; failures: { property: string; reason: string }[] }> {
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
    olds: Props,
    news: Props,
  ): Promise<{ changes: string; replaces: string[]; deleteBeforeReplace: boolean }> {
    const req = new provproto.DiffRequest();
    req.setUrn(urn);
    req.setId(id);
    req.setOlds(struct(olds));
    req.setNews(struct(news));
    const resp = await this.call("diff", req);
    const changes = ["unknown", "none", "some"][resp.getChanges()] ?? "unknown";
    return { changes, replaces: resp.getReplacesList(), deleteBeforeReplace: resp.getDeletebeforereplace() };
  }

  async create(urn: string, properties: Props): Promise<{ id: string; properties: Props }> {
    const req = new provproto.CreateRequest();
    req.setUrn(urn);
    req.setProperties(struct(properties));
    const resp = await this.call("create", req);
    return { id: resp.getId(), properties: resp.getProperties().toJavaScript() };
  }

  async read(
    urn: string,
    id: string,
    properties: Props,
    inputs: Props,
  ): Promise<{ id: string; properties: Props; inputs?: Props }> {
    const req = new provproto.ReadRequest();
    req.setUrn(urn);
    req.setId(id);
    req.setProperties(struct(properties));
    req.setInputs(struct(inputs));
    const resp = await this.call("read", req);
    return {
      id: resp.getId(),
      properties: resp.getProperties()?.toJavaScript() ?? {},
      inputs: resp.getInputs()?.toJavaScript(),
    };
  }

  async update(urn: string, id: string, olds: Props, news: Props): Promise<Props> {
    const req = new provproto.UpdateRequest();
    req.setUrn(urn);
    req.setId(id);
    req.setOlds(struct(olds));
    req.setNews(struct(news));
    const resp = await this.call("update", req);
    return resp.getProperties().toJavaScript();
  }

  async delete(urn: string, id: string, properties: Props): Promise<void> {
    const req = new provproto.DeleteRequest();
    req.setUrn(urn);
    req.setId(id);
    req.setProperties(struct(properties));
    await this.call("delete", req);
  }

  /** Kills the plugin as a cancelled `pulumi up` would (SIGKILL: no chance to clean up). */
  kill(): void {
    this.child.kill("SIGKILL");
  }

  async close(): Promise<void> {
    this.client.close();
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((resolve) => this.child.once("exit", resolve));
    this.child.kill("SIGTERM");
    await exited;
  }

  private call(method: string, req: unknown): Promise<any> {
    return new Promise((resolve, reject) => {
      this.client[method](req, (error: grpc.ServiceError | null, resp: any) => {
        if (error) reject(toPluginError(error));
        else resolve(resp);
      });
    });
  }
}

function struct(value: Props): structproto.Struct {
  return structproto.Struct.fromJavaScript(JSON.parse(JSON.stringify(value)));
}

function readPort(child: ChildProcess): Promise<number> {
  return new Promise((resolve, reject) => {
    let buffered = "";
    const onData = (chunk: Buffer) => {
      buffered += chunk.toString();
      const newline = buffered.indexOf("\n");
      if (newline < 0) return;
      child.stdout?.off("data", onData);
      resolve(Number(buffered.slice(0, newline).trim()));
    };
    child.stdout?.on("data", onData);
    child.once("exit", (code) => reject(new Error(`the plugin exited (${code}) before printing its port`)));
  });
}

/** Decodes ErrorResourceInitFailed from grpc-status-details-bin, as the engine does. */
function toPluginError(error: grpc.ServiceError): PluginError {
  const details = error.metadata?.get("grpc-status-details-bin")?.[0];
  if (!details) return new PluginError(error.details || error.message);
  const status = statusproto.Status.deserializeBinary(new Uint8Array(details as Buffer));
  const any = status.getDetailsList()[0];
  const failed = provproto.ErrorResourceInitFailed.deserializeBinary(any.getValue_asU8());
  return new PluginError(error.details || error.message, {
    id: failed.getId(),
    properties: failed.getProperties()?.toJavaScript() ?? {},
    reasons: failed.getReasonsList(),
  });
}
