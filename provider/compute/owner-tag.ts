/**
 * The owner tag of a Compute (its `ownerTag` input): a short, stable identity of a resource within its project and
 * stack. It names the compute when the program does not, so that a compute created by a run that was interrupted is
 * recognised by the next run (owner.ts). The Compute class computes it from Pulumi's project and stack; the native
 * plugin from the resource's URN, which names the same three, so a resource keeps its tag whichever serves it.
 */
import { createHash } from "crypto";

export function ownerTagFor(project: string, stack: string, name: string): string {
  return createHash("sha256").update(`${project}/${stack}/${name}`).digest("hex").slice(0, 12);
}
