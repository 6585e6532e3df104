/**
 * `diff` for Branch: pure (no API call, no credentials), so preview stays fast, offline and truthful. What a change
 * does is data (BRANCH_DIFF_RULES); docs/resources.md's Branch table is this table.
 *
 * New inputs are compared with the old outputs: what the branch was made from with `origin` (mapping.ts: a reset moves
 * the record's point, which is no change of the program), the rest with the service's record. A property the program
 * leaves out never diffs (the parent it defaulted to was recorded at creation); one it removes diffs only where the
 * removal means something (`expiresAt`: no expiry; `protected`: unprotected, as Pulumi's `protect`, which
 * `protected: true` brought, goes with the line; `resetTriggers`, `adoptId`: recorded; `annotations`: recorded, the
 * branch keeps them: annotations.ts).
 */
import { declaredIn } from "../shared/declared";
import { isUnknown } from "../shared/unknown";
import { stableJson } from "../shared/stable-json";
import { sameInstant, sameLsn } from "./time";

type Props = Record<string, unknown>;

/**
 * replace: a new branch; patch: one PATCH; reset: the restore API from the parent; record: state only; refuse: no
 * documented call makes the change, so it is refused at preview (annotations.ts).
 */
export type BranchEffect = "replace" | "patch" | "reset" | "record" | "refuse";

export interface BranchDiffRule {
  effect: BranchEffect;
  /** Compared with `origin` (what the branch was made from) rather than the service's record. */
  fromOrigin?: boolean;
  /** Why, for the docs. */
  because: string;
}

const MADE_FROM = "a branch's parent, point in time and init source are fixed when it is created";

export const BRANCH_DIFF_RULES: Record<string, BranchDiffRule> = {
  projectId: { effect: "replace", because: "a branch belongs to one project" },
  parentId: { effect: "replace", fromOrigin: true, because: MADE_FROM },
  parentLsn: { effect: "replace", fromOrigin: true, because: MADE_FROM },
  parentTimestamp: { effect: "replace", fromOrigin: true, because: MADE_FROM },
  initSource: { effect: "replace", fromOrigin: true, because: MADE_FROM },
  name: { effect: "patch", because: "PATCH branch.name" },
  protected: { effect: "patch", because: "PATCH branch.protected" },
  expiresAt: { effect: "patch", because: "PATCH branch.expires_at (null removes it)" },
  annotations: {
    effect: "refuse",
    because: "set only by the create (annotation_value); BranchUpdateRequest has none: refused at preview",
  },
  resetTriggers: { effect: "reset", because: "POST …/restore from the parent, at its head" },
  adoptId: { effect: "record", because: "acts only at creation" },
  resourceName: { effect: "record", because: "the provider's label in messages" },
};

/** Properties whose removal from the program is a change (see the module's doc). */
const REMOVAL_CHANGES = ["expiresAt", "protected", "resetTriggers", "adoptId"];

/**
 * Of those, the ones whose removal acts only where the program had declared them (`declared` in the state). A
 * declaration that changes nothing on the service (the program writes the value the branch has) is still a change:
 * recorded, so that removing it later is seen.
 */
const DECLARED_REMOVALS = ["expiresAt", "annotations", "protected"];

export interface BranchPlan {
  changes: boolean;
  replaces: string[];
  /** Properties sent in the PATCH. */
  patch: string[];
  /** Properties whose (known) change no call can make: Diff refuses them (annotations.ts). */
  refused: string[];
  /** True when resetTriggers changed from one value to another: the branch is reset from its parent. */
  reset: boolean;
}

/** Decides what changing `olds` (old outputs) into `news` (new inputs) does to the branch. */
export function planBranchChange(olds: Props, news: Props): BranchPlan {
  const changed = Object.keys(BRANCH_DIFF_RULES).filter((property) => inputChanged(property, olds, news));
  const where = (effect: BranchEffect) => changed.filter((p) => BRANCH_DIFF_RULES[p].effect === effect);
  return {
    changes: changed.length > 0 || declarationsChanged(olds, news),
    replaces: where("replace"),
    patch: where("patch"),
    refused: where("refuse").filter((p) => !isUnknown(news[p])),
    // A first value (none before) is recorded, as a removal is: only a changed value resets (it discards data).
    reset: changed.includes("resetTriggers") && news.resetTriggers !== undefined && olds.resetTriggers !== undefined,
  };
}

/** The program now declares (or no longer declares) one of DECLARED_REMOVALS: `declared` is to be recorded. */
function declarationsChanged(olds: Props, news: Props): boolean {
  const declared = declaredIn(olds);
  if (declared === undefined) return false;
  const before = declared.filter((p) => DECLARED_REMOVALS.includes(p)).sort();
  const after = DECLARED_REMOVALS.filter((p) => news[p] !== undefined).sort();
  return stableJson(before) !== stableJson(after);
}

/**
 * True when `news` changes `property` from `olds`: the one comparison of each property, used by Diff (old outputs, with
 * `origin`) and by Check (old inputs), so that both read every accepted spelling of one value (an LSN, an instant) as
 * that value, and a property the program leaves out alike.
 */
export function inputChanged(property: string, olds: Props, news: Props): boolean {
  const wanted = news[property];
  if (wanted === undefined) return removed(property, olds);
  if (isUnknown(wanted)) return true;
  const rule = BRANCH_DIFF_RULES[property];
  const origin = (olds.origin ?? {}) as Props;
  const actual = rule.fromOrigin && olds.origin !== undefined ? origin[property] : olds[property];
  return !sameValue(property, actual, wanted);
}

/** A property the program removed: a change only where the state says the program had set it. */
function removed(property: string, olds: Props): boolean {
  if (!REMOVAL_CHANGES.includes(property)) return false;
  if (property === "resetTriggers" || property === "adoptId") return olds[property] !== undefined;
  const declared = declaredIn(olds) ?? [];
  if (!DECLARED_REMOVALS.includes(property) || !declared.includes(property)) return false;
  return property === "protected" ? olds.protected === true : olds.expiresAt !== undefined;
}

function sameValue(property: string, actual: unknown, wanted: unknown): boolean {
  if (property === "expiresAt" || property === "parentTimestamp") return sameInstant(actual, wanted);
  if (property === "parentLsn") return sameLsn(actual, wanted);
  if (property === "annotations") return stableJson(actual ?? {}) === stableJson(wanted);
  if (property === "protected") return (actual ?? false) === wanted;
  return stableJson(actual) === stableJson(wanted);
}

/** `Branch "name" (br-…)`, or `Branch br-…` without a resource name. */
export function labelOf(id: string, props: Props): string {
  return props.resourceName ? `Branch "${String(props.resourceName)}" (${id})` : `Branch ${id}`;
}

/**
 * The preview's warnings for a planned change: a replacement discards the branch's data (and what happens to the
 * computes on it); a reset discards the branch's own changes and drops its computes' connections. Values are never
 * shown (the plugin cannot know which were secrets): properties are named.
 */
export function changeWarnings(id: string, olds: Props, news: Props, plan: BranchPlan): string[] {
  const label = labelOf(id, olds);
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
