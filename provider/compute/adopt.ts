/**
 * Adopting an existing compute by id (`adoptId`): Pulumi's `import` cannot reach a dynamic provider.
 *
 * - Adoption reads the compute, refuses what cannot change in place, and PATCHes what differs from the program; a
 *   compute the program does not name gets this resource's tagged name, like the computes it creates.
 * - **Pulumi never deletes a compute that the state's `adoptId` names.** With `adoptId` still in the program, a
 *   replacement (`pulumi up --replace`, a `replacementTrigger`, a new parent without an alias) calls Create while the
 *   compute exists, and Create adopts that same compute again: it cannot tell a first adoption from a re-adoption (a
 *   compute has no tags, and a declared name is the user's), and neither Create nor the replacement's Check gets the
 *   old state. So the Delete of the replaced resource leaves the compute; Delete cannot tell a replacement from a
 *   destroy, so a destroy leaves it too, and says how to delete it: remove `adoptId` (an update that sends nothing
 *   records that), then remove the resource. Leaving a compute is a nuisance; deleting the one the state holds is a
 *   loss (api.md, "Ambiguous writes").
 * - The preview says beforehand what adopting may do to a running compute, that `adoptId` only acts once, and that
 *   a replaced or destroyed adopted compute stays on the service.
 */
import { ApiEndpoint, toOutputs } from "./outputs";
import { attemptName, carriesOwnerTag } from "./owner";
import { ComputePlan, planComputeChange } from "./plan";
import { patchCompute } from "./update";
import { errorKind } from "../shared/errors";
import { client } from "../shared/runtime";

type Props = Record<string, unknown>;

/** Takes the compute `inputs.adoptId` under management (again, for a replacement: see the module's doc). */
export async function adoptCompute(inputs: Props): Promise<ApiEndpoint> {
  const projectId = String(inputs.projectId);
  const existing = await getForAdoption(projectId, String(inputs.adoptId));
  const current = toOutputs(existing, inputs);
  const plan = planComputeChange(current, inputs);
  if (plan.replaces.length > 0) {
    const why = plan.replaces.map((p) => `${p} is ${String(current[p])} on the service`);
    throw new Error(
      `adoptId: compute ${existing.id} cannot be adopted as declared: ${why.join("; ")}, and the program ` +
        `declares another value (these cannot change in place)`,
    );
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

async function getForAdoption(projectId: string, id: string): Promise<ApiEndpoint> {
  try {
    return (await client().endpoints.get(projectId, id)) as ApiEndpoint;
  } catch (error) {
    if (errorKind(error) === "not_found") {
      throw new Error(`adoptId: compute ${id} does not exist in project ${projectId}`, { cause: error });
    }
    throw error;
  }
}

const REPLACEMENTS = "pulumi up --replace, a replacementTrigger, a new parent";

/** What Check says about `adoptId` (olds empty: a create or a replacement; else an existing resource). */
export function adoptionWarnings(olds: Props, news: Props): string[] {
  const label = `Compute "${String(news.resourceName ?? "")}"`;
  if (typeof news.adoptId !== "string") {
    if (typeof olds.adoptId !== "string") return [];
    return [
      `${label}: adoptId ${olds.adoptId} is removed; the up records that and sends nothing. Remove it in an up of its ` +
        `own: a replacement of the resource (${REPLACEMENTS}) in the same up makes a new compute and leaves ` +
        `${olds.adoptId} on the service, unmanaged.`,
    ];
  }
  if (Object.keys(olds).length === 0) {
    return [
      `${label} adopts ${news.adoptId}: where its sizes, branch, provisioner or Postgres settings differ from the ` +
        `program's, adopting PATCHes them, and a running compute restarts (its open connections drop)` +
        (news.name === undefined
          ? `; it is renamed pulumi-${String(news.ownerTag)}-… (set name to keep another)`
          : "") +
        `. If this resource already holds ${news.adoptId} (a replacement: ${REPLACEMENTS}), it adopts it again, and ` +
        `the replaced resource leaves it on the service: Pulumi never deletes a compute that adoptId names.`,
    ];
  }
  if (olds.adoptId !== news.adoptId) {
    return [
      `${label}: adoptId acts only when the resource is created, and this resource has its compute already: ` +
        `${news.adoptId} is recorded but not adopted now (a replacement would adopt it instead of making a compute).`,
    ];
  }
  return [
    `${label}: adoptId only acts on the first up; remove it from the program (the next up records that and sends ` +
      `nothing). While it stays, Pulumi never deletes compute ${news.adoptId}: a replacement (${REPLACEMENTS}) adopts ` +
      `it again, and pulumi destroy or removing the resource leaves it on the service.`,
  ];
}

/**
 * Why Delete leaves the compute `id` on the service, or undefined to delete it: its outputs still record `adoptId`
 * naming it, so a replacement may hold it now (see the module's doc).
 */
export function keptOnDelete(id: string, props: Props): string | undefined {
  if (props.adoptId !== id) return undefined;
  return (
    `${labelOf(id, props)} was not deleted: it was adopted, and its state still records adoptId ${id}. While ` +
    `adoptId stays in the program, a replacement of the resource (${REPLACEMENTS}) adopts this same compute ` +
    `again, so Pulumi never deletes it. If a replacement with adoptId took it in this up, it is managed as before. ` +
    `Otherwise (a destroy, a removed resource, a replacement without adoptId) ${id} is no longer managed: delete it ` +
    `in the Neon console, or declare the resource again with adoptId ${id}, run pulumi up, remove adoptId, run ` +
    `pulumi up, then remove the resource.`
  );
}

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
