/**
 * A branch's annotations after it was created. Neon documents no way to change them: the only request that takes them
 * is the create (`annotation_value`, OpenAPI `createProjectBranch` / `AnnotationCreateValueRequest`), the update's
 * `BranchUpdateRequest` has `name`, `protected` and `expires_at` only, and the official CLI sets them only at creation
 * (neondatabase/neonctl#264). So an update sends them the one way a service could take them, `annotation_value` beside
 * `branch` in the PATCH, and then reads the branch back: the provider is right whether the service applies them,
 * ignores them (a 200 that changes nothing) or refuses them (a 4xx naming them). When they were not applied, the update
 * fails saying so and what to do, with the branch recorded as the service has it, so the next `up` asks again.
 */
import { errorKind } from "../shared/errors";
import { stableJson } from "../shared/stable-json";
import { labelOf } from "./diff";

type Props = Record<string, unknown>;

/** True when the service keeps exactly the annotations the program asks for. */
export function annotationsApplied(kept: Record<string, string> | undefined, wanted: unknown): boolean {
  return stableJson(kept ?? {}) === stableJson(wanted ?? {});
}

/** True when a failed request was refused for its `annotation_value` (a validation error that mentions it). */
export function refusedForAnnotations(error: unknown): boolean {
  if (errorKind(error) !== "validation") return false;
  const message = (error as { apiMessage?: unknown }).apiMessage ?? (error as Error).message;
  return /annotation/i.test(String(message));
}

/**
 * The error of annotations the service did not apply (`when`: at the create, or an update), or refused (`refusal`:
 * the service's error). Names no annotation value (the plugin cannot know which were secrets).
 */
export function notAppliedError(id: string, props: Props, when: "create" | "update", refusal?: unknown): Error {
  const label = labelOf(id, props);
  const what =
    refusal !== undefined
      ? `the service refused the new annotations (${(refusal as Error).message})`
      : when === "create"
        ? "the branch was created, but the service did not keep the annotations it was created with"
        : "the service did not apply the new annotations (it answered the update without changing them)";
  const others = when === "update" ? " The other changes of this update were applied." : "";
  return new Error(
    `${label}: ${what}. Neon documents no way to change a branch's annotations after it is created (only a ` +
      `create takes them).${others} The state records the annotations the service has (the annotations output), so ` +
      `the next pulumi up asks for them again. To give the branch these annotations, replace it (a new branch from ` +
      `its parent's current data; the old branch's own changes are deleted with it): pulumi up --replace <its URN> ` +
      `with a new name in the same up, or a new value of the resource option replacementTrigger, which keeps the ` +
      `name. Or set annotations back to what the service has.`,
    refusal !== undefined ? { cause: refusal } : undefined,
  );
}
