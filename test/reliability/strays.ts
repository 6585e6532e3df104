/**
 * Whether the user was told of an object the stack does not hold (a stray). The provider may leave one only when it
 * cannot prove the object is its own (api.md, "Ambiguous writes"), and then it must say so; a stray nobody reported
 * is an orphan. Two ways count as reported:
 *
 * - a compute made by a `pulumi up` killed while creating it: the state keeps the pending `creating` operation, a
 *   later command warned of it ("interrupted while creating"), and the compute carries that resource's tag in its
 *   name (`pulumi-<ownerTag>-…`, ownerTag read from the pending operation's inputs), which is how the user finds it;
 * - any object named (by id, or a compute by name) in a warning of the command that made it, such as the ids of keys
 *   that a lost key create may have made.
 *
 * "The command that made it" is the last command the rig ran that had reached the service when the object was
 * created: commands run one at a time, and the request log and `created_at` read the same service clock.
 */
import { CommandResult } from "../../testing";
import { reveal } from "../../testing/values";
import { Rig } from "./rig";

interface Logged {
  at: number;
}

/** The command that was running when the service created an object at `createdAt` (ISO time). */
export function commandAt(results: readonly CommandResult[], createdAt: string): CommandResult | undefined {
  const time = Date.parse(createdAt);
  let found: CommandResult | undefined;
  for (const result of results) {
    const arrivals = (result.requests as Logged[]).map((r) => r.at);
    if (arrivals.length > 0 && Math.min(...arrivals) <= time) found = result;
  }
  return found;
}

/** Whether a warning of `result` names `token` as a whole word (an id, a compute name). */
export function warnedOf(result: CommandResult | undefined, token: string): boolean {
  const word = new RegExp(`(^|[^\\w-])${token.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}($|[^\\w-])`);
  return result?.warnings.some((warning) => word.test(warning)) ?? false;
}

/** How the user was told of a compute the stack does not hold, or undefined when nobody told them. */
export function computeReported(
  rig: Rig,
  compute: { id: string; name?: string | null; created_at?: string },
): string | undefined {
  const name = compute.name ?? "";
  for (const operation of rig.stack.state.pendingOperations) {
    const ownerTag = reveal(operation.resource.inputs.ownerTag);
    if (operation.type !== "creating" || typeof ownerTag !== "string") continue;
    if (!name.startsWith(`pulumi-${ownerTag}-`)) continue;
    const warned = rig.results.some((r) =>
      r.warnings.some((w) => w.includes(`${operation.resource.urn}, interrupted while creating`)),
    );
    if (warned) return `left by the interrupted create of ${operation.resource.urn}, which Pulumi warned of`;
  }
  const maker = compute.created_at === undefined ? undefined : commandAt(rig.results, compute.created_at);
  if (warnedOf(maker, compute.id) || (name !== "" && warnedOf(maker, name)))
    return "named in a warning of the command that made it";
  return undefined;
}

/** How the user was told of a key the stack does not hold (its id in a warning of the command that made it). */
export function keyReported(rig: Rig, key: { id: number; created_at: string }): string | undefined {
  return warnedOf(commandAt(rig.results, key.created_at), String(key.id))
    ? "its id was named in a warning of the command that made it"
    : undefined;
}
