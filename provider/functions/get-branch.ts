/**
 * getBranch (one branch, by id or by name) and getBranches (every branch of a project, read to the last page of its
 * list): each branch with a Branch resource's outputs, read by Branch's own `toOutputs` (provider/branch/plan.ts), but
 * for the provider's records (lookup.ts). A branch id or name the project lacks is named, with the project; a project
 * that does not answer is said. Run in the program; the native Invoke calls `lookUpBranch` / `listBranches`.
 */
import type * as pulumi from "@pulumi/pulumi";
import type { AnnotatedBranch, NeonClient } from "../../client";
import { BRANCH } from "../branch/declaration";
import { toOutputs } from "../branch/plan";
import { inProgram, type InputsOf, outputOf } from "../shared/program-client";
import { branchIdProblem, checked, firstProblem, lookedUp, projectIdProblem, reading } from "./lookup";

type Props = Record<string, unknown>;

// generated: BranchInfo (npm run generate, from the declaration)
/** A branch as a lookup gives it: a Branch resource's outputs. */
export interface BranchInfo {
  /** The branch id (`br-…`), for a Compute's `branchId` or a child Branch's `parentId`. */
  branchId: string;
  /** Project of the branch. */
  projectId: string;
  /** The parent, as the service reports it (none for a schema-only or root branch). */
  parentId?: string;
  /** The branch's name. */
  name: string;
  /** The point on the parent the branch starts from (a reset moves it to the parent's head then). */
  parentLsn?: string;
  /** The time on the parent the branch starts from (a reset moves it). */
  parentTimestamp?: string;
  /** `parent-data` or `schema-only`, as the service reports it. */
  initSource?: string;
  /** Whether the branch is protected. */
  protected: boolean;
  /** When Neon deletes the branch, if it expires (RFC 3339). */
  expiresAt?: string;
  /** The branch's annotations, as the service has them. */
  annotations?: Record<string, string>;
  /** Whether this is the project's default branch. */
  default: boolean;
  /** init, ready, resetting, … */
  currentState: string;
  /** The state the branch is moving to, if any. */
  pendingState?: string;
  /** When `currentState` began (ISO 8601). */
  stateChangedAt: string;
  /** The logical size of the branch, in bytes, if reported. */
  logicalSize?: number;
  /** What created the branch (console, API, ...). */
  creationSource: string;
  /** Compute time used, in seconds (a usage counter). */
  computeTimeSeconds: number;
  /** Active time of the branch's computes, in seconds (a usage counter). */
  activeTimeSeconds: number;
  /** Data written, in bytes (a usage counter). */
  writtenDataBytes: number;
  /** Data transferred, in bytes (a usage counter). */
  dataTransferBytes: number;
  /** Creation time (ISO 8601). */
  createdAt: string;
  /** Last update time (ISO 8601). */
  updatedAt: string;
  /** The time to live set with expiresAt, in seconds: a reset moves the expiry to now plus this. */
  ttlIntervalSeconds?: number;
  /** When the branch was last reset, if ever. */
  lastResetAt?: string;
}
// end of the generated BranchInfo

/** getBranch's arguments: the project, and exactly one of the branch's id or its name. */
export interface GetBranchArgs {
  /** The branch's project. */
  projectId: string;
  /** The branch's id (`br-…`); not with `name`. */
  branchId?: string;
  /** The branch's name; not with `branchId`. */
  name?: string;
}

/** The arguments of getBranchOutput: each may be an Output. */
export type GetBranchOutputArgs = InputsOf<GetBranchArgs>;

export interface GetBranchesArgs {
  /** The project whose branches to list. */
  projectId: string;
}

/** The arguments of getBranchesOutput: each may be an Output. */
export type GetBranchesOutputArgs = InputsOf<GetBranchesArgs>;

export interface GetBranchesResult {
  /** Every branch of the project, newest first (the service's order by creation time). */
  branches: BranchInfo[];
}

/**
 * A listed or read branch, as a lookup gives it. An empty annotation is none: a branch's GET may answer one where its
 * list answers nothing, and getBranch gives a branch as getBranches lists it.
 */
function infoOf({ branch, annotation }: AnnotatedBranch): BranchInfo {
  const annotations = annotation !== undefined && Object.keys(annotation).length > 0 ? annotation : undefined;
  return lookedUp(BRANCH, toOutputs(branch, annotations, {})) as unknown as BranchInfo;
}

/** The problem with getBranch's arguments: a project id, then a branch id or a name, not both. */
export function branchArgsProblem(args: Props): string | undefined {
  const byId = args.branchId !== undefined;
  const byName = args.name !== undefined;
  if (byId && byName) return "branchId must be left out when name is given (a branch is looked up by one of them)";
  if (!byId && !byName) return "branchId must be given, or name: a branch is looked up by its id or its name";
  const nameProblem =
    typeof args.name === "string" && args.name.length > 0
      ? undefined
      : `name must be a branch's name, a non-empty string (got ${JSON.stringify(args.name)})`;
  return firstProblem(projectIdProblem(args), byId ? branchIdProblem(args) : nameProblem);
}

/** One branch of a project, by id or by name. */
export function getBranch(args: GetBranchArgs): Promise<BranchInfo> {
  return inProgram(lookUpBranch, args);
}

/** getBranch for inputs that are Outputs. */
export function getBranchOutput(args: GetBranchOutputArgs): pulumi.Output<BranchInfo> {
  return outputOf(args, getBranch);
}

/** Every branch of a project, every page of its list. */
export function getBranches(args: GetBranchesArgs): Promise<GetBranchesResult> {
  return inProgram(listBranches, args);
}

/** getBranches for inputs that are Outputs. */
export function getBranchesOutput(args: GetBranchesOutputArgs): pulumi.Output<GetBranchesResult> {
  return outputOf(args, getBranches);
}

/** getBranch with a given client (`key` names its key's setting, for messages). */
export function lookUpBranch(client: NeonClient, args: GetBranchArgs, key = "neon:apiKey"): Promise<BranchInfo> {
  const { projectId, branchId, name } = args;
  return checked("getBranch", branchArgsProblem({ ...args }), async () => {
    if (branchId !== undefined) {
      const looking = { fn: "getBranch", projectId, branchId, key };
      const read = await reading(client, looking, () => client.branches.get(projectId, branchId));
      return infoOf({ branch: read.branch, annotation: read.annotation?.value });
    }
    const all = await reading(client, { fn: "getBranch", projectId, key }, () =>
      client.branches.listAnnotated(projectId),
    );
    const found = all.find((listed) => listed.branch.name === name);
    if (found === undefined) throw new Error(`getBranch: ${noBranchNamed(projectId, String(name), all)}`);
    return infoOf(found);
  });
}

/** getBranches with a given client (`key` names its key's setting, for messages). */
export function listBranches(
  client: NeonClient,
  args: GetBranchesArgs,
  key = "neon:apiKey",
): Promise<GetBranchesResult> {
  return checked("getBranches", projectIdProblem({ ...args }), async () => {
    const looking = { fn: "getBranches", projectId: args.projectId, key };
    const all = await reading(client, looking, () => client.branches.listAnnotated(args.projectId));
    return { branches: all.map(infoOf) };
  });
}

/** The branch names a message lists before "…". */
const NAMES_SHOWN = 20;

function noBranchNamed(projectId: string, name: string, all: AnnotatedBranch[]): string {
  const names = all.map((listed) => listed.branch.name);
  const shown = names.slice(0, NAMES_SHOWN).join(", ") + (names.length > NAMES_SHOWN ? ", …" : "");
  return (
    `project ${projectId} has no branch named ${JSON.stringify(name)} (its list, read to the end, has ` +
    `${names.length}: ${shown || "none"}); check the name, or look the branch up by its branchId.`
  );
}
