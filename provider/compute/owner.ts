/**
 * How a create recognises the compute it made when its response was lost, and nothing else.
 *
 * Each create attempt sends a name no other attempt, resource, stack or person can send: `pulumi-<ownerTag>-<mark>`,
 * the mark being random and new for every attempt. A lost response is settled by finding that exact name on the
 * branch. A compute is never recognised by a mark shared by several attempts (the resource's tag alone, its sizes,
 * its creation time): `pulumi up --replace`, a `replacementTrigger` and a new parent all make the engine call
 * Create while the compute the state holds still exists, and that compute carries the same tag (api.md, "Ambiguous
 * writes": one you took from someone is a loss; an unused one you report is a nuisance).
 */
import { randomBytes } from "crypto";

type Props = Record<string, unknown>;

/** The prefix of every name this resource's creates send: `pulumi-<ownerTag>-`. */
export function ownerPrefix(inputs: Props): string | undefined {
  return typeof inputs.ownerTag === "string" ? `pulumi-${inputs.ownerTag}-` : undefined;
}

/** A name for one create attempt: the resource's tag and a random mark (8 hex digits), 28 characters. */
export function attemptName(inputs: Props): string {
  return `${ownerPrefix(inputs) ?? "pulumi-"}${randomBytes(4).toString("hex")}`;
}

/** True when a compute's name says it was created for this resource (by this run, an earlier one, or a replaced one). */
export function carriesOwnerTag(compute: object, inputs: Props): boolean {
  const prefix = ownerPrefix(inputs);
  const name = (compute as { name?: unknown }).name;
  return prefix !== undefined && typeof name === "string" && name.startsWith(prefix);
}
