/**
 * Check's and Diff's hooks beside the declaration: what a change of a branch does, derived from the rows
 * (shared/declaration.ts `planChange`: one comparison per property, so that Check and Diff read every accepted spelling
 * of one value, an LSN or an instant, as that value, and a property the program leaves out alike). Pure: no API call,
 * no credentials, so that preview stays fast, offline and truthful.
 *
 * What is Branch's own: the Diff compares what the branch was made from with `origin` (state.ts), the rest with the
 * service's record; a property the program leaves out never diffs (the parent it defaulted to was recorded at
 * creation); one it removes diffs only where the removal means something (`expiresAt`: no expiry; `protected`:
 * unprotected, as Pulumi's `protect`, which `protected: true` brought, goes with the line; both only where the program
 * had declared them; `resetTriggers`, `adoptId`: recorded; `annotations`: recorded, the branch keeps them). Only a
 * changed `resetTriggers` resets (a first value is recorded). Check refuses, from the old inputs, what the service
 * would refuse of a protected branch.
 */
import { declaredIn } from "../shared/declared";
import { planChange } from "../shared/declaration";
import { isUnknown } from "../shared/unknown";
import { stableJson } from "../shared/stable-json";
import { CheckFailure, describe } from "../shared/validators";
import { BRANCH } from "./declaration";
import { labelOf } from "./refusal";
import { asMadeFrom } from "./state";

type Props = Record<string, unknown>;
type Annotations = Record<string, unknown>;

/** Removals that act only where the program had declared the property (`declared` in the state). */
const DECLARED_REMOVALS = ["expiresAt", "protected"];

/**
 * Properties whose declaration is recorded even when it changes nothing on the service (the program writes the value
 * the branch has), so that removing them later is seen.
 */
const RECORDED_DECLARATIONS = ["expiresAt", "annotations", "protected"];

export interface BranchPlan {
  changes: boolean;
  /** The inputs whose change the plan found (a changed declaration alone names none). */
  changed: string[];
  replaces: string[];
  /** Properties sent in the PATCH. */
  patch: string[];
  /** Properties whose (known) change no call can make: Diff refuses them (`annotationsChangeError`). */
  refused: string[];
  /** True when resetTriggers changed from one value to another: the branch is reset from its parent. */
  reset: boolean;
}

/**
 * Decides what changing `olds` into `news` does to the branch: for the Diff, `olds` are the old outputs (with `origin`
 * and `declared`); for Check, the old inputs.
 */
export function planBranchChange(olds: Props, news: Props): BranchPlan {
  const declared = declaredIn(olds) ?? [];
  const undeclared = DECLARED_REMOVALS.filter((p) => news[p] === undefined && !declared.includes(p));
  const plan = planChange(BRANCH, asMadeFrom(olds), news, undeclared);
  return {
    changes: plan.changed.length > 0 || declarationsChanged(olds, news),
    changed: plan.changed,
    replaces: plan.by.replace,
    patch: plan.by.update,
    refused: plan.by.refused.filter((p) => !isUnknown(news[p])),
    // A first value (none before) is recorded, as a removal is: only a changed value resets (it discards data).
    reset:
      plan.by.action.includes("resetTriggers") && news.resetTriggers !== undefined && olds.resetTriggers !== undefined,
  };
}

/** The program now declares (or no longer declares) one of RECORDED_DECLARATIONS: `declared` is to be recorded. */
function declarationsChanged(olds: Props, news: Props): boolean {
  const declared = declaredIn(olds);
  if (declared === undefined) return false;
  const before = declared.filter((p) => RECORDED_DECLARATIONS.includes(p)).sort();
  const after = RECORDED_DECLARATIONS.filter((p) => news[p] !== undefined).sort();
  return stableJson(before) !== stableJson(after);
}

/**
 * Check, with the old inputs: a replacement of a branch the program protected (its old inputs say `protected: true`).
 * Neon would let the new branch be made and then refuse to delete the old one, and `protected: false` in the same
 * change would apply to the new branch only. Refused here, naming the property (the Diff refuses it too, from the
 * service's record, for a branch protected outside the program).
 */
export function checkReplaceProtected(olds: Props, news: Props): CheckFailure[] {
  if (olds.protected !== true) return [];
  return planBranchChange(olds, news)
    .replaces.filter((p) => !isUnknown(news[p]))
    .map((property) => ({
      property,
      reason:
        "changed on a protected branch: the replacement would make a new branch and then fail to delete this one " +
        "(Neon does not delete a protected branch). Unprotect it first in an up of its own (protected: false, " +
        "without this change; in the same up it would apply to the new branch only), then make this change",
    }));
}

/**
 * Check, with the old inputs: a reset the update would make while the branch stays protected: Neon does not reset a
 * protected branch (docs, Protected branches). Only a changed value resets (a create, or a first value, resets nothing).
 */
export function checkResetProtected(olds: Props, news: Props): CheckFailure[] {
  if (news.protected !== true || !planBranchChange(olds, news).reset) return [];
  return [
    {
      property: "resetTriggers",
      reason:
        "changed while protected is true: Neon does not reset a protected branch. Set protected: false in the same " +
        "change (the update unprotects the branch, then resets it), or leave resetTriggers as they were",
    },
  ];
}

/**
 * Annotations after creation. The only requests that take a branch's annotations are the creates (`annotation_value`,
 * OpenAPI `createProjectBranch` and `createProjectBranchAnonymized`: `AnnotationCreateValueRequest`);
 * `BranchUpdateRequest` has `name`, `protected` and `expires_at` only, no path takes annotations of an existing branch,
 * and the official CLI sets them only at creation (neondatabase/neonctl#264). So a change (the row's `refused`) would be
 * an update that cannot succeed: Diff refuses it at preview, naming the keys and the way out, with nothing sent, and so
 * does an update or an adoption that gets one all the same. Not Check: the engine checks a registration with its old
 * inputs before a replacement a new `replacementTrigger` decides, and calls no Diff for that one (pulumi/pulumi
 * step_generator.go, `triggerReplace`), so a refusal in Check would refuse the way out too; Diff also sees the
 * branch's own annotations, which the old inputs may not declare. A replacement the Diff plans (a new parent, say)
 * takes the new annotations with it. Removing `annotations` from the program only stops declaring them (recorded); the
 * branch keeps them. Messages name the keys, never the values (the plugin cannot know which were secrets).
 *
 * Diff and update: the error for a planned change of annotations (`olds`: the old outputs, the service's value).
 */
export function annotationsChangeError(id: string, olds: Props, news: Props): Error {
  return new Error(`${labelOf(id, olds)}: annotations: ${annotationsChangeReason(olds.annotations, news.annotations)}`);
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

/**
 * The preview's warnings for a planned change: a replacement discards the branch's data (and what happens to the
 * computes on it); a reset discards the branch's own changes and drops its computes' connections. Values are never
 * shown (the plugin cannot know which were secrets): properties are named.
 */
export function changeWarnings(id: string, olds: Props, news: Props, plan: BranchPlan): string[] {
  const label = labelOf(id, olds);
  if (plan.replaces.length > 0 && typeof news.adoptId === "string") {
    // The replacement's create adopts what adoptId names (another project's default branch, say), and the delete of
    // the old one leaves it while the state's adoptId names it (shared/adoption.ts): nothing is made or deleted here.
    const adopts = isUnknown(news.adoptId) ? "the branch adoptId names (known after apply)" : news.adoptId;
    const left = olds.adoptId === id ? `${id} is left on the service (adopted)` : `${id} is then deleted with its data`;
    return [`${label} will be replaced (${plan.replaces.join(", ")} changed): it adopts ${adopts}, and ${left}.`];
  }
  if (plan.replaces.length > 0) {
    const sameName = news.name === undefined || news.name === olds.name;
    const parking = sameName
      ? ` The new branch takes the name of the old one, which is renamed <name>-replaced-<mark> until it is deleted.`
      : "";
    return [
      `${label} will be replaced (${plan.replaces.join(", ")} changed): a new branch is created from its parent, and ` +
        `${id} is then deleted with its data (every change made on it since it was created or last reset is lost). ` +
        `Computes whose branchId is this branch's branchId move to the new branch first; any other compute on ${id} ` +
        `is deleted with it.` +
        parking,
    ];
  }
  const warnings: string[] = [];
  if (protectedOutsideProgram(olds, news)) warnings.push(unguardedWarning(label));
  if (lettingGoOfDefault(olds, news)) warnings.push(defaultBranchWarning(label, String(olds.adoptId)));
  if (plan.reset) warnings.push(resetWarning(label, olds));
  return warnings;
}

/** Neon protects the branch, and the program says nothing of it (so the resource has no Pulumi `protect`). */
export function protectedOutsideProgram(olds: Props, news: Props): boolean {
  const declared = declaredIn(olds) ?? [];
  return olds.protected === true && news.protected === undefined && !declared.includes("protected");
}

/**
 * A branch protected outside the program: Pulumi's `protect` comes only with `protected: true` in the program, so
 * removing it from the program would delete what depends on the branch before Neon refuses to delete the branch
 * itself (a destroy stops at what is on it: shared/protected-branch.ts). Said at each
 * preview while it holds, with the two ways to end it.
 */
export function unguardedWarning(label: string): string {
  return (
    `${label} is protected on Neon (set outside this program), and the program does not say protected: true, so the ` +
    `resource has no Pulumi protect: removing it from the program would delete the computes, roles and databases on ` +
    `it first, then fail at the branch (pulumi destroy stops at them: they are not deleted). Write protected: true ` +
    `(it brings Pulumi's protect) to keep it, or protected: false to unprotect it.`
  );
}

/** `adoptId` removed from the project's default branch (the state's record says `default`). */
const lettingGoOfDefault = (olds: Props, news: Props) =>
  olds.default === true && typeof olds.adoptId === "string" && typeof news.adoptId !== "string";

/**
 * Neon never deletes a project's default branch, and without `adoptId` a destroy would ask it to, last: after
 * everything that depends on the branch is deleted. Said in the preview of the up that removes `adoptId`, before any
 * destroy can begin.
 */
function defaultBranchWarning(label: string, adoptId: string): string {
  return (
    `${label} is the project's default branch (${adoptId}), which Neon never deletes. With adoptId removed, ` +
    `pulumi destroy (or removing the resource) deletes what depends on it and the rest of the stack, then fails ` +
    `at this branch. Keep adoptId: ${adoptId} (Pulumi then leaves the branch on the service), or give the ` +
    `resource the option retainOnDelete: true.`
  );
}

/**
 * A reset replaces the branch's data with its parent's, and roles and databases live in it (Neon's docs, Reset from
 * parent: the branch's roles and databases become the parent's; emulator/README.md). The provider cannot see which
 * resources stand on the branch, so the warning says what a stack must do for its own.
 */
function resetWarning(label: string, olds: Props): string {
  const parent = typeof olds.parentId === "string" ? ` ${olds.parentId}` : "";
  return (
    `${label} will be reset from its parent${parent}: resetTriggers changed. The branch takes its parent's latest ` +
    `data: every change made on it since it was created or last reset is discarded, and the open connections of ` +
    `its computes drop (a running compute restarts). Its roles and databases become its parent's: a Role or Database ` +
    `this stack made on the branch (not inherited) is gone after the reset, and a role's password is the parent's ` +
    `again; run pulumi up --refresh after this up to make them again.`
  );
}
