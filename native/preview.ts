/**
 * What a preview's Create and Update answer. The plugin supports previews (Configure), because without them the engine
 * takes an update's new inputs for its outputs in a preview (pulumi/pulumi provider_plugin.go, Update: "If the provider
 * does not support previews, return the inputs as the state"): an output no input sets, a Branch's `branchId`, became
 * unknown, and every Role, Database and Compute on the branch previewed as replaced (or restarted) by a rename that
 * changes none of them. Nothing is sent: these are computed from the request alone.
 */
import { Declaration } from "../provider/shared/declaration";
import { UNKNOWN } from "../provider/shared/unknown";
import type { Lifecycle } from "./resources";

type Props = Record<string, unknown>;

const defined = (props: Props): Props => Object.fromEntries(Object.entries(props).filter(([, v]) => v !== undefined));

/** A create's preview: the inputs, and every other declared output unknown until the object exists. */
export function previewCreate(declaration: Declaration, inputs: Props): Props {
  const outputs: Props = {};
  for (const name of Object.keys(declaration.outputs)) outputs[name] = UNKNOWN;
  return { ...outputs, ...defined(inputs) };
}

/**
 * An update's preview: the outputs as they are, the new inputs over them, and unknown what the update changes that no
 * input sets (`changedOutputs`). An update never changes the object's identity (a change of it replaces), so its ids
 * and host stay known.
 */
export function previewUpdate(lifecycle: Lifecycle, olds: Props, news: Props): Props {
  const outputs: Props = { ...olds, ...defined(news) };
  for (const name of lifecycle.changedOutputs?.(olds, news) ?? []) outputs[name] = UNKNOWN;
  return outputs;
}
