/** State size: bytes of `__provider` and of a whole state entry (inputs + outputs as the plugin returns them). */
import { Plugin } from "../testing/plugin";
import { Props } from "../testing/values";
import { Captured, API_KEY_TYPE, COMPUTE_TYPE, computeInputs, urn } from "./world";

export interface StateSize {
  type: string;
  providerBytes: number;
  entryBytes: number;
}

const bytes = (value: unknown): number => Buffer.byteLength(JSON.stringify(value), "utf8");

function entry(type: string, id: string, inputs: Props, outputs: Props): number {
  return bytes({ urn: urn(type, "x"), type, id, inputs, outputs });
}

/** Creates one Compute and one ApiKey through the plugin, measures their state entries, then deletes them. */
export async function measureStateSize(plugin: Plugin, captured: Captured): Promise<StateSize[]> {
  const computeUrn = urn(COMPUTE_TYPE, "size");
  const computeIn = (await plugin.check(computeUrn, {}, computeInputs(captured, 0, "size", 0.25))).inputs;
  const compute = await plugin.create(computeUrn, computeIn);
  const keyUrn = urn(API_KEY_TYPE, "size");
  const keyIn = (await plugin.check(keyUrn, {}, { ...captured.apiKey, keyName: "bench-size" })).inputs;
  const key = await plugin.create(keyUrn, keyIn);
  await plugin.delete(computeUrn, compute.id, computeIn, compute.properties);
  await plugin.delete(keyUrn, key.id, keyIn, key.properties);
  return [
    {
      type: "Compute",
      providerBytes: Buffer.byteLength(String(captured.compute.__provider)),
      entryBytes: entry(COMPUTE_TYPE, compute.id, computeIn, compute.properties),
    },
    {
      type: "ApiKey",
      providerBytes: Buffer.byteLength(String(captured.apiKey.__provider)),
      entryBytes: entry(API_KEY_TYPE, key.id, keyIn, key.properties),
    },
  ];
}
