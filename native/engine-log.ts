/**
 * Warnings to the engine's log, each as a warning of the resource whose call raised it. The lifecycle code warns
 * through provider/shared/diagnostics.ts, which knows no URN; each RPC runs inside `inCall(urn, …)`, whose context
 * (AsyncLocalStorage: calls for several resources run at once) tells the sink which resource it is. `pulumi preview
 * --json` then shows `"severity": "warning"` with the URN, where the dynamic plugin's stderr line shows as `info#err`
 * without one (docs/troubleshooting.md).
 *
 * Before answering, a call waits for its warnings to be logged, so that they reach the engine before the step they
 * belong to is reported.
 */
import { AsyncLocalStorage } from "async_hooks";
import * as grpc from "@grpc/grpc-js";
import { EngineClient } from "@pulumi/pulumi/proto/engine_grpc_pb";
import { LogRequest, LogSeverity } from "@pulumi/pulumi/proto/engine_pb";
import { setWarningSink } from "../provider/shared/diagnostics";

interface Call {
  urn: string;
  logged: Promise<void>[];
}

const calls = new AsyncLocalStorage<Call>();

/** Runs `work` as the call for the resource `urn` (empty for calls of no resource), then waits for its warnings. */
export async function inCall<T>(urn: string, work: () => Promise<T>): Promise<T> {
  const call: Call = { urn, logged: [] };
  try {
    return await calls.run(call, work);
  } finally {
    await Promise.all(call.logged);
  }
}

/**
 * Sends the lifecycle code's warnings to the engine at `address` (the plugin's first argument). Without an address, or
 * when the engine does not take the message, the warning goes to stderr as the dynamic plugin writes it.
 */
export function logWarningsTo(address: string | undefined): () => void {
  const engine = address ? new EngineClient(address, grpc.credentials.createInsecure()) : undefined;
  setWarningSink((message) => {
    const call = calls.getStore();
    if (!engine) return void process.stderr.write(`warning: ${message}\n`);
    const request = new LogRequest()
      .setSeverity(LogSeverity.WARNING)
      .setMessage(message)
      .setUrn(call?.urn ?? "");
    const logged = new Promise<void>((resolve) =>
      engine.log(request, (error) => {
        if (error) process.stderr.write(`warning: ${message}\n`);
        resolve();
      }),
    );
    call?.logged.push(logged);
  });
  return () => {
    setWarningSink(undefined);
    engine?.close();
  };
}
