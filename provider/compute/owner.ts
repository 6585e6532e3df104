/**
 * Whose compute it is: the names this provider gives computes, by which a create recognises the compute it made when
 * its response was lost (and nothing else), and the strays: computes named for a resource that nobody manages.
 *
 * Each create attempt sends a name no other attempt, resource, stack or person can send: `pulumi-<ownerTag>-<mark>`,
 * the mark being random and new for every attempt. A lost response is settled by finding that exact name on the
 * branch. A compute is never recognised by a mark shared by several attempts (the resource's tag alone, its sizes,
 * its creation time): `pulumi up --replace`, a `replacementTrigger` and a new parent all make the engine call
 * Create while the compute the state holds still exists, and that compute carries the same tag (api.md, "Ambiguous
 * writes": one you took from someone is a loss; an unused one you report is a nuisance).
 */
import { randomBytes } from "crypto";
import type { ApiEndpoint } from "./outputs";
import { warn } from "../shared/diagnostics";
import { client } from "../shared/runtime";

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

/*
 * Strays. Before a create, the computes on its branch named for this resource that nobody is known to manage are
 * named to the user. Every compute this provider makes is named `pulumi-<ownerTag>-<mark>` (above), `ownerTag` being
 * stable across runs (a hash of project, stack and resource name). Two paths left such a compute behind with no word naming it: an
 * `up` whose CLI was killed while the create ran (two Ctrl-Cs: the engine keeps a pending create and the next `up`
 * creates again) and `pulumi state delete` of the resource (the next `up` creates again). Neither gives the provider
 * any old state, and the same holds for a compute it must never take: the one a `pulumi up --replace` or a move under
 * a new parent replaces (Check gets no old inputs, no Diff is asked), and the one of a twin stack (the same project
 * and stack names in another backend: test/plugin/stacks.test.ts). So the create lists the branch first and names, in
 * one warning, the computes carrying the tag that this process did not send, with the way to keep one (adoptId) or
 * delete them; then it creates (api.md, "Ambiguous writes": taking what may be another's is a loss).
 *
 * Where the state is known to hold the resource (Check got its old inputs: a replacement a diff decides, a new
 * `replacementTrigger`), one of the tagged computes is the one it replaces: when a Diff saw its id, the others are
 * named; otherwise nothing is listed. Docs: docs/faults.md, "Computes: names, lost responses and interruptions".
 */
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
 * Names, before a create, the computes on its branch that carry this resource's name and that neither this process
 * sent nor the state is known to hold; the create then goes ahead. See the module's doc.
 */
export async function warnOfStrays(inputs: Props): Promise<void> {
  if (typeof inputs.ownerTag !== "string") return;
  const state = held.get(inputs.ownerTag);
  if (state && state.id === undefined) return; // one of the tagged computes is the one it replaces
  const computes = (await client().endpoints.listForBranch(
    String(inputs.projectId),
    String(inputs.branchId),
  )) as ApiEndpoint[];
  const tagged = computes.filter((c) => carriesOwnerTag(c, inputs) && !sentHere.has(String(c.name)));
  const strays = state ? tagged.filter((c) => c.id !== state.id) : tagged;
  if (strays.length > 0) warn(straysMessage(inputs, strays, state !== undefined));
}

const labelOf = (inputs: Props) => `Compute "${String(inputs.resourceName ?? "")}"`;
const listed = (computes: ApiEndpoint[]) => computes.map((c) => `${c.id} (${String(c.name)})`).join(", ");
const them = (computes: ApiEndpoint[]) => (computes.length > 1 ? "them" : "it");

/**
 * The warning naming them. Where the state is not known to hold the resource, one of them may be what another state
 * holds: the compute a `pulumi up --replace` or a new parent replaces, or a twin stack's (the same project and stack
 * names in another backend). The provider cannot tell those from a forgotten compute, so it never takes one (api.md,
 * "Ambiguous writes"): it names them, with adoptId first for the one that is this resource's.
 */
function straysMessage(inputs: Props, strays: ApiEndpoint[], replacing: boolean): string {
  const are = strays.length > 1 ? "are" : "is";
  const unless = replacing
    ? ""
    : ` (unless this is a pulumi up --replace or a move under a new parent, which then deletes the old one, or ` +
      `another stack of the same project and stack names holds ${them(strays)})`;
  return (
    `${labelOf(inputs)} makes a new compute on branch ${String(inputs.branchId)}, where ${listed(strays)} ${are} ` +
    `named for this resource and not managed by it${unless}: left by an interrupted pulumi up or forgotten by ` +
    `pulumi state delete. If nothing uses ${them(strays)}, delete ${them(strays)} in the Neon console; if something ` +
    `does, take ${them(strays)} under management with adoptId (resources.md, Compute); see ${STRAYS_DOCS}`
  );
}
