/**
 * Before a create: the compute this resource may already have on the service, recognised by its name.
 *
 * Every compute this provider makes is named `pulumi-<ownerTag>-<mark>` (owner.ts), and `ownerTag` is stable across
 * runs (a hash of project, stack and resource name). Two paths left such a compute behind with nothing saying so: an
 * `up` whose CLI was killed while the create ran (two Ctrl-Cs: the engine keeps a pending create and the next `up`
 * creates again) and `pulumi state delete` of the resource (the next `up` creates again). Neither gives the provider
 * any old state, so Create looks on the branch first:
 *
 * - one compute carrying the tag that matches the program is taken over (no second compute), with a warning naming it;
 * - one that differs, or several that match, are refused, naming them, with adoptId as the way out (nothing changed);
 * - the others carrying the tag are named in a warning (strays nobody manages).
 *
 * What the same process knows is respected: a compute sent or taken by this process is never taken again (two
 * resources of one name under different parents share the tag); a resource the state holds (Check got its old inputs:
 * a replacement by a diff or a new `replacementTrigger`) creates as before, since one of the tagged computes is the
 * one it replaces (its id is known when a Diff saw it: the others are named as strays). `pulumi up --replace` and a
 * move under a new parent give no such sign (Check gets no old inputs, no Diff is asked): there the compute the state
 * holds is taken over, and the Delete of the old state that follows in the same process leaves it (`takenHere`), so
 * nothing is lost and the resource keeps its compute. Docs: docs/faults.md, "Computes: names, lost responses and
 * interruptions".
 */
import { ApiEndpoint, toOutputs } from "./mapping";
import { planComputeChange } from "./diff";
import { carriesOwnerTag } from "./owner";
import { warn } from "../shared/diagnostics";
import { client } from "../shared/runtime";

type Props = Record<string, unknown>;

export const STRAYS_DOCS = "docs/faults.md#computes-names-lost-responses-and-interruptions";

/** Resources the state holds (by owner tag), with the id of their compute when a Diff of this process saw it. */
const held = new Map<string, { id?: string }>();
/** Names this process's creates sent, and computes it took over: never another resource's to take. */
const sentHere = new Set<string>();
const takenHere = new Set<string>();

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

/** True when a create of this process took compute `id` over: the state now holds it under the new resource. */
export const takenInThisProcess = (id: string): boolean => takenHere.has(id);

/**
 * The compute this resource already has on its branch, taken over, or undefined to create one; refuses (throws) what
 * it cannot tell apart. See the module's doc.
 */
export async function existingCompute(inputs: Props): Promise<ApiEndpoint | undefined> {
  if (typeof inputs.ownerTag !== "string") return undefined;
  const state = held.get(inputs.ownerTag);
  if (state && state.id === undefined) return undefined; // one of the tagged computes is the one it replaces
  const computes = (await client().endpoints.listForBranch(
    String(inputs.projectId),
    String(inputs.branchId),
  )) as ApiEndpoint[];
  const tagged = computes.filter(
    (c) => carriesOwnerTag(c, inputs) && !sentHere.has(String(c.name)) && !takenHere.has(c.id),
  );
  if (state) {
    const strays = tagged.filter((c) => c.id !== state.id);
    if (strays.length > 0) warn(straysMessage(inputs, strays));
    return undefined;
  }
  const matching = tagged.filter((c) => differences(c, inputs).length === 0);
  if (matching.length === 1) {
    const [taken] = matching;
    takenHere.add(taken.id);
    warn(takenMessage(inputs, taken));
    const others = tagged.filter((c) => c !== taken);
    if (others.length > 0) warn(straysMessage(inputs, others));
    return taken;
  }
  if (matching.length > 1) throw new Error(refusal(inputs, matching, "match the program"));
  if (tagged.length > 0) throw new Error(refusal(inputs, tagged, "differ from the program"));
  return undefined;
}

/** What the program declares otherwise than the compute has (its name aside: a declared name is applied after). */
function differences(compute: ApiEndpoint, inputs: Props): string[] {
  const plan = planComputeChange(toOutputs(compute, inputs), inputs);
  return [...plan.replaces, ...plan.patch].filter((p) => p !== "name");
}

const labelOf = (inputs: Props) => `Compute "${String(inputs.resourceName ?? "")}"`;
const listed = (computes: ApiEndpoint[]) => computes.map((c) => `${c.id} (${String(c.name)})`).join(", ");
const them = (computes: ApiEndpoint[]) => (computes.length > 1 ? "them" : "it");

function takenMessage(inputs: Props, taken: ApiEndpoint): string {
  return (
    `${labelOf(inputs)} took over compute ${taken.id} on branch ${String(inputs.branchId)} instead of making a ` +
    `second one: it is named for this resource (${String(taken.name)}), matches the program and no state of this ` +
    `stack was seen holding it (an interrupted pulumi up made it, or pulumi state delete forgot it; in a pulumi up ` +
    `--replace it is the compute being replaced, and stays); see ${STRAYS_DOCS}`
  );
}

function straysMessage(inputs: Props, strays: ApiEndpoint[]): string {
  return (
    `${labelOf(inputs)}: ${listed(strays)} on branch ${String(inputs.branchId)} ${strays.length > 1 ? "are" : "is"} ` +
    `named for this resource but not managed by it (left by an interrupted pulumi up, or forgotten by pulumi state ` +
    `delete): delete ${them(strays)} in the Neon console if nothing uses ${them(strays)}; see ${STRAYS_DOCS}`
  );
}

/** Refuses computes named for this resource that cannot be taken over: several that match, or ones that differ. */
function refusal(inputs: Props, found: ApiEndpoint[], how: "match the program" | "differ from the program"): string {
  const [first] = found;
  const branch = `on branch ${String(inputs.branchId)}`;
  const why =
    found.length > 1
      ? `several computes ${branch} are named for it and ${how}: ${listed(found)}`
      : `compute ${listed(found)} ${branch} is named for it, but its ${differences(first, inputs).join(", ")} ${how}`;
  return (
    `${labelOf(inputs)} was not created: ${why} (made by an interrupted pulumi up, forgotten by pulumi state ` +
    `delete, or the compute a pulumi up --replace replaces). Nothing was changed. To manage it, set adoptId: ` +
    `"${first.id}" (adopting applies the program's values), run pulumi up, then remove adoptId; if nothing uses ` +
    `${them(found)}, delete ${them(found)} instead (in a pulumi up --replace, give the resource deleteBeforeReplace: ` +
    `true); see ${STRAYS_DOCS}`
  );
}
