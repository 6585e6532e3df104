/**
 * What a Branch refuses, each refusal naming the branch (`labelOf`), the reason and what to do: Check's rules over
 * several inputs (the declaration's `crossChecks`), and the refusals of a create, an annotations change and a delete.
 * Sources: OpenAPI (`BranchCreateRequest`, `AnnotationValueData`, `init_source`, `deleteProjectBranch`) and Neon's docs
 * (Branch expiration, Protected branches). No reason echoes free text (a name or an annotation may be a secret).
 */
import type { Branch } from "../../client";
import { checkInputs, Declaration } from "../shared/declaration";
import { hasFraction, instantOf, spanOf } from "../shared/instants";
import { stableJson } from "../shared/stable-json";
import { isUnknown } from "../shared/unknown";
import { CheckFailure, describe, isStringMap, Validator } from "../shared/validators";

type Props = Record<string, unknown>;

/** `Branch "name" (br-…)`, or `Branch br-…` without a resource name. */
export const labelOf = (id: string, props: Props): string =>
  props.resourceName ? `Branch "${String(props.resourceName)}" (${id})` : `Branch ${id}`;

/** `AnnotationValueData`: at most 50 properties, each a string. */
export const isAnnotations: Validator = (v) => {
  const problem = isStringMap(v);
  if (problem) return problem;
  const count = Object.keys(v as object).length;
  return count <= 50
    ? undefined
    : `must have at most 50 entries (Neon's limit for a branch's annotations); got ${count}`;
};

/** Check's rules over several inputs as of `now` (epoch ms), said only once every row accepts its value. */
export function checkSeveral(declaration: Declaration, news: Props, now: number): CheckFailure[] {
  if (checkInputs({ ...declaration, crossChecks: [] }, news).length > 0) return [];
  const reasons: [string, string | undefined][] = [
    ["parentTimestamp", pointInTime(news, now)],
    ["expiresAt", expiry(news, now)],
    ["resetTriggers", resetOfRoot(news)],
  ];
  return reasons.flatMap(([property, reason]) => (reason === undefined ? [] : [{ property, reason }]));
}

/** Neon docs, Branch expiration: "maximum expiration is 30 days". */
const MAX_EXPIRY_MS = 30 * 24 * 3_600_000;

const given = (value: unknown) => value !== undefined && !isUnknown(value);

/** One point on the parent, and not in the future (a branch cannot start from data not yet written). */
function pointInTime(news: Props, now: number): string | undefined {
  if (given(news.parentLsn) && given(news.parentTimestamp)) {
    return "cannot be set with parentLsn: both name the point on the parent the branch starts from; set one";
  }
  const at = given(news.parentTimestamp) ? instantOf(news.parentTimestamp) : undefined;
  if (at === undefined || at <= now) return undefined;
  return `must not be in the future (it is ${spanOf(at - now)} ahead): the parent has no data there yet`;
}

/**
 * Whole seconds (the service keeps no more: another value would differ on every up), in the future, at most 30 days
 * ahead, not on a protected branch (Neon docs, Branch expiration, "Timestamp format requirements", "Restrictions").
 */
function expiry(news: Props, now: number): string | undefined {
  if (!given(news.expiresAt)) return undefined;
  const text = String(news.expiresAt);
  const at = instantOf(text) as number;
  if (hasFraction(text)) return `must be whole seconds, such as 2025-06-09T18:02:16Z (Neon keeps only seconds)`;
  if (at <= now) {
    return (
      `must be in the future; it was ${spanOf(now - at)} ago (the branch is deleted at that time: set a later time, ` +
      `or remove expiresAt)`
    );
  }
  if (at > now + MAX_EXPIRY_MS) return `must be at most 30 days ahead (Neon's limit); it is ${spanOf(at - now)} ahead`;
  if (news.protected !== true) return undefined;
  return "cannot be set on a protected branch (protected: true): Neon does not expire a protected branch";
}

/** A reset takes the parent's latest data: a schema-only branch has no parent (OpenAPI, `init_source`). */
function resetOfRoot(news: Props): string | undefined {
  if (news.resetTriggers === undefined || news.initSource !== "schema-only") return undefined;
  return (
    "cannot be used on a schema-only branch (initSource: schema-only): it is a root branch with no parent to " +
    "reset from; remove resetTriggers, or replace the branch to start it again"
  );
}

/** The refusal of a name another branch has (the service's 409, or the check before creating). */
export function nameTaken(inputs: Props, existing: Branch): string {
  const id = existing.id;
  return (
    `a branch named ${JSON.stringify(existing.name)} already exists in project ${String(inputs.projectId)}: ${id}. ` +
    `Pulumi does not take over an existing branch by accident. Which case is yours? ` +
    `(1) The resource was renamed or moved under a new parent: give it an alias to its old name or place ` +
    `(aliases: [{ parent: <the old parent> }], or pulumi.rootStackResource if it had none); it then keeps its branch. ` +
    `(2) pulumi up --replace of this resource (Pulumi creates the new branch before deleting the old one, and tells ` +
    `the provider nothing of the old one): give the branch a new name in the same up, or use a new value of the ` +
    `resource option replacementTrigger instead (the old branch then gives up its name). ` +
    `(3) An interrupted pulumi up created it (Pulumi warned of a pending create), or it was made outside Pulumi and ` +
    `this resource should manage it: set adoptId: "${id}" (remove it after the next up). ` +
    `(4) It is another branch: choose another name (the name input; it defaults to the resource's name). ` +
    `Nothing was created.`
  );
}

/** A protected branch replaced: Neon would refuse to delete the old one once the new one exists. */
export function protectedReplacement(label: string, id: string, why: string): string {
  return (
    `${label} cannot be replaced (${why}): it is protected, and Neon does not delete a protected branch, so the ` +
    `replacement would make the new branch and then fail to delete ${id}. Nothing was changed. Unprotect it first ` +
    `in an up of its own (protected: false, without this change; in the same up, protected: false would apply to ` +
    `the new branch only), then make this change.`
  );
}

/** A create whose branch did not keep the annotations it was created with (read back). */
export function notAppliedError(id: string, props: Props): Error {
  return new Error(
    `${labelOf(id, props)}: the branch was created, but the service did not keep the annotations it was created ` +
      `with. Neon sets a branch's annotations only when it creates it. The state records the annotations the ` +
      `service has (the annotations output). To give the branch these annotations, recreate it with a new value of ` +
      `the resource option replacementTrigger (a new branch from its parent's data: this branch's own changes are ` +
      `deleted with it), or set annotations to what the service has. See docs/resources.md#branch (Annotations after creation)`,
  );
}

/**
 * A change of annotations (`olds`: the old outputs, the service's value), refused by Diff and update. Only the creates
 * take annotations (OpenAPI `createProjectBranch`: `annotation_value`; `BranchUpdateRequest` has none; neonctl sets
 * them only at creation, neondatabase/neonctl#264). Not Check's: a new `replacementTrigger` replaces without a Diff
 * (pulumi/pulumi step_generator.go `triggerReplace`), and Check would refuse that way out too.
 */
export function annotationsChangeError(id: string, olds: Props, news: Props): Error {
  return new Error(`${labelOf(id, olds)}: annotations: ${annotationsChangeReason(olds.annotations, news.annotations)}`);
}

function annotationsChangeReason(before: unknown, after: unknown): string {
  return (
    `cannot change on an existing branch: Neon sets a branch's annotations only when it creates it (no documented ` +
    `call updates them), and this change would ${changesOf((before ?? {}) as Props, after as Props)} ` +
    `(values not shown: they may be secrets). Set annotations back to what they were, or recreate the branch with a ` +
    `new value of the resource option replacementTrigger (a new branch from its parent's data: this branch's own ` +
    `changes are deleted with it). See docs/resources.md#branch (Annotations after creation)`
  );
}

/** What a change does, by key: `set "k" from … to …`, `add "k" (…)`, `remove "k" (…)`. */
function changesOf(before: Props, after: Props): string {
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

/** What a delete refusal left: Pulumi deletes what depends on a branch before the branch, so not "nothing". */
const NOT_DELETED =
  "The branch was not deleted (Pulumi deletes what depends on a branch before the branch itself: this stack's " +
  "computes, roles and databases on it may be deleted already).";

const LET_GO =
  "To stop managing it without deleting it, remove it from the state (pulumi state delete <its URN>), or give the " +
  "resource the option retainOnDelete: true, run pulumi up, then remove it from the program.";

/** Why Neon would refuse to delete `branch` (of the project's `branches`) and what to do, or undefined. */
export function deleteRefusalOf(branch: Branch, branches: Branch[], props: Props): string | undefined {
  const which = describeBranch(branch, props);
  if (branch.default) {
    return (
      `${which} is the project's default branch, and Neon does not delete a default branch. ${NOT_DELETED} ` +
      `${LET_GO} (Only if this branch's data is truly to go: make another branch the default in the Neon console, ` +
      `then delete it.)`
    );
  }
  if (!branch.parent_id && branch.init_source !== "schema-only") {
    return `${which} is the project's root branch, and Neon does not delete a root branch. ${NOT_DELETED} ${LET_GO}`;
  }
  if (branch.protected) {
    return (
      `${which} is protected, and Neon does not delete a protected branch. ${NOT_DELETED} Set protected: ` +
      `false and run pulumi up, then delete it (pulumi destroy, or remove it from the program). ${LET_GO}`
    );
  }
  const named = childrenNamed(branches, branch.id);
  if (named === undefined) return undefined;
  return (
    `${which} has child branches ${named}, and Neon does not delete a branch that has children. ${NOT_DELETED} ` +
    `Delete the child branches first (a Branch resource whose parentId is this branch's branchId is ` +
    `deleted before it), then delete this one. ${LET_GO}`
  );
}

/** Neon refused the DELETE itself (a 422 its list did not foresee): its words, and what to do. */
export function deleteRefused(branch: Branch, props: Props, error: unknown): Error {
  const which = describeBranch(branch, props);
  return new Error(`Neon refused to delete ${which} (${(error as Error).message}). ${NOT_DELETED} ${LET_GO}`, {
    cause: error,
  });
}

const describeBranch = (branch: Branch, props: Props) =>
  `${labelOf(branch.id, props)} named ${JSON.stringify(branch.name)}`;

/** The children of branch `id` among the project's `branches`, each by name and id; undefined when it has none. */
export function childrenNamed(branches: Branch[], id: string): string | undefined {
  const children = branches.filter((b) => b.parent_id === id);
  return children.length === 0 ? undefined : children.map((c) => `${JSON.stringify(c.name)} (${c.id})`).join(", ");
}
