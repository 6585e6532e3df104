/**
 * Adopting an existing compute by id (`adoptId`): Pulumi's `import` cannot reach a dynamic provider.
 *
 * - Adoption reads the compute, refuses what cannot change in place, and PATCHes what differs from the program; a
 *   compute the program does not name gets this resource's tagged name, like the computes it creates.
 * - A compute that already carries this resource's tag is never adopted again: a replacement (`pulumi up --replace`,
 *   a `replacementTrigger`, a new parent) calls Create while the compute it replaces exists, and with `adoptId`
 *   still in the program it would adopt that compute, which Pulumi then deletes.
 * - The preview says beforehand what adopting may do to a running compute, and that `adoptId` only acts once.
 */
import { planComputeChange } from "./compute-diff";
import { ApiEndpoint, toOutputs } from "./compute-mapping";
import { attemptName, carriesOwnerTag } from "./compute-owner";
import { patchCompute } from "./compute-patch";
import { errorKind } from "./errors";
import { client } from "./runtime";

type Props = Record<string, unknown>;

/** Takes the compute `inputs.adoptId` under management. */
export async function adoptCompute(inputs: Props): Promise<ApiEndpoint> {
  const projectId = String(inputs.projectId);
  const existing = await getForAdoption(projectId, String(inputs.adoptId));
  if (carriesOwnerTag(existing, inputs)) {
    throw new Error(
      `adoptId: compute ${existing.id} already belongs to this resource (it was adopted or created by it). A ` +
        `replacement cannot adopt it again: Pulumi would delete it right after. Remove adoptId from the program, and ` +
        `the replacement creates a new compute.`,
    );
  }
  const current = toOutputs(existing, inputs);
  const plan = planComputeChange(current, inputs);
  if (plan.replaces.length > 0) {
    const why = plan.replaces.map((p) => `${p} is ${String(current[p])} on the service`);
    throw new Error(
      `adoptId: compute ${existing.id} cannot be adopted as declared: ${why.join("; ")}, and the program ` +
        `declares another value (these cannot change in place)`,
    );
  }
  const named = inputs.name === undefined ? { ...inputs, name: attemptName(inputs) } : inputs;
  const patch = inputs.name === undefined ? [...plan.patch, "name"] : plan.patch;
  return patch.length > 0 ? (await patchCompute(projectId, existing.id, named, patch)).endpoint : existing;
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

/** What Check says about `adoptId` (olds empty: a create or a replacement; else an existing resource). */
export function adoptionWarnings(olds: Props, news: Props): string[] {
  if (typeof news.adoptId !== "string") return [];
  const label = `Compute "${String(news.resourceName ?? "")}"`;
  if (Object.keys(olds).length === 0) {
    return [
      `${label} adopts ${news.adoptId}: where its sizes, branch, provisioner or Postgres settings differ from the ` +
        `program's, adopting PATCHes them, and a running compute restarts (its open connections drop)` +
        (news.name === undefined ? `; it is renamed pulumi-${String(news.ownerTag)}-… (set name to keep another)` : ""),
    ];
  }
  if (olds.adoptId !== news.adoptId) return [];
  return [
    `${label}: adoptId only acts on the first up; remove it from the program. While it stays, a replacement of ` +
      `this resource would try to adopt the compute it replaces (and refuses to when it can tell).`,
  ];
}
