/**
 * Preview cost: Check + Diff per resource, in-process through the provider's functions over many resources, and
 * through the real plugin over gRPC over fewer; the emulator must see zero requests (preview needs no API and no
 * credentials).
 */
import { Emulator } from "../emulator";
import { Plugin } from "../testing/plugin";
import { Props } from "../testing/values";
import { Captured, COMPUTE_TYPE, computeInputs, urn } from "./world";

type Impl = typeof import("../provider/compute/impl");
type Runtime = typeof import("../provider/shared/runtime");

/** Old outputs as the engine holds them after a create: the inputs plus the service's fields. */
function oldOutputs(captured: Captured, i: number): Props {
  return {
    ...computeInputs(captured, 0, `c${i}`, 0.25),
    endpointId: `ep-bench-${i}`,
    host: `ep-bench-${i}.us-east-2.aws.neon.tech`,
    currentState: "active",
    maxConnections: 104,
  };
}

/** µs per resource of check + diff through the provider functions (a size change: an update, no replacement). */
export async function previewInProcess(captured: Captured, resources: number): Promise<number> {
  const impl: Impl = require("../provider/compute/impl");
  // Configured as the plugin is by the stack (a key that is never sent): since 5b3da7a a Check with no key anywhere
  // fails, as a preview without one must, and this process has none (NEON_API_KEY is the user's, not the bench's).
  const runtime: Runtime = require("../provider/shared/runtime");
  runtime.configure({ get: (key) => (key === "neon:apiKey" ? "bench-preview-key" : undefined) });
  const stderr = process.stderr.write.bind(process.stderr);
  process.stderr.write = () => true; // diff warns on stderr that a size change restarts; not the bench's output
  try {
    const started = performance.now();
    for (let i = 0; i < resources; i++) {
      const olds = oldOutputs(captured, i);
      const checked = await impl.check(olds, computeInputs(captured, 0, `c${i}`, 0.5));
      await impl.diff(`ep-bench-${i}`, olds, checked.inputs);
    }
    return ((performance.now() - started) * 1000) / resources;
  } finally {
    process.stderr.write = stderr;
  }
}

/** µs per resource of Check + Diff over gRPC, one resource after another. */
export async function previewGrpc(plugin: Plugin, captured: Captured, resources: number): Promise<number> {
  const started = performance.now();
  for (let i = 0; i < resources; i++) {
    const olds = oldOutputs(captured, i);
    const name = urn(COMPUTE_TYPE, `c${i}`);
    const checked = await plugin.check(name, olds, computeInputs(captured, 0, `c${i}`, 0.5));
    await plugin.diff(name, `ep-bench-${i}`, olds, olds, checked.inputs);
  }
  return ((performance.now() - started) * 1000) / resources;
}

/** Requests the emulator received while `fn` ran. */
export async function requestsDuring(emulator: Emulator, fn: () => Promise<unknown>): Promise<number> {
  const before = emulator.stats().requests;
  await fn();
  return emulator.stats().requests - before;
}
