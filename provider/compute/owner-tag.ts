/**
 * Whose compute it is. A Compute's owner tag (its `ownerTag` input) hashes Pulumi's project, stack and resource name
 * (the class computes it, the native plugin from the URN: native/urn.ts). Each create attempt sends a name no other
 * attempt, resource, stack or person can send, `pulumi-<ownerTag>-<random mark>`, and a lost answer is settled by
 * finding that exact name, never by what several attempts share: a twin stack's compute and the one a replacement
 * deletes carry the same tag (api.md, "Ambiguous writes": taking someone's compute is a loss, reporting a nuisance).
 *
 * Strays: computes named for this resource that no state is known to hold (an `up` killed during its create, `pulumi
 * state delete`, a twin stack, a move under a new parent without an alias) refuse the create before anything is sent,
 * naming them. A replacement does not meet its old compute: the Compute class defaults `deleteBeforeReplace`, and a
 * native Compute's Diff asks for it, but `--replace` asks no Diff (pulumi/pulumi step_generator.go, isTargetedReplace),
 * so the refusal asks for the option. When Check got old inputs (the state holds the resource) and
 * `deleteBeforeReplace` is false, the tagged compute a Diff saw is the one replaced: only the others are refused.
 * Docs: docs/faults.md, "Computes: names, lost responses and interruptions".
 */
import { createHash, randomBytes } from "crypto";
import type { ApiEndpoint } from "./plan";

type Props = Record<string, unknown>;

export function ownerTagFor(project: string, stack: string, name: string): string {
  return createHash("sha256").update(`${project}/${stack}/${name}`).digest("hex").slice(0, 12);
}

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

/** `pulumi-<ownerTag>-<mark>`: the name this provider gives the computes its resources create or adopt. */
const MANAGED_NAME = /^pulumi-[0-9a-f]{12}-[0-9a-f]{8}$/;

/** Why adopting `existing` is refused: named for another resource, whose state may hold it (and delete it). */
export function heldByAnother(existing: ApiEndpoint, inputs: Props): string | undefined {
  const name = (existing as { name?: unknown }).name;
  if (typeof name !== "string" || !MANAGED_NAME.test(name) || carriesOwnerTag(existing, inputs)) return undefined;
  return (
    `adoptId: compute ${existing.id} is named ${name}, the name this provider gives the compute of another Pulumi ` +
    `resource (another resource name, stack or project), whose state may still hold it: adopting it would leave ` +
    `two states holding one compute, and the other's destroy would delete it. To move a resource within a stack, ` +
    `give it an alias instead of adoptId; to take a compute over from another stack, run pulumi state delete ` +
    `<URN> there first. Once no state holds it, rename the compute (in the Neon console), then adopt it.`
  );
}

export const STRAYS_DOCS = "docs/faults.md#computes-names-lost-responses-and-interruptions";

/** Resources the state holds (by owner tag), with the id of their compute when a Diff of this process saw it. */
const held = new Map<string, { id?: string }>();
/** Names this process's creates sent (another resource of the same name may have sent them). */
const sentHere = new Set<string>();

/** Check with old inputs: the state holds this resource. */
export function noteHeld(olds: Props): void {
  if (Object.keys(olds).length > 0 && typeof olds.ownerTag === "string") held.set(olds.ownerTag, {});
}

/** Diff saw the compute `id` of this resource (old outputs `olds`). */
export function noteSeen(id: string, olds: Props): void {
  if (typeof olds.ownerTag === "string") held.set(olds.ownerTag, { id });
}

/** A create of this process sends `name`. */
export const noteSent = (name: string): void => void sentHere.add(name);

/** Refuses a create, before anything is sent, when the branch (`list`) holds strays (see the module's doc). */
export async function refuseStrays(inputs: Props, list: () => Promise<ApiEndpoint[]>): Promise<void> {
  if (typeof inputs.ownerTag !== "string") return;
  const state = held.get(inputs.ownerTag);
  if (state && state.id === undefined) return; // one of the tagged computes is the one it replaces
  const tagged = (await list()).filter((c) => carriesOwnerTag(c, inputs) && !sentHere.has(String(c.name)));
  const strays = state ? tagged.filter((c) => c.id !== state.id) : tagged;
  if (strays.length > 0) throw new Error(straysMessage(inputs, strays));
}

/** One line: what is there, that nothing was sent, and what to do in each case the provider cannot tell apart. */
function straysMessage(inputs: Props, strays: ApiEndpoint[]): string {
  const listed = strays.map((c) => `${c.id} (${String(c.name)})`).join(", ");
  const [are, them] = strays.length > 1 ? ["are", "them"] : ["is", "it"];
  return (
    `Compute "${String(inputs.resourceName ?? "")}" was not created: on branch ${String(inputs.branchId)}, ${listed} ` +
    `${are} named for this resource and no state is known to hold ${them}. If an ` +
    `interrupted pulumi up made it or pulumi state delete forgot it, keep it with adoptId: "${strays[0].id}" (or delete ` +
    `it if nothing uses it) and run pulumi up again; if you moved this resource under a new parent, give it an alias ` +
    `to its old place; if this is a replacement, set deleteBeforeReplace: true (the Compute class's default, which a ` +
    `native neon:index:Compute lacks); if another stack with the same project and stack names holds it, it is not ` +
    `yours: rename this resource. See ${STRAYS_DOCS}`
  );
}

/** What was being done when a branch's one primary (read_write) compute was in the way (the service's 409). */
export type BranchConflictCause = { movingId: string } | { creating: Props };

/** The branch-conflict message, for a branch whose primary is `holder` (undefined when it could not be read). */
export function branchConflictMessage(branchId: string, cause: BranchConflictCause, holder?: ApiEndpoint): string {
  const there = holder
    ? `its primary (read_write) compute is ${holder.id}`
    : "it already has a primary (read_write) compute";
  const what =
    "movingId" in cause
      ? `cannot move compute ${cause.movingId} to branch ${branchId}`
      : `cannot create a primary compute on branch ${branchId}`;
  return `${what}: ${there}, and a branch holds only one. To proceed: ${remedy(cause, holder)}.`;
}

/**
 * What to do, judged by whose tag the primary carries. Ours, with the create sent anyway (the state holds the
 * resource): the compute a replacement with `deleteBeforeReplace: false` replaces, or one an interrupted replacement made.
 */
function remedy(cause: BranchConflictCause, holder: ApiEndpoint | undefined): string {
  const id = holder?.id ?? "ep-...";
  if ("movingId" in cause) return `move or delete ${id} first, or make this compute type read_only`;
  if (holder && carriesOwnerTag(holder, cause.creating)) {
    return (
      `${id} carries this resource's tag (its project, stack and resource names). If the resource sets ` +
      `deleteBeforeReplace: false, ${id} is the compute this replacement replaces: remove that option (a branch holds ` +
      `one primary, so the old one must go first). Otherwise an interrupted pulumi up made it: keep it with adoptId: ` +
      `"${id}" (it may be in use), or delete it if nothing uses it, and run pulumi up again`
    );
  }
  return (
    `if nothing manages ${id} (pulumi state delete forgot it, say), adopt it: set adoptId: "${id}", run pulumi up, ` +
    `then remove adoptId; if it belongs to a resource this update removes, Pulumi creates before it deletes: remove ` +
    `that resource in an update of its own first (or run pulumi up --continue-on-error, then again); for a read ` +
    `replica set type: "read_only"`
  );
}
