/**
 * Check, written once: a resource's `check` is `checkOf(ITS_DECLARATION, …)` with the hooks it needs. It notes that a
 * program runs (runtime.ts: a preview without a key fails here, as the up would), checks the inputs by the rows and
 * the resource's rules over the old state, and once they pass notes them (for a Diff that warns) and warns of what the
 * preview should say. A failure names the property and what is allowed (declaration.ts `checkInputs`).
 */
import type * as pulumi from "@pulumi/pulumi";
import { checkInputs, Declaration } from "./declaration";
import { warn } from "./diagnostics";
import { CheckedInputs, noteProgramCheck } from "./runtime";
import { CheckFailure } from "./validators";

type Props = Record<string, unknown>;

/** What a resource's Check adds to its rows' rules; each hook is optional. */
export interface CheckHooks {
  /** The inputs to check and record: the program's, with a default filled in (a name from the resource's name). */
  inputs?: (olds: Props, news: Props) => Props;
  /** Rules that need the old inputs (a replacement while protected), after the rows'. */
  rules?: (olds: Props, inputs: Props) => CheckFailure[];
  /** Once they pass: what the resource notes of its state, and the inputs as recorded, if spelled otherwise. */
  accepted?: (olds: Props, inputs: Props) => Props;
  /** Once they pass: the preview's warnings; `first`: this process had not checked these inputs before. */
  warnings?: (olds: Props, inputs: Props, first: boolean) => (string | undefined)[];
}

/** A resource's Check; `checked` notes the inputs it passes where the resource's Diff warns (runtime.ts). */
export function checkOf(declaration: Declaration, checked: CheckedInputs | undefined, hooks: CheckHooks = {}) {
  return async (olds: Props, news: Props): Promise<pulumi.dynamic.CheckResult> => {
    noteProgramCheck(news);
    const inputs = hooks.inputs?.(olds, news) ?? news;
    const failures = [...checkInputs(declaration, inputs), ...(hooks.rules?.(olds, inputs) ?? [])];
    if (failures.length > 0) return { inputs, failures };
    const recorded = hooks.accepted?.(olds, inputs) ?? inputs;
    const first = checked === undefined || !checked.has(recorded);
    checked?.add(recorded);
    for (const warning of hooks.warnings?.(olds, recorded, first) ?? []) if (warning) warn(warning);
    return { inputs: recorded, failures };
  };
}
