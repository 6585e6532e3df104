/**
 * Adopting an existing branch by id (`adoptId`): Pulumi's `import` cannot reach a dynamic provider. As Compute's
 * adoptId (provider/compute/adopt.ts):
 *
 * - Adoption reads the branch, refuses what cannot change in place (the program declares another parent, point in
 *   time or init source than the branch was made from, or other annotations: no call changes them, annotations.ts),
 *   and PATCHes what differs from the program (name, protection, expiry). A program that leaves `name` out keeps the branch's
 *   name (the resource's name is the default only for a branch Pulumi creates).
 * - **Pulumi never deletes a branch that the state's `adoptId` names.** With `adoptId` still in the program, a
 *   replacement calls Create while the branch exists, and Create adopts that same branch again (it cannot tell a first
 *   adoption from a re-adoption; neither Create nor the replacement's Check gets the old state). So Delete leaves it,
 *   replacement or destroy alike, and says how to delete it: remove `adoptId` (an update that sends nothing records
 *   that), then remove the resource. A branch left behind is a nuisance; one deleted with its data is a loss.
 * - A name some branch has is never adopted by accident: only `adoptId` adopts (create.ts refuses the name).
 */
import { errorKind } from "../shared/errors";
import { client } from "../shared/runtime";
import { Created } from "./create";
import { labelOf, planBranchChange } from "./plan";
import { declaredOf, Origin, originOfRecord, outputsWith } from "./state";
import { updateBranch } from "./update";

type Props = Record<string, unknown>;

/**
 * Branches this plugin process adopted. One process serves a whole deployment, so the Delete of another resource's
 * state that held the branch (a resource moved under a new parent without an alias, then given adoptId: the engine
 * creates the new URN, which adopts, then deletes the old one) comes here after the adoption, and must not delete it.
 */
const adoptedHere = new Set<string>();

/** Takes the branch `inputs.adoptId` under management (again, for a replacement: see the module's doc). */
export async function adoptBranch(inputs: Props): Promise<Created> {
  const adopted = await adopt(inputs);
  adoptedHere.add(adopted.branch.id);
  return adopted;
}

async function adopt(inputs: Props): Promise<Created> {
  const projectId = String(inputs.projectId);
  const id = String(inputs.adoptId);
  const found = await getForAdoption(projectId, id);
  const origin = originOfRecord(found.branch);
  const kept = found.annotation?.value ?? {};
  // As if the state held the branch as it is, with the program's own records (so nothing is reset or "removed").
  const current = {
    ...outputsWith(found.branch, kept, { ...inputs, declared: undefined }, origin),
    declared: declaredOf(inputs),
    resetTriggers: inputs.resetTriggers,
  };
  const plan = planBranchChange(current, inputs);
  if (plan.replaces.length > 0) {
    const why = plan.replaces.map((p) => `${p} is ${shown(p, current, origin)} on the service`);
    throw new Error(
      `adoptId: branch ${id} cannot be adopted as declared: ${why.join("; ")}, and the program declares another ` +
        `value (what a branch was made from cannot change; remove these inputs or adopt another branch). Nothing ` +
        `was changed.`,
    );
  }
  if (plan.refused.length > 0) {
    throw new Error(
      `adoptId: branch ${id} cannot be adopted as declared: its annotations are not the program's, and Neon sets a ` +
        `branch's annotations only when it creates it. Leave annotations out of the program, or declare the ` +
        `branch's own (its annotations output, once adopted without them). Nothing was changed.`,
    );
  }
  if (plan.patch.length === 0) return { branch: found.branch, annotation: kept, origin };
  const outputs = await updateBranch(id, current, inputs);
  const branch = (await client().branches.get(projectId, id)).branch;
  return { branch, annotation: outputs.annotations as Record<string, string> | undefined, origin };
}

/** How adoption names the service's value of a property that would need a replacement. */
function shown(property: string, current: Props, origin: Origin): string {
  const value = property === "projectId" ? current.projectId : origin[property as keyof Origin];
  return value === undefined ? "not set" : JSON.stringify(value);
}

async function getForAdoption(projectId: string, id: string) {
  try {
    return await client().branches.get(projectId, id);
  } catch (error) {
    if (errorKind(error) === "not_found") {
      throw new Error(`adoptId: branch ${id} does not exist in project ${projectId}. Nothing was changed.`, {
        cause: error,
      });
    }
    throw error;
  }
}

const REPLACEMENTS = "pulumi up --replace, a replacementTrigger, a new parent";

/** What Check says about `adoptId` (olds empty: a create or a replacement; else an existing resource). */
export function adoptionWarnings(olds: Props, news: Props): string[] {
  const label = `Branch "${String(news.resourceName ?? "")}"`;
  if (typeof news.adoptId !== "string") {
    if (typeof olds.adoptId !== "string") return [];
    return [
      `${label}: adoptId ${olds.adoptId} is removed; the up records that and sends nothing, and from then on ` +
        `pulumi destroy (or removing the resource) deletes the branch. Remove it in an up of its own: a replacement ` +
        `of the resource (${REPLACEMENTS}) in the same up makes a new branch and leaves ${olds.adoptId} on the ` +
        `service, unmanaged.`,
    ];
  }
  if (Object.keys(olds).length === 0) {
    return [
      `${label} adopts ${news.adoptId}: where its name, protection or expiry differ from the program's, adopting ` +
        `changes them (with name left out, it keeps its name; other annotations are refused: Neon sets them only at ` +
        `creation). If this resource already holds ` +
        `${news.adoptId} (a replacement: ${REPLACEMENTS}), it adopts it again, and the replaced resource leaves it ` +
        `on the service: Pulumi never deletes a branch that adoptId names.`,
    ];
  }
  if (olds.adoptId !== news.adoptId) {
    return [
      `${label}: adoptId acts only when the resource is created, and this resource has its branch already: ` +
        `${news.adoptId} is recorded but not adopted now.`,
    ];
  }
  return [
    `${label}: adoptId only acts on the first up; remove it from the program (the next up records that and sends ` +
      `nothing). While it stays, Pulumi never deletes branch ${news.adoptId}: pulumi destroy or removing the ` +
      `resource leaves it on the service. Keep it for the project's default branch, which Neon never deletes.`,
  ];
}

/** Why Delete leaves the branch `id` on the service, or undefined to delete it (see the module's doc). */
export function keptOnDelete(id: string, props: Props): string | undefined {
  if (props.adoptId !== id && adoptedHere.has(id)) {
    return (
      `${labelOf(id, props)} was not deleted: another resource of this update adopted it (adoptId ${id}), and manages ` +
      `it from now on; this resource's state is dropped. (A resource moved under a new parent is best given an alias ` +
      `to its old place: it then keeps its branch without adoptId.)`
    );
  }
  if (props.adoptId !== id) return undefined;
  return (
    `${labelOf(id, props)} was not deleted: it was adopted, and its state still records adoptId ${id}. While ` +
    `adoptId stays in the program, a replacement of the resource (${REPLACEMENTS}) adopts this same branch again, so ` +
    `Pulumi never deletes it. If a replacement with adoptId took it in this up, it is managed as before. Otherwise ` +
    `${id} is no longer managed: delete it in the Neon console, or declare the resource again with adoptId ${id}, ` +
    `run pulumi up, remove adoptId, run pulumi up, then remove the resource.`
  );
}
