/**
 * Which computes belong to which resource, so that no step makes a duplicate or takes another's compute.
 *
 * - `claimed`: computes this plugin process created or adopted; never taken for another resource.
 * - The owner tag: a hash of project, stack and resource name, computed in the program (compute.ts). A compute
 *   created for a resource whose program sets no `name` is named `pulumi-<tag>`. If the plugin dies between the
 *   service creating a compute and the engine recording it, the next `up` finds the tagged compute and adopts it
 *   instead of making a second one (or, for a primary, failing on the branch's one read_write compute).
 */
import type { Endpoint } from "../sdk";
import { client } from "./runtime";

type Props = Record<string, unknown>;

export const claimed = new Set<string>();

/** The service-side name a compute gets when the program sets none; undefined when the program names it. */
export function ownerName(inputs: Props): string | undefined {
  if (inputs.name !== undefined || typeof inputs.ownerTag !== "string") return undefined;
  return `pulumi-${inputs.ownerTag}`;
}

/** The inputs as sent in a create: with the owner name when the program sets none. */
export function withOwnerName(inputs: Props): Props {
  const name = ownerName(inputs);
  return name ? { ...inputs, name } : inputs;
}

/** Each project's computes as they were when this process first created in it (one GET per project). */
const firstSeen = new Map<string, Promise<Endpoint[]>>();

/**
 * A compute of this resource left behind by an interrupted run: tagged with this resource's owner name, on its
 * branch, of its type, and not claimed by this process. Only computes that existed before this process created
 * anything in the project are considered.
 */
export async function findLeftBehind(inputs: Props): Promise<Endpoint | undefined> {
  const name = ownerName(inputs);
  if (!name) return undefined;
  const computes = await computesBeforeThisRun(String(inputs.projectId));
  const type = inputs.type ?? "read_write";
  return computes.find(
    (c) => c.name === name && c.branch_id === inputs.branchId && c.type === type && !claimed.has(c.id),
  );
}

async function computesBeforeThisRun(projectId: string): Promise<Endpoint[]> {
  let listing = firstSeen.get(projectId);
  if (!listing) {
    listing = client().endpoints.list(projectId);
    firstSeen.set(projectId, listing);
    listing.catch(() => firstSeen.delete(projectId));
  }
  return listing;
}
