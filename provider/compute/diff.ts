/**
 * `diff` for Compute: pure (no API call, no credentials), so preview stays fast, offline and truthful.
 * What a change does is data (COMPUTE_DIFF_RULES); the README's table is this table.
 *
 * New inputs are compared with the OLD OUTPUTS (what the service reported), with the service's defaults
 * understood, so that a second `up` right after the first changes nothing (the peers' permanent diffs,
 * #179 and #83): a property the user left out never diffs, 0 and 300 are the same autosuspend delay, and a value the
 * service overrode (recorded in `overridden`) is not asked for again.
 */
import { isUnknown } from "../shared/unknown";
import { stableJson } from "../shared/stable-json";

/** replace: a new compute; patch: one PATCH; trigger: the restart API; record: kept in state, nothing sent. */
export type ChangeEffect = "replace" | "patch" | "trigger" | "record";

/**
 * What a change does to the open connections of a running compute: `drop` where the service documents a restart (or
 * the change cannot keep them), `may-drop` where it is undocumented and a restart is plausible.
 */
export type Connections = "keep" | "drop" | "may-drop";

export interface DiffRule {
  effect: ChangeEffect;
  connections?: Connections;
  /** Why, for the warning and the README. */
  because?: string;
}

const SIZE: DiffRule = {
  effect: "patch",
  connections: "drop",
  because:
    "a size change restarts a running compute (api.md, Neon docs: changing autoscaling limits requires a restart)",
};

export const COMPUTE_DIFF_RULES: Record<string, DiffRule> = {
  projectId: { effect: "replace" },
  type: { effect: "replace" },
  regionId: { effect: "replace" },
  autoscalingLimitMinCu: SIZE,
  autoscalingLimitMaxCu: SIZE,
  branchId: {
    effect: "patch",
    connections: "drop",
    because: "a connection cannot continue on another branch's data (api.md, Branch move)",
  },
  disabled: {
    effect: "patch",
    connections: "drop",
    because: "disabling schedules a suspend_compute operation (OpenAPI, EndpointUpdateRequest.disabled)",
  },
  provisioner: {
    effect: "patch",
    connections: "may-drop",
    because: "the compute is re-provisioned; the service does not document whether it restarts",
  },
  pgSettings: {
    effect: "patch",
    connections: "may-drop",
    because: "Postgres applies many settings only at a restart; the service does not document which",
  },
  suspendTimeoutSeconds: { effect: "patch" },
  poolerEnabled: { effect: "patch" },
  poolerMode: { effect: "patch" },
  passwordlessAccess: { effect: "patch" },
  name: { effect: "patch" },
  restartTriggers: { effect: "trigger", connections: "drop", because: "restartTriggers changed" },
  resourceName: { effect: "record" },
  ownerTag: { effect: "record" },
  adoptId: { effect: "record" },
};

/**
 * Properties whose removal from the program is a change: removed restart triggers are recorded; a removed `adoptId`
 * must leave the state, or Delete would keep treating the compute as adopted and never delete it (adopt.ts).
 */
const REMOVAL_CHANGES = ["restartTriggers", "adoptId"];

/** The service's value for a property the user may leave out, where leaving it out means that value. */
const DEFAULTS: Record<string, unknown> = { type: "read_write" };

/** The two sizes: a change of either sends both (the service's merge of a lone size is undocumented: api.md). */
export const SIZES = ["autoscalingLimitMinCu", "autoscalingLimitMaxCu"] as const;

export interface ComputePlan {
  changes: boolean;
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

/** Decides what changing `olds` (old outputs) into `news` (new inputs) does to the compute. */
export function planComputeChange(olds: Record<string, unknown>, news: Record<string, unknown>): ComputePlan {
  const changed = Object.keys(COMPUTE_DIFF_RULES).filter((property) => differs(property, olds, news));
  const where = (test: (rule: DiffRule, property: string) => boolean) =>
    changed.filter((property) => test(COMPUTE_DIFF_RULES[property], property));
  const replaces = where((rule) => rule.effect === "replace");
  const patch = where((rule) => rule.effect === "patch");
  if (patch.some((p) => (SIZES as readonly string[]).includes(p)))
    for (const size of SIZES) if (!patch.includes(size)) patch.push(size);
  return {
    changes: changed.length > 0,
    replaces,
    deleteBeforeReplace: replaces.length > 0 && mustDeleteFirst(olds, news),
    patch,
    drops: where((rule, p) => rule.connections === "drop" && dropsNow(p, news)),
    mayDrop: where((rule) => rule.connections === "may-drop"),
    restartByTrigger: changed.includes("restartTriggers") && restartsOnTrigger(news),
  };
}

/** Disabling drops connections, enabling does not; a trigger restarts only what stays enabled. */
function dropsNow(property: string, news: Record<string, unknown>): boolean {
  if (property === "disabled") return news.disabled === true;
  if (property === "restartTriggers") return restartsOnTrigger(news);
  return true;
}

/**
 * A new trigger value restarts the compute, unless the triggers were removed or the compute is (or is being)
 * disabled: disabling suspends it, and the PATCH's answer still saying `active` must not make the update restart
 * (wake) the compute it has just disabled.
 */
function restartsOnTrigger(news: Record<string, unknown>): boolean {
  return news.restartTriggers !== undefined && news.disabled !== true;
}

function differs(property: string, olds: Record<string, unknown>, news: Record<string, unknown>): boolean {
  const wanted = news[property] ?? DEFAULTS[property];
  if (wanted === undefined) return REMOVAL_CHANGES.includes(property) && olds[property] !== undefined;
  if (isUnknown(wanted)) return true;
  if (overriddenAsAsked(property, olds, wanted)) return false;
  return !sameValue(property, olds[property], wanted);
}

/** The service overrode this value the last time it was asked for, and it is asked for again: no new request. */
function overriddenAsAsked(property: string, olds: Record<string, unknown>, wanted: unknown): boolean {
  const record = (olds.overridden as Record<string, { requested: unknown; service: unknown }> | undefined)?.[property];
  return (
    record !== undefined &&
    sameValue(property, record.requested, wanted) &&
    sameValue(property, record.service, olds[property])
  );
}

function sameValue(property: string, actual: unknown, wanted: unknown): boolean {
  if (property === "suspendTimeoutSeconds") return normalizeSuspend(actual) === normalizeSuspend(wanted);
  return stableJson(actual ?? emptyOf(wanted)) === stableJson(wanted);
}

/** 0 means "the default", which is 300 seconds: both spellings are the same setting. */
function normalizeSuspend(value: unknown): unknown {
  return value === 0 ? 300 : value;
}

/** Properties with more than one spelling of one setting. */
const SPELLINGS = ["suspendTimeoutSeconds"];

/**
 * The new inputs to record, given the old ones: a value that means what the old inputs' value meant (300 after 0: the
 * same autosuspend delay, api.md) keeps the old spelling. A dynamic provider reports no changed keys, so the engine
 * lists beside an update every input that differs from the old inputs: a restart trigger's update listed
 * `suspendTimeoutSeconds` too, a change that is none.
 */
export function keepOldSpelling(olds: Record<string, unknown>, news: Record<string, unknown>): Record<string, unknown> {
  const kept = SPELLINGS.filter(
    (p) => olds[p] !== undefined && news[p] !== olds[p] && !isUnknown(news[p]) && sameValue(p, olds[p], news[p]),
  );
  return kept.length === 0 ? news : { ...news, ...Object.fromEntries(kept.map((p) => [p, olds[p]])) };
}

function emptyOf(value: unknown): unknown {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? {} : undefined;
}

/**
 * A replacement normally creates the new compute before deleting the old, so the branch is never without
 * one. A branch holds one read_write compute, so when the new primary would land on the same branch of the
 * same project as the old primary, the old one must go first or the create fails with 409.
 */
function mustDeleteFirst(olds: Record<string, unknown>, news: Record<string, unknown>): boolean {
  const newType = news.type ?? "read_write";
  return (
    newType === "read_write" &&
    olds.type === "read_write" &&
    news.projectId === olds.projectId &&
    news.branchId === olds.branchId
  );
}

/** JSON with sorted keys (shared/stable-json.ts), re-exported for compute's other files. */

/**
 * The preview's warning for a change that drops (or may drop) a running compute's connections; undefined when it
 * keeps them. Numbers are shown (sizes); other values are not (the plugin cannot know which were secret). Disabling
 * is no restart: the compute is suspended and stays down (OpenAPI: a disabled compute cannot be woken by a
 * connection), which "will restart" hid.
 */
export function connectionWarning(
  id: string,
  olds: Record<string, unknown>,
  news: Record<string, unknown>,
  plan: ComputePlan,
): string | undefined {
  if (plan.replaces.length > 0) return undefined;
  const label = olds.resourceName ? `Compute "${String(olds.resourceName)}" (${id})` : `Compute ${id}`;
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
  const why = plan.mayDrop.map((p) => COMPUTE_DIFF_RULES[p].because).join("; ");
  return `${label} may restart if it is running: ${plan.mayDrop.join(", ")} changes (${why}); its open connections may drop.`;
}
