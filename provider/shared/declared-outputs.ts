/**
 * A dynamic resource exposes as an Output only the properties it was constructed with (the Pulumi runtime makes one
 * Output per property it is given): an output the class declares but the program did not set would be `undefined` at
 * run time, though typed `pulumi.Output<…>`. Each resource class therefore passes every output it declares, as
 * `undefined` unless the program set it; the runtime does not send undefined properties, so the inputs the engine and
 * the provider see, and the diffs, stay the same. The types below make the build fail when a class declares an output
 * its list leaves out (or the list names one the class does not declare).
 */
import type * as pulumi from "@pulumi/pulumi";

/** Every name, as a property whose value is `undefined` (the program's inputs are spread over it). */
export function everyOutput(names: readonly string[]): Record<string, undefined> {
  return Object.fromEntries(names.map((name) => [name, undefined]));
}

/** The names of a resource class's `pulumi.Output` members, besides the engine's own `id` and `urn`. */
export type DeclaredOutputs<T> = Exclude<
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  { [K in keyof T]-?: T[K] extends pulumi.Output<any> ? K : never }[keyof T],
  "id" | "urn"
>;

/** `true` when the two unions of names are the same, else `false`. */
export type SameNames<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/** Compiles only when `T` is `true`: `type _Checked = Assert<SameNames<…>>` fails the build otherwise. */
export type Assert<T extends true> = T;
