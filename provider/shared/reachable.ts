/**
 * A 404 from an object of a project (a compute, a role, a database) proves it gone only if its project still answers:
 * a project the key cannot reach answers 404 too (another account's key, an organization or project-scoped key of
 * another organization or project), and taking that for "deleted" would drop from state, or report as destroyed, an
 * object that still exists. Shared by every resource that lives in a project (moved from compute/impl.ts).
 */
import { errorKind } from "./errors";
import { client } from "./runtime";

/** What was not found: its kind (`compute`, `role`, `database`) and how a message names it (`compute ep-…`). */
export interface MissingObject {
  kind: string;
  label: string;
}

/** Resolves when project `projectId` answers; otherwise throws saying why nothing can be concluded. */
export async function assertProjectReachable(projectId: string, what: MissingObject): Promise<void> {
  try {
    await client().branches.list(projectId);
  } catch (error) {
    if (errorKind(error) !== "not_found") throw error;
    throw new Error(
      `${what.label} was not found, and neither was its project ${projectId}, so it is not known whether the ` +
        `${what.kind} is gone: either the project was deleted (then remove the resource from the state: pulumi ` +
        `state delete <its URN>), or neon:apiKey does not reach that project (another account's key, or an ` +
        `organization or project-scoped key of another organization or project): use a key that does. Nothing was ` +
        `changed.`,
      { cause: error },
    );
  }
}
