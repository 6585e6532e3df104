/**
 * Adoption by id (`adoptId`), written once for the resources that have it (Compute, Branch, Project, Role, Database):
 * Pulumi's `import` cannot reach a dynamic provider, so a program names an existing object and its create takes it
 * under management (a project's default objects, by the project's outputs).
 *
 * - Adoption reads the object (one not there: refused, nothing changed), refuses what cannot change in place, and
 *   changes what differs from the program (the resource's hook: `adoptCompute`, `adoptBranch`).
 * - **Pulumi never deletes an object that the state's `adoptId` names.** With `adoptId` still in the program, a
 *   replacement (`pulumi up --replace`, a `replacementTrigger`, a new parent without an alias) calls Create while the
 *   object exists, and Create adopts that same object again: it cannot tell a first adoption from a re-adoption, and
 *   neither Create nor the replacement's Check gets the old state. So the Delete of the replaced resource leaves it;
 *   Delete cannot tell a replacement from a destroy, so a destroy leaves it too, and says how to delete it: remove
 *   `adoptId` (an update that sends nothing records that), then remove the resource. An object left behind is a
 *   nuisance; one deleted while a state holds it is a loss (api.md, "Ambiguous writes").
 * - Check says beforehand what adopting may do, that `adoptId` only acts once, and what removing it means.
 */
import { errorKind } from "./errors";
import { isUnknown } from "./unknown";

type Props = Record<string, unknown>;

/** What adoption's messages say of one resource type. */
export interface Adoptable {
  /** `Compute`, `Branch`: how messages name the resource. */
  type: string;
  /** `compute`, `branch`: how messages name the object. */
  kind: string;
  /** What adopting changes, said before it happens (`where its sizes … differ, adopting PATCHes them …`). */
  adopting: (news: Props) => string;
}

const REPLACEMENTS = "pulumi up --replace, a replacementTrigger, a new parent";

/** The object `id` for adoption; one not there is refused, saying nothing was changed. */
export async function readForAdoption<T>(adoptable: Adoptable, projectId: string, id: string, read: () => Promise<T>) {
  try {
    return await read();
  } catch (error) {
    if (errorKind(error) !== "not_found") throw error;
    throw notThere(adoptable, projectId, id, error);
  }
}

/** The refusal of an adoptId that names nothing: nothing was changed. */
export function notThere(adoptable: Adoptable, projectId: string, id: string, cause?: unknown): Error {
  return new Error(
    `adoptId: ${adoptable.kind} ${id} does not exist${adoptable.kind === "project" ? "" : ` in project ${projectId}`}, ` +
      `or the key does not reach it. Nothing was changed.`,
    cause === undefined ? undefined : { cause },
  );
}

/** The refusal of an object that differs from the program where it cannot change in place: `why`, then `remedy`. */
export function cannotAdopt(adoptable: Adoptable, id: string, why: string, remedy: string): Error {
  return new Error(
    `adoptId: ${adoptable.kind} ${id} cannot be adopted as declared: ${why}, and the program declares another value ` +
      `(${remedy}). Nothing was changed.`,
  );
}

/** What Check says about `adoptId` (olds empty: a create or a replacement; else an existing resource). */
export function adoptionWarnings(adoptable: Adoptable, olds: Props, news: Props): string[] {
  const { type, kind } = adoptable;
  // A Role or Database has no resourceName input: its name says which.
  const label =
    typeof news.resourceName === "string" ? `${type} "${news.resourceName}"` : `${type} ${String(news.name)}`;
  if (typeof news.adoptId !== "string") {
    if (typeof olds.adoptId !== "string") return [];
    return [
      `${label}: adoptId ${olds.adoptId} is removed; the up records that and sends nothing, and from then on ` +
        `pulumi destroy (or removing the resource) deletes the ${kind}. Remove it in an up of its own: a ` +
        `replacement of the resource (${REPLACEMENTS}) in the same up makes a new ${kind} and leaves ` +
        `${olds.adoptId} on the service, unmanaged.`,
    ];
  }
  const unknown = isUnknown(news.adoptId);
  if (Object.keys(olds).length === 0) {
    // In a preview, an adoptId from a resource this update creates (a Project's defaultBranchId) is not known yet.
    const id = unknown ? `the ${kind} adoptId names (known after apply)` : news.adoptId;
    return [
      `${label} adopts ${id}: ${adoptable.adopting(news)}. If this resource already holds ` +
        `${unknown ? "it" : id} (a replacement: ${REPLACEMENTS}), it adopts it again, and the replaced resource ` +
        `leaves it on the service: Pulumi never deletes a ${kind} that adoptId names.`,
    ];
  }
  // Not known in this preview (its Project is updated): the up's own Check says it if it changed.
  if (unknown) return [];
  if (olds.adoptId !== news.adoptId) {
    return [
      `${label}: adoptId acts only when the resource is created, and this resource has its ${kind} already: ` +
        `${news.adoptId} is recorded but not adopted now (a replacement would adopt it instead of making a ${kind}).`,
    ];
  }
  // The same adoptId, kept: nothing changes, so nothing is said (a project's default objects keep it for good); what
  // keeping it means is said when a delete leaves the object (keptAdopted) and in docs/resources.md.
  return [];
}

/**
 * Why Delete leaves the object `id` (named `label` in messages) on the service, or undefined to delete it: its
 * outputs still record `adoptId` naming it, so a replacement may hold it now (see the module's doc).
 */
export function keptAdopted(adoptable: Adoptable, id: string, label: string, props: Props): string | undefined {
  if (props.adoptId !== id) return undefined;
  return (
    `${label} was not deleted: it was adopted, and its state still records adoptId ${id}. While adoptId stays in the ` +
    `program, a replacement of the resource (${REPLACEMENTS}) adopts this same ${adoptable.kind} again, so Pulumi ` +
    `never deletes it. If a replacement with adoptId took it in this up, it is managed as before. Otherwise (a ` +
    `destroy, a removed resource, a replacement without adoptId) ${id} is no longer managed: it goes when its project ` +
    `is deleted (a Project's destroy); to delete it before, delete it in the Neon console, or declare the resource ` +
    `again with adoptId ${id}, run pulumi up, remove adoptId, run pulumi up, then remove the resource.`
  );
}

/**
 * The databases this process left on the service because their state's adoptId named them (a project's default
 * database, say), by `<projectId>/<branchId>/<name>`. One process serves a whole deployment: the delete of the role
 * that owns such a database, which Neon refuses while the database stands, leaves the role too (both go with their
 * project) instead of failing the destroy.
 */
const keptDatabases = new Set<string>();

export const noteKeptDatabase = (projectId: string, branchId: string, name: string): void => {
  keptDatabases.add(`${projectId}/${branchId}/${name}`);
};

export const wasKeptDatabase = (projectId: string, branchId: string, name: string): boolean =>
  keptDatabases.has(`${projectId}/${branchId}/${name}`);

/**
 * `name` defaults to the resource's name for an object Pulumi creates (a Branch, a Project); an adopted one keeps its
 * own, and so does one whose state has no name (adopted, then `adoptId` removed).
 */
export function withDefaultName(olds: Props, news: Props): Props {
  if (news.name !== undefined || news.adoptId !== undefined || typeof news.resourceName !== "string") return news;
  if (Object.keys(olds).length > 0 && olds.name === undefined) return news;
  return { ...news, name: news.resourceName };
}
