/**
 * Whose compute it is. The owner tag of a Compute (its `ownerTag` input) is a short, stable identity of a resource
 * within its project and stack: the Compute class computes it from Pulumi's project and stack, the native plugin from
 * the resource's URN (native/urn.ts), which names the same three, so a resource keeps its tag whichever serves it.
 *
 * Each create attempt sends a name no other attempt, resource, stack or person can send: `pulumi-<ownerTag>-<mark>`,
 * the mark being random and new for every attempt. A lost response is settled by finding that exact name on the
 * branch. A compute is never recognised by a mark shared by several attempts (the resource's tag alone, its sizes,
 * its creation time): a twin stack's compute and the one a replacement deletes carry the same tag (api.md,
 * "Ambiguous writes": one you took from someone is a loss; an unused one you report is a nuisance).
 *
 * Strays. Two paths leave a compute named for a resource that no state holds: an `up` whose CLI was killed while the
 * create ran (two Ctrl-Cs: the engine keeps a pending create and the next `up` creates again) and `pulumi state delete`
 * of the resource. Neither gives the provider any old state, and neither do the cases of a compute it must never
 * take: one another stack of the same project and stack names holds (a twin: test/plugin/stacks.test.ts), or the old
 * place's compute of a resource moved under a new parent without an alias. Taking one of those is a loss and making a
 * second beside one is a duplicate nobody manages, so the create does neither: it lists the branch first and, when
 * computes carry the tag that this process did not send, refuses, naming them and the way to keep one (adoptId),
 * sending nothing (api.md, "Ambiguous writes").
 *
 * A replacement does not meet its old compute: the Compute class gives the resource `deleteBeforeReplace`, so the
 * engine deletes the old compute before it creates the new one, including for `pulumi up --replace`, whose Check gets
 * no old inputs (pulumi/pulumi step_generator.go). A native Compute has no class: the plugin's Diff answers
 * `deleteBeforeReplace` for a replacement it plans, but `--replace` asks no Diff (step_generator.go, diff:
 * isTargetedReplace), so there the refusal below asks for the option (test/cli/native-move.test.ts). Where the state
 * is known to hold the resource (Check got its old inputs: a replacement a diff decides, a new `replacementTrigger`)
 * and a program set `deleteBeforeReplace: false`, one of the tagged computes is the one it replaces: when a Diff saw
 * its id, the others are refused; otherwise none.
 * Docs: docs/faults.md, "Computes: names, lost responses and interruptions".
 */
import { createHash, randomBytes } from "crypto";
import type { ApiEndpoint } from "./outputs";

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

/**
 * Why adopting `existing` is refused, or undefined: a compute named for another resource (another name, stack or
 * project) is held by that resource's state; adopting it would leave two states holding one compute, and the other's
 * destroy (or its replacement) would delete it.
 */
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

/**
 * Refuses a create, before anything is sent, when computes on its branch (`list` reads them) carry this resource's
 * name and neither this process sent them nor the state is known to hold them. See the module's doc.
 */
export async function refuseStrays(inputs: Props, list: () => Promise<ApiEndpoint[]>): Promise<void> {
  if (typeof inputs.ownerTag !== "string") return;
  const state = held.get(inputs.ownerTag);
  if (state && state.id === undefined) return; // one of the tagged computes is the one it replaces
  const tagged = (await list()).filter((c) => carriesOwnerTag(c, inputs) && !sentHere.has(String(c.name)));
  const strays = state ? tagged.filter((c) => c.id !== state.id) : tagged;
  if (strays.length > 0) throw new Error(straysMessage(inputs, strays));
}

/**
 * The refusal, one line: what is there, that nothing was sent, and what to do in each case the provider cannot tell
 * apart: keep it (adoptId: it may be in use, clients may connect to its host) or delete it; an alias for a move; the
 * default order for a replacement; another name beside a twin stack's.
 */
function straysMessage(inputs: Props, strays: ApiEndpoint[]): string {
  const [first] = strays;
  const listed = strays.map((c) => `${c.id} (${String(c.name)})`).join(", ");
  const are = strays.length > 1 ? "are" : "is";
  return (
    `Compute "${String(inputs.resourceName ?? "")}" was not created: on branch ${String(inputs.branchId)}, ${listed} ` +
    `${are} named for this resource and no state is known to hold ${strays.length > 1 ? "them" : "it"}. If an ` +
    `interrupted pulumi up made it or pulumi state delete forgot it, keep it with adoptId: "${first.id}" (or delete ` +
    `it if nothing uses it) and run pulumi up again; if you moved this resource under a new parent, give it an alias ` +
    `to its old place; if this is a replacement, set deleteBeforeReplace: true (the Compute class's default, which a ` +
    `native neon:index:Compute lacks); if another stack with the same project and stack names holds it, it is not ` +
    `yours: rename this resource. See ${STRAYS_DOCS}`
  );
}
