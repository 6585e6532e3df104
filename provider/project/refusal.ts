/**
 * What the user is told about a project before anything is sent: Check's rules over several inputs (the default
 * compute's sizes as a pair; a replacement or a delete while `deletionProtection` holds; logical replication turned
 * off), the preview's warnings (a restart of the default compute, computes suspended, a replacement's loss), the
 * refusal of a change of the names a project sets at creation only, adoption's words and a lost create's. Pure: no
 * request, no credentials.
 */
import * as adoption from "../shared/adoption";
import { sameSuspendTimeout, sizePairProblem } from "../shared/sizes";
import { stableJson } from "../shared/stable-json";
import { isUnknown } from "../shared/unknown";
import { CheckFailure } from "../shared/validators";

type Props = Record<string, unknown>;

/** The resource's docs section (declaration.ts `docs`; not imported: the declaration imports this module). */
const DOCS = "docs/resources.md#project";

/**
 * Two values of a named object type are one setting when every field the program sets (`b`, the new value) has the
 * same value in `a` (the service's, which reports every field): a field left out keeps the service's value, so it is
 * no change, and a value the service fills in (a default) never shows as a difference (kislerdm#179).
 */
export function sameFields(a: unknown, b: unknown): boolean {
  if (b === undefined || b === null) return true;
  if (typeof b !== "object" || typeof a !== "object" || a === null) return stableJson(a) === stableJson(b);
  const before = a as Props;
  return Object.entries(b as Props).every(([key, value]) => {
    if (value === undefined || value === null) return true;
    if (key === "suspendTimeoutSeconds") return sameSuspendTimeout(before[key], value);
    return stableJson(before[key]) === stableJson(value);
  });
}

/** How messages name the project `id` (by its resource's name when known). */
export function projectLabel(id: string, props: Props): string {
  return props.resourceName ? `Project "${String(props.resourceName)}" (${id})` : `Project ${id}`;
}

/** Check, over several inputs: the default compute's sizes both or neither, and a pair the service accepts. */
export function checkProjectInputs(news: Props): CheckFailure[] {
  const settings = news.defaultEndpointSettings as Props | undefined;
  if (typeof settings !== "object" || settings === null || isUnknown(settings)) return [];
  const { autoscalingLimitMinCu: min, autoscalingLimitMaxCu: max } = settings;
  if (isUnknown(min) || isUnknown(max)) return [];
  const property = "defaultEndpointSettings";
  if ((min === undefined) !== (max === undefined)) {
    return [
      {
        property,
        reason:
          "must set autoscalingLimitMinCu and autoscalingLimitMaxCu together: the sizes are checked as a pair " +
          "(set both equal for a fixed size)",
      },
    ];
  }
  if (typeof min !== "number" || typeof max !== "number") return [];
  const problem = sizePairProblem(min, max);
  return problem ? [{ property, reason: `sizes: ${problem}` }] : [];
}

/**
 * Check, with the old inputs: a replacement while `deletionProtection` holds (the old inputs do not say false) is
 * refused, naming the property, before anything is made (Pulumi's `protect` refuses it too, but a native resource has
 * no class to set it); and logical replication, once on, cannot be turned off (OpenAPI ProjectSettingsData).
 */
export function checkProjectChange(olds: Props, news: Props, replaces: string[]): CheckFailure[] {
  if (Object.keys(olds).length === 0) return [];
  const failures: CheckFailure[] = [];
  if (olds.deletionProtection !== false) {
    for (const property of replaces.filter((p) => !isUnknown(news[p]))) {
      failures.push({
        property,
        reason:
          "changed while deletionProtection is true: the change replaces the project, which deletes every branch " +
          "and database of it. Set deletionProtection: false in an up of its own first, then make this change",
      });
    }
  }
  const before = (olds.settings as Props | undefined)?.enableLogicalReplication;
  const after = (news.settings as Props | undefined)?.enableLogicalReplication;
  if (before === true && after === false) {
    failures.push({
      property: "settings",
      reason:
        'enableLogicalReplication cannot be turned off once on (OpenAPI ProjectSettingsData: "Once enabled, ' +
        'logical replication cannot be disabled"); set it back to true or leave it out',
    });
  }
  return failures;
}

/** The names a project sets at creation only, the program's change of them, and how to rename each instead. */
export function branchChangeError(id: string, olds: Props, news: Props): Error {
  const was = (olds.branch ?? {}) as Props;
  const now = (news.branch ?? {}) as Props;
  const changed = Object.keys(now).filter((k) => now[k] !== undefined && stableJson(now[k]) !== stableJson(was[k]));
  const shown = changed.map((k) => `${k} ${JSON.stringify(was[k])} -> ${JSON.stringify(now[k])}`).join(", ");
  return new Error(
    `${projectLabel(id, olds)}: branch: ${shown}: these names act only when the project is created (Neon's ` +
      `ProjectUpdateRequest has no branch), and replacing the project to apply them would delete its data. Nothing ` +
      `was changed. Set branch back, or remove it from the program (no change). To rename the default branch, ` +
      `declare a Branch with adoptId: the project's defaultBranchId and the new name; to rename the default ` +
      `database, a Database on it with the new name (or rename it in the Neon console); a role cannot be renamed: ` +
      `create a Role with the new name and move ownership to it (${DOCS}).`,
  );
}

/**
 * The preview's warnings of a planned change: what a replacement deletes, the default compute's restart for a new
 * size, and the computes suspended when logical replication is turned on. Values of sizes are shown, nothing else.
 */
export function changeWarnings(id: string, olds: Props, news: Props, replaces: string[], resizes: boolean): string[] {
  const label = projectLabel(id, olds);
  if (replaces.length > 0) {
    return [
      `${label} will be replaced (${replaces.join(", ")} changed): a new, empty project is created, and ${id} is ` +
        `then deleted with every branch, compute, role and database in it (their data is lost).`,
    ];
  }
  const warnings: string[] = [];
  if (resizes) warnings.push(restartWarning(label, olds, news));
  const before = (olds.settings as Props | undefined)?.enableLogicalReplication;
  const after = (news.settings as Props | undefined)?.enableLogicalReplication;
  if (after === true && before !== true) {
    warnings.push(
      `${label}: enableLogicalReplication is turned on: Neon suspends every running compute of the project (their ` +
        `open connections drop; they start again on the next connection), and it cannot be turned off again.`,
    );
  }
  return warnings;
}

/** The default compute restarts for a new size (Compute's warning, compute/refusal.ts `connectionWarning`). */
function restartWarning(label: string, olds: Props, news: Props): string {
  const was = (olds.defaultEndpointSettings ?? {}) as Props;
  const now = (news.defaultEndpointSettings ?? {}) as Props;
  const sizes = ["autoscalingLimitMinCu", "autoscalingLimitMaxCu"]
    .filter((k) => now[k] !== undefined && now[k] !== was[k])
    .map((k) => (isUnknown(now[k]) ? `${k} (known after apply)` : `${k} ${String(was[k])} -> ${String(now[k])}`));
  const compute = olds.defaultComputeId
    ? `its default compute ${String(olds.defaultComputeId)}`
    : "its default compute";
  return (
    `${label}: ${compute} will restart if it is running: defaultEndpointSettings ${sizes.join(", ")}; its open ` +
    `connections will drop (Neon's project PATCH changes only later computes, so the provider resizes it too).`
  );
}

/** Why Delete refuses while the state's `deletionProtection` holds, and what to do. */
export function protectedDelete(id: string, props: Props): string {
  return (
    `${projectLabel(id, props)} was not deleted: deletionProtection is true, and deleting a project deletes every ` +
    `branch, compute, role and database in it. Set deletionProtection: false in the program and run pulumi up (it ` +
    `sends nothing), then destroy or remove it (${DOCS}).`
  );
}

/** How adoption's messages speak of a project. */
export const ADOPTABLE: adoption.Adoptable = {
  type: "Project",
  kind: "project",
  adopting: () =>
    "where its name, history retention, settings or default compute settings differ from the program's, adopting " +
    "changes them (with name left out, it keeps its name; another region, Postgres version, organization or default " +
    "branch names are refused)",
};

/** What Check says about `adoptId` (shared/adoption.ts). */
export const adoptionWarnings = (olds: Props, news: Props): string[] =>
  adoption.adoptionWarnings(ADOPTABLE, olds, news);

/** Why Delete leaves the project `id` on the service, or undefined to delete it. */
export const keptOnDelete = (id: string, label: string, props: Props): string | undefined =>
  adoption.keptAdopted(ADOPTABLE, id, label, props);

/** A create whose answer was lost: it may have made a project, which nothing can tell from another (changes.ts). */
export function lostCreate(inputs: Props, error: unknown): Error {
  return new Error(
    `The answer to the create of project ${JSON.stringify(inputs.name)} was lost (${(error as Error).message}): ` +
      `the project may have been made. Look for it in the Neon console (or neonctl projects list); if it is there, ` +
      `set adoptId to its id and run pulumi up again (then remove adoptId), else run pulumi up again.`,
    { cause: error },
  );
}
