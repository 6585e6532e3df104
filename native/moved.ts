/**
 * A resource moved from the dynamic provider to this plugin (docs/native.md, "Moving a stack from the dynamic
 * resources"): the program declares the native resource with an alias to its dynamic type
 * (`pulumi-nodejs:dynamic/neon:<Type>`), and the engine hands this plugin the state the dynamic plugin wrote. That
 * state is what the same lifecycle code (provider/<resource>/impl.ts) left, plus `__provider`, the serialized dynamic
 * provider, in the inputs and the outputs. Nothing here reads it: it is dropped on the way in, and the Diff of a state
 * that still carries it in its outputs answers an update that removes it, which Update carries out without a request
 * when nothing else changed. Without that, the move's steps are `same`, and a same step keeps the old outputs: every
 * later state would carry the dynamic provider's code (about 3 kB a resource), and a later refresh would be the first
 * step to drop it.
 *
 * The provider reference changes too (the default `pulumi-nodejs` provider to the default `neon` one), which replaces
 * nothing: the engine asks the new provider's DiffConfig, whose UNIMPLEMENTED means no replacement (pulumi/pulumi
 * pkg/resource/deploy/step_generator.go, providerChanged), then diffs the resource with this plugin's Diff.
 */
type Props = Record<string, unknown>;

/** The dynamic provider's property (`pulumi.dynamic.Resource` adds it to the inputs, the plugin to the outputs). */
export const DYNAMIC_PROVIDER = "__provider";

/** True when the properties are a dynamic resource's: they carry the dynamic provider. */
export const fromDynamic = (props: Props): boolean => props[DYNAMIC_PROVIDER] !== undefined;

/** The properties without the dynamic provider. */
export function withoutDynamicProvider(props: Props): Props {
  if (!fromDynamic(props)) return props;
  const { [DYNAMIC_PROVIDER]: _dropped, ...rest } = props;
  return rest;
}
