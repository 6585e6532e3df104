/**
 * What a resource's `diff` answers: the dynamic provider's DiffResult, and the properties whose change it found
 * (`diffs`). The native plugin (native/diff.ts) turns `diffs` into the engine's detailed diff, so that `pulumi preview
 * --json` names each changed property and whether it replaces; the dynamic plugin reads only `changes`, `replaces` and
 * `deleteBeforeReplace` (@pulumi/pulumi cmd/dynamic-provider, diff), so it behaves as before.
 */
import type * as pulumi from "@pulumi/pulumi";

export interface DiffAnswer extends pulumi.dynamic.DiffResult {
  /** The inputs that changed, as the resource's plan found them (its hooks' skips applied). */
  diffs?: string[];
}
