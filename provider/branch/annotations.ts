/**
 * A branch's annotations are set when it is created, and never changed by the provider. The only requests that take
 * them are the creates (`annotation_value`, OpenAPI `createProjectBranch` and `createProjectBranchAnonymized`:
 * `AnnotationCreateValueRequest`); `BranchUpdateRequest` has `name`, `protected` and `expires_at` only, no path takes
 * annotations of an existing branch, and the official CLI sets them only at creation (neondatabase/neonctl#264). So a
 * change would be an update that cannot succeed: Diff refuses it at preview, naming the keys and the way out, with
 * nothing sent, and so does an update or an adoption that gets one all the same. Not Check: the engine checks a
 * registration with its old inputs before a replacement a new `replacementTrigger` decides, and calls no Diff for that
 * one (pulumi/pulumi step_generator.go, `triggerReplace`), so a refusal in Check would refuse the way out too; Diff
 * also sees the branch's own annotations, which the old inputs may not declare. A replacement the Diff plans (a new
 * parent, say) takes the new annotations with it. Removing `annotations` from the program only stops declaring them (plan.ts: recorded); the branch
 * keeps them. Messages name the keys, never the values (the plugin cannot know which were secrets).
 */
import { stableJson } from "../shared/stable-json";
import { describe } from "../shared/validators";
import { labelOf } from "./plan";

type Props = Record<string, unknown>;
type Annotations = Record<string, unknown>;

/** True when the service keeps exactly the annotations the program asks for. */
export function annotationsApplied(kept: Record<string, string> | undefined, wanted: unknown): boolean {
  return stableJson(kept ?? {}) === stableJson(wanted ?? {});
}

/** What a change from `before` to `after` does, by key: `set "k" (old → new)`, `add "k"`, `remove "k"`. */
function changesOf(before: Annotations, after: Annotations): string {
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  return keys
    .filter((k) => stableJson(before[k]) !== stableJson(after[k]))
    .map((k) => {
      const key = JSON.stringify(k);
      if (before[k] === undefined) return `add ${key} (${describe(after[k])})`;
      if (after[k] === undefined) return `remove ${key} (${describe(before[k])})`;
      return `set ${key} from ${describe(before[k])} to ${describe(after[k])}`;
    })
    .join(", ");
}

/** Why annotations cannot change from `before` (the service's) to `after`, with the way out; one line. */
export function annotationsChangeReason(before: unknown, after: unknown): string {
  return (
    `cannot change on an existing branch: Neon sets a branch's annotations only when it creates it (no documented ` +
    `call updates them), and this change would ${changesOf((before ?? {}) as Annotations, after as Annotations)} ` +
    `(values not shown: they may be secrets). Set annotations back to what they were, or recreate the branch with a ` +
    `new value of the resource option replacementTrigger (a new branch from its parent's data: this branch's own ` +
    `changes are deleted with it). See docs/resources.md#branch (Annotations after creation)`
  );
}

/** Diff and update: the error for a planned change of annotations (`olds`: the old outputs, the service's value). */
export function annotationsChangeError(id: string, olds: Props, news: Props): Error {
  return new Error(`${labelOf(id, olds)}: annotations: ${annotationsChangeReason(olds.annotations, news.annotations)}`);
}

/**
 * The error of a create whose branch did not keep the annotations it was created with (create.ts reads them back).
 * Names no annotation value.
 */
export function notAppliedError(id: string, props: Props): Error {
  return new Error(
    `${labelOf(id, props)}: the branch was created, but the service did not keep the annotations it was created ` +
      `with. Neon sets a branch's annotations only when it creates it. The state records the annotations the ` +
      `service has (the annotations output). To give the branch these annotations, recreate it with a new value of ` +
      `the resource option replacementTrigger (a new branch from its parent's data: this branch's own changes are ` +
      `deleted with it), or set annotations to what the service has. See docs/resources.md#branch (Annotations after creation)`,
  );
}
