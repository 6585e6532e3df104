/**
 * The native plugin (bin/pulumi-resource-neon) started as the engine starts it, and the engine's one service it calls.
 *
 * - The engine launches the plugin with its own address as the first argument and reads the port from the plugin's
 *   first line of stdout (pulumi/pulumi sdk/go/common/resource/plugin/plugin.go, newPlugin).
 * - The plugin calls the engine back for one thing only, Engine.Log (its resources' warnings, native/engine-log.ts):
 *   `startLogEngine` is a gRPC server on port 0 that records those calls, so that a warning costs the round trip it
 *   costs under the real engine and a test can read what was logged.
 * native/plugin.test.ts (raw gRPC calls) and Plugin.startNative (typed calls, the bench) both start the plugin here.
 */
import { ChildProcess, spawn } from "child_process";
import * as path from "path";
import type * as Grpc from "@grpc/grpc-js";
import { Empty } from "google-protobuf/google/protobuf/empty_pb";
import { EngineService } from "@pulumi/pulumi/proto/engine_grpc_pb";
import type { LogRequest } from "@pulumi/pulumi/proto/engine_pb";
import { requireFromPulumi } from "./pulumi-deps";

const grpc = requireFromPulumi<typeof Grpc>("@grpc/grpc-js");

/** The launcher the engine runs: the package's bin/, beside dist/ (this file is dist/testing/native-plugin.js). */
export const NATIVE_PLUGIN = path.resolve(__dirname, "..", "..", "bin", "pulumi-resource-neon");

/** A stand-in for the engine: records each Engine.Log it is sent. */
export interface LogEngine {
  /** `127.0.0.1:<port>`, the argument the plugin is started with. */
  address: string;
  logged: LogRequest.AsObject[];
  close(): void;
}

export async function startLogEngine(): Promise<LogEngine> {
  const server = new grpc.Server();
  const logged: LogRequest.AsObject[] = [];
  server.addService(EngineService, {
    log: (call: Grpc.ServerUnaryCall<LogRequest, Empty>, callback: Grpc.sendUnaryData<Empty>) => {
      logged.push(call.request.toObject());
      callback(null, new Empty());
    },
  });
  const port = await new Promise<number>((resolve, reject) =>
    server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
  );
  return { address: `127.0.0.1:${port}`, logged, close: () => server.forceShutdown() };
}

export interface NativeStart {
  /** The engine's address; without one the plugin writes its warnings to stderr. */
  engine?: string;
  env?: NodeJS.ProcessEnv;
  /** "inherit": the plugin's stderr is this process's (a test's output); "pipe": the caller reads it. */
  stderr?: "inherit" | "pipe";
}

export interface NativeProcess {
  child: ChildProcess;
  port: number;
  /** The process's exit code, once it has exited. */
  exited: Promise<number | null>;
}

/** Spawns the native plugin and waits for the port it prints. */
export async function spawnNativePlugin(options: NativeStart = {}): Promise<NativeProcess> {
  const child = spawn(NATIVE_PLUGIN, options.engine ? [options.engine] : [], {
    env: options.env ?? process.env,
    stdio: ["ignore", "pipe", options.stderr ?? "pipe"],
  });
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  return { child, port: await readPort(child), exited };
}

/** The port a plugin prints as its first line of stdout; rejects when it exits before. */
export function readPort(child: ChildProcess): Promise<number> {
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
