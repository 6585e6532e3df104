/**
 * What a Branch's state holds (the record's outputs, `declared`: the inputs the program set, `origin`: what the branch
 * was made from), its request bodies, and what a change does, for Check and Diff alike (pure: no API call, so preview
 * stays fast, offline and truthful). What the branch was made from is compared with `origin`, not the record (a reset
 * moves `parent_lsn`; a schema-only branch has no `parent_id`); a property left out never diffs; a removal only where
 * it means something (`expiresAt`, `protected`, where `declared` has them); only a changed `resetTriggers` resets.
 */
import type { Branch, BranchCreateRequest } from "../../client";
import {
  apiBody,
  outputNames,
  outputsFrom,
  planChange,
  programInputs,
  recordedOutputs as recordedWith,
} from "../shared/declaration";
import { declaredIn, declaredOf as declaredOfInputs } from "../shared/declared";
import { stableJson } from "../shared/stable-json";
import { isUnknown } from "../shared/unknown";
import { CheckFailure } from "../shared/validators";
import { BRANCH } from "./declaration";
import { labelOf } from "./refusal";

type Props = Record<string, unknown>;
type Annotations = Record<string, string> | undefined;

/** The inputs a branch is made from besides its project: fixed at creation, recorded as `origin`. */
const MADE_FROM = ["parentId", "parentLsn", "parentTimestamp", "initSource"] as const;
export type Origin = { [P in (typeof MADE_FROM)[number]]?: string };

/** The provider's records among the outputs: the inputs the program set, and what the branch was made from. */
const RECORDS = ["declared", "origin"];

/** Inputs kept in state as given (`resetTriggers`, `adoptId`, `resourceName`): outputs read from no field. */
const CARRIED_INPUTS = outputNames(BRANCH).filter(
  (p) => p !== "annotations" && !("api" in BRANCH.outputs[p as keyof typeof BRANCH.outputs]),
);

/**
 * Every output of a Branch: the record (a field null or left out, left out), its annotations (the response's, else
 * those last known), and the carried inputs and records of `inputs`.
 */
export function toOutputs(branch: Branch, annotation: Annotations, inputs: Props): Props {
  const record = Object.fromEntries(Object.entries(branch).filter(([, value]) => value !== null));
  const annotations = annotation ?? inputs.annotations;
  const extra: Props = annotations === undefined ? {} : { annotations };
  for (const name of [...CARRIED_INPUTS, ...RECORDS]) if (inputs[name] !== undefined) extra[name] = inputs[name];
  return outputsFrom(BRANCH, record, extra);
}

/** The outputs of a branch the provider created, adopted or updated: the record, with `declared` and `origin`. */
export function outputsWith(branch: Branch, annotation: Annotations, inputs: Props, origin: Origin): Props {
  return toOutputs(branch, annotation, { ...inputs, declared: declaredOf(inputs), origin });
}

/** The inputs the program set, as recorded in `declared`. */
export const declaredOf = (inputs: Props): string[] => declaredOfInputs(inputs, RECORDS);

/** What a branch was made from, among `values` in the program's names (a create's inputs with the parent resolved). */
export const originOf = (values: Props): Origin =>
  Object.fromEntries(
    MADE_FROM.filter((p) => typeof values[p] === "string" && values[p] !== "").map((p) => [p, values[p]]),
  );

/** What an existing branch was made from, as its record says. */
export const originOfRecord = (branch: Branch): Origin => originOf(outputsFrom(BRANCH, branch));

/** What the branch was made from, as the state records it (a state without `origin`: the record's own account). */
export const originIn = (olds: Props, branch: Branch): Origin =>
  (olds.origin as Origin | undefined) ?? originOfRecord(branch);

/** The outputs of an update that sends nothing (only carried inputs changed): `declared` and those from `news`. */
export const recordedOutputs = (olds: Props, news: Props): Props =>
  recordedWith(olds, news, CARRIED_INPUTS, declaredOf(news));

/**
 * The declared inputs as they stand, for a refresh to record drift in those only: what the branch was made from as
 * `origin` says (a reset moves the record's point; it is no drift), the rest from the record.
 */
export function inputsFromOutputs(outputs: Props): Props {
  const inputs: Props = {};
  for (const name of declaredIn(outputs) ?? []) {
    const made = (MADE_FROM as readonly string[]).includes(name);
    const value = made ? (outputs.origin as Props | undefined)?.[name] : outputs[name];
    if (value !== undefined) inputs[name] = value;
  }
  return inputs;
}

/** The body of POST /projects/{p}/branches for these inputs (parent resolved): only what the program set. */
export function toCreateBody(inputs: Props, parentId: string | undefined): BranchCreateRequest {
  const body = apiBody(BRANCH, { ...inputs, parentId }, programInputs(BRANCH));
  return { branch: {}, ...body } as BranchCreateRequest; // check() validated every field
}

/**
 * The PATCH's `branch` fields for `properties`: a removed `expiresAt` is sent as null, which removes the expiry
 * (OpenAPI `BranchUpdateRequest.expires_at`); a removed `protected`, as its default.
 */
export function toPatchFields(news: Props, properties: readonly string[]): Props {
  const removals = { protected: news.protected ?? BRANCH.inputs.protected.default, expiresAt: news.expiresAt ?? null };
  return (apiBody(BRANCH, { ...news, ...removals }, properties).branch ?? {}) as Props;
}

/** What the Diff compares the program with: the old outputs, what the branch was made from as `origin` says. */
function asMadeFrom(olds: Props): Props {
  if (olds.origin === undefined) return olds; // old inputs (Check's), as they are
  const origin = olds.origin as Props;
  return { ...olds, ...Object.fromEntries(MADE_FROM.map((name) => [name, origin[name]])) };
}

/** Removals that act only where the program had declared the property (`declared` in the state). */
const DECLARED_REMOVALS = ["expiresAt", "protected"];

/** Declarations recorded even when they change nothing on the service, so that removing them later is seen. */
const RECORDED_DECLARATIONS = ["expiresAt", "annotations", "protected"];

export interface BranchPlan {
  changes: boolean;
  /** The inputs whose change the plan found (a changed declaration alone names none). */
  changed: string[];
  replaces: string[];
  patch: string[];
  /** Properties whose (known) change no call can make: Diff refuses them (`annotationsChangeError`). */
  refused: string[];
  /** True when resetTriggers changed from one value to another: the branch is reset from its parent. */
  reset: boolean;
}

/** What changing `olds` (Diff: the old outputs; Check: the old inputs) into `news` does to the branch. */
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
 * Check: a replacement of a branch the old inputs protect, which Neon would make and then refuse to delete the old one
 * (Diff refuses it too, from the record, for a branch protected outside the program).
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

/** Check: a reset of a branch that stays protected, which Neon does not reset (Neon docs, Protected branches). */
export function checkResetProtected(olds: Props, news: Props): CheckFailure[] {
  if (news.protected !== true || !planBranchChange(olds, news).reset) return [];
  const reason =
    "changed while protected is true: Neon does not reset a protected branch. Set protected: false in the same " +
    "change (the update unprotects the branch, then resets it), or leave resetTriggers as they were";
  return [{ property: "resetTriggers", reason }];
}

/** The preview's warnings for a planned change, naming properties, never values (they may be secrets). */
export function changeWarnings(id: string, olds: Props, news: Props, plan: BranchPlan): string[] {
  const label = labelOf(id, olds);
  if (plan.replaces.length > 0 && typeof news.adoptId === "string") {
    // The create adopts what adoptId names; the delete leaves the old branch while adoptId names it (adoption.ts).
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

/** Without Pulumi's `protect` (it comes with `protected: true`), a removal would delete what is on the branch first. */
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

/** Without `adoptId`, a destroy would delete all that depends on the default branch, then fail at it. */
function defaultBranchWarning(label: string, adoptId: string): string {
  return (
    `${label} is the project's default branch (${adoptId}), which Neon never deletes. With adoptId removed, ` +
    `pulumi destroy (or removing the resource) deletes what depends on it and the rest of the stack, then fails ` +
    `at this branch. Keep adoptId: ${adoptId} (Pulumi then leaves the branch on the service), or give the ` +
    `resource the option retainOnDelete: true.`
  );
}

/** A reset gives the branch its parent's data, roles and databases included (Neon docs, Reset from parent). */
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
