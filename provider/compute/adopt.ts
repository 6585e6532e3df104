/**
 * Compute's hooks of adoption by id (`adoptId`; the rules are shared/adoption.ts's, Branch's too): adopting reads the
 * compute, refuses what cannot change in place and a compute another resource's state may hold, and PATCHes what
 * differs from the program; a compute the program does not name gets this resource's tagged name, like the computes
 * it creates. Pulumi never deletes a compute that the state's `adoptId` names, and a replacement by the diff of an
 * adopted compute that `adoptId` still names is refused at preview (its create would adopt it again, and refuse).
 */
import { ApiEndpoint, toOutputs } from "./outputs";
import { attemptName, carriesOwnerTag } from "./owner";
import { ComputePlan, planComputeChange } from "./plan";
import { patchCompute } from "./update";
import * as adoption from "../shared/adoption";
import { client } from "../shared/runtime";

type Props = Record<string, unknown>;

/** How adoption's messages speak of a compute. */
const ADOPTABLE: adoption.Adoptable = {
  type: "Compute",
  kind: "compute",
  adopting: (news) =>
    `where its sizes, branch, provisioner or Postgres settings differ from the program's, adopting PATCHes them, ` +
    `and a running compute restarts (its open connections drop)` +
    (news.name === undefined ? `; it is renamed pulumi-${String(news.ownerTag)}-… (set name to keep another)` : ""),
};

/** Takes the compute `inputs.adoptId` under management (again, for a replacement: see the module's doc). */
export async function adoptCompute(inputs: Props): Promise<ApiEndpoint> {
  const projectId = String(inputs.projectId);
  const id = String(inputs.adoptId);
  const existing = await adoption.readForAdoption(ADOPTABLE, projectId, id, async () => {
    return (await client().endpoints.get(projectId, id)) as ApiEndpoint;
  });
  const current = toOutputs(existing, inputs);
  const plan = planComputeChange(current, inputs);
  if (plan.replaces.length > 0) {
    const why = plan.replaces.map((p) => `${p} is ${String(current[p])} on the service`);
    throw adoption.cannotAdopt(ADOPTABLE, existing.id, why.join("; "), "these cannot change in place");
  }
  refuseAnotherHolder(existing, inputs);
  // A compute this resource already named (a re-adoption) keeps its name.
  const rename = inputs.name === undefined && !carriesOwnerTag(existing, inputs);
  const named = rename ? { ...inputs, name: attemptName(inputs) } : inputs;
  const patch = rename ? [...plan.patch, "name"] : plan.patch;
  // `current`: a PATCH of one setting keeps the other as the compute has it (toPatchBody).
  return patch.length > 0 ? (await patchCompute(projectId, existing.id, named, patch, current)).endpoint : existing;
}

/** `pulumi-<ownerTag>-<mark>`: the name this provider gives the computes its resources create or adopt. */
const MANAGED_NAME = /^pulumi-[0-9a-f]{12}-[0-9a-f]{8}$/;

/**
 * A compute named for another resource (another name, stack or project) is held by that resource's state: adopting
 * it would leave two states holding one compute, and the other's destroy (or its replacement) would delete it.
 */
function refuseAnotherHolder(existing: ApiEndpoint, inputs: Props): void {
  const name = (existing as { name?: unknown }).name;
  if (typeof name !== "string" || !MANAGED_NAME.test(name) || carriesOwnerTag(existing, inputs)) return;
  throw new Error(
    `adoptId: compute ${existing.id} is named ${name}, the name this provider gives the compute of another Pulumi ` +
      `resource (another resource name, stack or project), whose state may still hold it: adopting it would leave ` +
      `two states holding one compute, and the other's destroy would delete it. To move a resource within a stack, ` +
      `give it an alias instead of adoptId; to take a compute over from another stack, run pulumi state delete ` +
      `<URN> there first. Once no state holds it, rename the compute (in the Neon console), then adopt it.`,
  );
}

/** What Check says about `adoptId` (shared/adoption.ts). */
export const adoptionWarnings = (olds: Props, news: Props): string[] =>
  adoption.adoptionWarnings(ADOPTABLE, olds, news);

/** Why Delete leaves the compute `id` on the service, or undefined to delete it (shared/adoption.ts). */
export const keptOnDelete = (id: string, props: Props): string | undefined =>
  adoption.keptAdopted(ADOPTABLE, id, labelOf(id, props), props);

/**
 * The preview's warning for a replacement (by the diff) of an adopted compute: the original is not deleted, and while
 * `adoptId` still names it the replacement cannot be made (adoption refuses what cannot change in place).
 */
export function adoptedReplaceWarning(id: string, olds: Props, news: Props, plan: ComputePlan): string | undefined {
  if (plan.replaces.length === 0 || olds.adoptId !== id) return undefined;
  const changed = plan.replaces.join(", ");
  if (news.adoptId === id) {
    return (
      `${labelOf(id, olds)} cannot be replaced (${changed} changed) while adoptId names it: the replacement would ` +
      `adopt it again, and adopting refuses what cannot change in place. Remove adoptId and run pulumi up first (it ` +
      `sends nothing); then this change makes a new compute and deletes ${id}.`
    );
  }
  return (
    `${labelOf(id, olds)} is replaced (${changed} changed) by a new compute, and ${id} stays on the service: its ` +
    `state still records adoptId, so Pulumi does not delete it. Delete it in the Neon console afterwards, or remove ` +
    `adoptId in an up of its own before this change.`
  );
}

/** A replacement (by the diff) of an adopted compute that `adoptId` still names: adoption would refuse it. */
export function refusesAdoptedReplace(id: string, olds: Props, news: Props, plan: ComputePlan): boolean {
  return plan.replaces.length > 0 && olds.adoptId === id && news.adoptId === id;
}

function labelOf(id: string, props: Props): string {
  return props.resourceName ? `Compute "${String(props.resourceName)}" (${id})` : `Compute ${id}`;
}
