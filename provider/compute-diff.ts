/**
 * `diff` for Compute: pure (no API call, no credentials), so preview stays fast, offline and truthful.
 * What a change does is data (COMPUTE_DIFF_RULES); the README's table is this table.
 *
 * New inputs are compared with the OLD OUTPUTS (what the service reported), with the service's defaults
 * understood, so that a second `up` right after the first changes nothing (the peers' permanent diffs,
 * #179 and #83): a property the user left out never diffs, and 0 and 300 are the same autosuspend delay.
 */
import { isUnknown } from "./unknown";

/** replace: a new compute; restart: PATCH that restarts a running compute; patch: PATCH only; trigger: restart API. */
export type ChangeKind = "replace" | "restart" | "patch" | "trigger" | "record";

export const COMPUTE_DIFF_RULES: Record<string, ChangeKind> = {
  projectId: "replace",
  type: "replace",
  regionId: "replace",
  autoscalingLimitMinCu: "restart",
  autoscalingLimitMaxCu: "restart",
  branchId: "patch",
  suspendTimeoutSeconds: "patch",
  poolerEnabled: "patch",
  poolerMode: "patch",
  disabled: "patch",
  passwordlessAccess: "patch",
  pgSettings: "patch",
  provisioner: "patch",
  name: "patch",
  restartTriggers: "trigger",
  resourceName: "record",
  ownerTag: "record",
  adoptId: "record",
};

/** The service's value for a property the user may leave out, where leaving it out means that value. */
const DEFAULTS: Record<string, unknown> = { type: "read_write" };

export interface ComputePlan {
  changes: boolean;
  replaces: string[];
  deleteBeforeReplace: boolean;
  /** Properties sent in the PATCH (sizes included). */
  patch: string[];
  /** True when the PATCH changes a size: a running compute restarts and its connections drop. */
  restartsBySize: boolean;
  /** True when restartTriggers changed: the restart API is called. */
  restartByTrigger: boolean;
}

/** Decides what changing `olds` (old outputs) into `news` (new inputs) does to the compute. */
export function planComputeChange(olds: Record<string, unknown>, news: Record<string, unknown>): ComputePlan {
  const changed = Object.keys(COMPUTE_DIFF_RULES).filter((property) => differs(property, olds, news));
  const of = (kind: ChangeKind) => changed.filter((property) => COMPUTE_DIFF_RULES[property] === kind);
  const replaces = of("replace");
  const restartsBySize = of("restart").length > 0;
  return {
    changes: changed.length > 0,
    replaces,
    deleteBeforeReplace: replaces.length > 0 && mustDeleteFirst(olds, news),
    patch: [...of("restart"), ...of("patch")],
    restartsBySize,
    restartByTrigger: of("trigger").length > 0 && news.restartTriggers !== undefined,
  };
}

function differs(property: string, olds: Record<string, unknown>, news: Record<string, unknown>): boolean {
  const wanted = news[property] ?? DEFAULTS[property];
  if (wanted === undefined) return property === "restartTriggers" && olds[property] !== undefined;
  if (isUnknown(wanted)) return true;
  return !sameValue(property, olds[property], wanted);
}

function sameValue(property: string, actual: unknown, wanted: unknown): boolean {
  if (property === "suspendTimeoutSeconds") return normalizeSuspend(actual) === normalizeSuspend(wanted);
  return stableJson(actual ?? emptyOf(wanted)) === stableJson(wanted);
}

/** 0 means "the default", which is 300 seconds: both spellings are the same setting. */
function normalizeSuspend(value: unknown): unknown {
  return value === 0 ? 300 : value;
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

/** JSON with sorted keys, so that {a, b} and {b, a} compare equal. */
export function stableJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(stableJson).join(",")}]`;
  if (value !== null && typeof value === "object") {
    const entries = Object.entries(value as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${stableJson(v)}`).join(",")}}`;
  }
  return JSON.stringify(value) ?? "null";
}

/** The preview's warning for a size change: names the compute and says its connections will drop. */
export function restartWarning(id: string, olds: Record<string, unknown>, news: Record<string, unknown>): string {
  const label = olds.resourceName ? `Compute "${olds.resourceName}" (${id})` : `Compute ${id}`;
  const sizes = ["autoscalingLimitMinCu", "autoscalingLimitMaxCu"]
    .filter((p) => news[p] !== undefined && news[p] !== olds[p])
    .map((p) => `${p} ${olds[p]} -> ${isUnknown(news[p]) ? "(known after apply)" : news[p]}`);
  return `warning: ${label} will restart: ${sizes.join(", ")}; its open connections will drop.`;
}
