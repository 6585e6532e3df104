/**
 * What a change does to a compute, from its declaration (declaration.ts) and Compute's hooks, and what the preview says
 * of it: pure (no API call, no credentials), so preview stays fast, offline and truthful.
 *
 * New inputs are compared with the OLD OUTPUTS (what the service reported), with the service's defaults
 * understood, so that a second `up` right after the first changes nothing (the peers' permanent diffs,
 * #179 and #83): a property the user left out never diffs, 0 and 300 are the same autosuspend delay (the row's
 * `same`), and a value the service overrode (recorded in `overridden`) is not asked for again.
 *
 * What the preview says: the warnings of a change that drops connections, of deprecated inputs and of adoption (with
 * how adoption's messages speak of a compute: shared/adoption.ts), and how every message names a compute.
 */
import { COMPUTE } from "./declaration";
import { SIZES } from "./values";
import * as adoption from "../shared/adoption";
import { Declaration, planChange, sameValue } from "../shared/declaration";
import type { ProjectObject } from "../shared/lifecycle";
import { isUnknown } from "../shared/unknown";

type Props = Record<string, unknown>;
export type Overrides = Record<string, { requested: unknown; service: unknown }>;

/** The declaration as the shared functions read it. */
const DECLARED: Declaration = COMPUTE;

export interface ComputePlan {
  changes: boolean;
  /** The inputs whose change the plan found. */
  changed: string[];
  replaces: string[];
  deleteBeforeReplace: boolean;
  /** Properties sent in the PATCH. */
  patch: string[];
  /** Changed properties whose change drops a running compute's connections, or may. */
  drops: string[];
  mayDrop: string[];
  /**
   * True when restartTriggers changed and the compute stays enabled: it is restarted, unless the PATCH already
   * restarted it. A compute the update leaves disabled runs nothing, so nothing is restarted.
   */
  restartByTrigger: boolean;
}

/**
 * Decides what changing `olds` (old outputs) into `news` (new inputs) does to the compute: the rows' plan, with the
 * sizes sent as a pair (the service's merge of a lone size is undocumented: api.md), a primary replaced on its own
 * branch deleted first, and a restart only by a trigger of a compute that stays enabled.
 */
export function planComputeChange(olds: Props, news: Props): ComputePlan {
  const plan = planChange(DECLARED, olds, news, overriddenAsAsked(olds, news));
  const patch = [...plan.by.update];
  if (patch.some((p) => (SIZES as readonly string[]).includes(p)))
    for (const size of SIZES) if (!patch.includes(size)) patch.push(size);
  return {
    changes: plan.changed.length > 0,
    changed: plan.changed,
    replaces: plan.by.replace,
    deleteBeforeReplace: plan.by.replace.length > 0 && mustDeleteFirst(olds, news),
    patch,
    drops: plan.drops.filter((p) => dropsNow(p, news)),
    mayDrop: plan.mayDrop,
    restartByTrigger: plan.by.action.includes("restartTriggers") && restartsOnTrigger(news),
  };
}

/** Disabling drops connections, enabling does not; a trigger restarts only what stays enabled. */
function dropsNow(property: string, news: Props): boolean {
  if (property === "disabled") return news.disabled === true;
  if (property === "restartTriggers") return restartsOnTrigger(news);
  return true;
}

/**
 * A new trigger value restarts the compute, unless the triggers were removed or the compute is (or is being)
 * disabled: disabling suspends it, and the PATCH's answer still saying `active` must not make the update restart
 * (wake) the compute it has just disabled.
 */
function restartsOnTrigger(news: Props): boolean {
  return news.restartTriggers !== undefined && news.disabled !== true;
}

/**
 * The properties the service overrode the last time they were asked for, and asked for again: no new request (the
 * rows' comparison decides both "asked again" and "the service still holds its value").
 */
function overriddenAsAsked(olds: Props, news: Props): string[] {
  const records = (olds.overridden ?? {}) as Overrides;
  return Object.keys(records).filter((property) => {
    const wanted = news[property] ?? DECLARED.inputs[property]?.default;
    if (wanted === undefined || isUnknown(wanted)) return false;
    const { requested, service } = records[property];
    return sameValue(DECLARED, property, requested, wanted) && sameValue(DECLARED, property, service, olds[property]);
  });
}

/**
 * A replacement normally creates the new compute before deleting the old, so the branch is never without
 * one. A branch holds one read_write compute, so when the new primary would land on the same branch of the
 * same project as the old primary, the old one must go first or the create fails with 409.
 */
function mustDeleteFirst(olds: Props, news: Props): boolean {
  const newType = news.type ?? COMPUTE.inputs.type.default;
  return (
    newType === "read_write" &&
    olds.type === "read_write" &&
    news.projectId === olds.projectId &&
    news.branchId === olds.branchId
  );
}

/**
 * The new inputs to record, given the old ones: a value that means what the old inputs' value meant (300 after 0: the
 * same autosuspend delay, api.md) keeps the old spelling; the properties with more than one spelling of one setting are
 * those whose row has its own `same`. A dynamic provider reports no changed keys, so the engine lists beside an update
 * every input that differs from the old inputs: a restart trigger's update listed `suspendTimeoutSeconds` too, a
 * change that is none.
 */
export function keepOldSpelling(olds: Props, news: Props): Props {
  const spellings = Object.keys(DECLARED.inputs).filter((p) => DECLARED.inputs[p].same !== undefined);
  const kept = spellings.filter(
    (p) =>
      olds[p] !== undefined && news[p] !== olds[p] && !isUnknown(news[p]) && sameValue(DECLARED, p, olds[p], news[p]),
  );
  return kept.length === 0 ? news : { ...news, ...Object.fromEntries(kept.map((p) => [p, olds[p]])) };
}

/**
 * The preview's warning for a change that drops (or may drop) a running compute's connections; undefined when it
 * keeps them. Numbers are shown (sizes); other values are not (the plugin cannot know which were secret). Disabling
 * is no restart: the compute is suspended and stays down (OpenAPI: a disabled compute cannot be woken by a
 * connection), which "will restart" hid. Why a change may drop them is its row's `because`.
 */
export function connectionWarning(id: string, olds: Props, news: Props, plan: ComputePlan): string | undefined {
  if (plan.replaces.length > 0) return undefined;
  const label = computeLabel(id, olds);
  const shown = (p: string) =>
    typeof olds[p] === "number" && typeof news[p] === "number" ? `${p} ${olds[p]} -> ${news[p]}` : p;
  const drops = plan.drops.map((p) => (isUnknown(news[p]) ? `${p} (known after apply)` : shown(p)));
  if (plan.drops.includes("disabled")) {
    const others = [...drops.filter((_, i) => plan.drops[i] !== "disabled"), ...plan.mayDrop];
    const also = others.length > 0 ? ` (changing ${others.join(", ")} too)` : "";
    return (
      `${label} will be suspended and stay down: disabled is set to true${also}; its open connections will drop, ` +
      `and it accepts no new ones until disabled is false again.`
    );
  }
  if (drops.length > 0) {
    const maybe = plan.mayDrop.length > 0 ? `; ${plan.mayDrop.join(", ")} too` : "";
    return `${label} will restart if it is running: ${drops.join(", ")}${maybe}; its open connections will drop.`;
  }
  if (plan.mayDrop.length === 0) return undefined;
  const why = plan.mayDrop.map((p) => DECLARED.inputs[p].because).join("; ");
  return `${label} may restart if it is running: ${plan.mayDrop.join(", ")} changes (${why}); its open connections may drop.`;
}

/** How messages name the compute `id`: by its resource's name (its `resourceName`) when known. */
export function computeLabel(id: string, props: { resourceName?: unknown }): string {
  return props.resourceName ? `Compute "${String(props.resourceName)}" (${id})` : `Compute ${id}`;
}

/** How the lifecycle's messages name the compute `id` (shared/lifecycle.ts), from its state (or an update's target). */
export function computeOf(id: string, props: { projectId?: unknown; resourceName?: unknown }): ProjectObject {
  return { kind: "compute", label: computeLabel(id, props), projectId: String(props.projectId), docs: COMPUTE.docs };
}

/** Deprecated inputs in use, the rows with a `deprecation` (api.md, Pooler fields: removal scheduled for 2026-06-20). */
export function deprecationWarnings(news: Props): string[] {
  const used = Object.keys(DECLARED.inputs).filter((p) => DECLARED.inputs[p].deprecation && news[p] !== undefined);
  if (used.length === 0) return [];
  return [
    `Compute "${String(news.resourceName ?? "")}": ${used.join(" and ")} ${used.length > 1 ? "are" : "is"} ` +
      `deprecated: Neon is removing the pooler settings from its API (scheduled for 2026-06-20), and a service ` +
      `without them may refuse them; pooling is always on through the pooled host (the poolerHost output). Remove ` +
      `${used.length > 1 ? "them" : "it"} from the program.`,
  ];
}

/**
 * Adoption by id (`adoptId`; shared/adoption.ts, Branch's too): how its messages speak of a compute. Pulumi never
 * deletes a compute that the state's `adoptId` names, and a replacement (by the diff) of an adopted compute that
 * `adoptId` still names is refused at preview (its create would adopt it again, and refuse).
 */
export const ADOPTABLE: adoption.Adoptable = {
  type: "Compute",
  kind: "compute",
  adopting: (news) =>
    `where its sizes, branch, provisioner or Postgres settings differ from the program's, adopting PATCHes them, ` +
    `and a running compute restarts (its open connections drop)` +
    (news.name === undefined ? `; it is renamed pulumi-${String(news.ownerTag)}-… (set name to keep another)` : ""),
};

/** What Check says about `adoptId` (shared/adoption.ts). */
export const adoptionWarnings = (olds: Props, news: Props): string[] =>
  adoption.adoptionWarnings(ADOPTABLE, olds, news);

/** Why Delete leaves the compute `id` on the service, or undefined to delete it (shared/adoption.ts). */
export const keptOnDelete = (id: string, props: Props): string | undefined =>
  adoption.keptAdopted(ADOPTABLE, id, computeLabel(id, props), props);

/**
 * The preview's warning for a replacement (by the diff) of an adopted compute: the original is not deleted, and while
 * `adoptId` still names it the replacement cannot be made (adoption refuses what cannot change in place).
 */
export function adoptedReplaceWarning(id: string, olds: Props, news: Props, plan: ComputePlan): string | undefined {
  if (plan.replaces.length === 0 || olds.adoptId !== id) return undefined;
  const changed = plan.replaces.join(", ");
  if (news.adoptId === id) {
    return (
      `${computeLabel(id, olds)} cannot be replaced (${changed} changed) while adoptId names it: the replacement ` +
      `would adopt it again, and adopting refuses what cannot change in place. Remove adoptId and run pulumi up first ` +
      `(it sends nothing); then this change makes a new compute and deletes ${id}.`
    );
  }
  return (
    `${computeLabel(id, olds)} is replaced (${changed} changed) by a new compute, and ${id} stays on the service: ` +
    `its state still records adoptId, so Pulumi does not delete it. Delete it in the Neon console afterwards, or ` +
    `remove adoptId in an up of its own before this change.`
  );
}

/** A replacement (by the diff) of an adopted compute that `adoptId` still names: adoption would refuse it. */
export function refusesAdoptedReplace(id: string, olds: Props, news: Props, plan: ComputePlan): boolean {
  return plan.replaces.length > 0 && olds.adoptId === id && news.adoptId === id;
}
