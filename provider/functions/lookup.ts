/**
 * What the lookups (getProject, getBranch, getBranches, getComputes, getRoles, getDatabases) share: an element's fields
 * are the matching resource's outputs, chosen from its declaration, so a lookup and the resource name a field alike
 * and read it from the same API field (the record goes through the resource's own `toOutputs`); their arguments are
 * checked before anything is sent; and a 404 is told apart (the project, or the branch of a project that answers).
 */
import type { NeonClient } from "../../client";
import { Declaration, OutputRow } from "../shared/declaration";
import { errorKind } from "../shared/errors";
import { BRANCH_ID, BRANCH_ID_SHAPE, PROJECT_ID, PROJECT_ID_SHAPE } from "../shared/ids";
import { outOfReach } from "../shared/lifecycle";
import { propertyOf } from "../shared/schema-of";

type Props = Record<string, unknown>;

/**
 * The outputs a lookup gives of a resource's object: every output but the provider's own records, which the service
 * knows nothing of (the inputs a program gives to act or to be recorded: resetTriggers, restartTriggers,
 * passwordTriggers, adoptId, resourceName, ownerTag), and the secrets (a Role's password: getRolePassword reads one).
 */
export function lookupFields(declaration: Declaration): string[] {
  const providerOwn = (name: string) => {
    const input = declaration.inputs[name];
    return input !== undefined && input.api === undefined && (input.change === "record" || input.change === "action");
  };
  return Object.entries(declaration.outputs)
    .filter(([name, row]) => !row.internal && !row.secret && !providerOwn(name))
    .map(([name]) => name);
}

/** The lookup's fields of a resource's outputs (the resource's `toOutputs` of a record), in declaration order. */
export function lookedUp(declaration: Declaration, outputs: Props): Props {
  const fields = lookupFields(declaration).filter((name) => outputs[name] !== undefined);
  return Object.fromEntries(fields.map((name) => [name, outputs[name]]));
}

/** Rows as schema.json's object properties and required list (a lookup's element type or result). */
export function rowsSchema(rows: Record<string, OutputRow>): { properties: Props; required: string[] } {
  return {
    properties: Object.fromEntries(Object.entries(rows).map(([name, row]) => [name, propertyOf(row)])),
    required: Object.entries(rows)
      .filter(([, row]) => !row.optional)
      .map(([name]) => name),
  };
}

/** The rows of a resource's lookup fields. */
export function lookupRows(declaration: Declaration): Record<string, OutputRow> {
  return Object.fromEntries(lookupFields(declaration).map((name) => [name, declaration.outputs[name]]));
}

/** A problem with one argument, `name must be …`: the failure the native Invoke reports under that name. */
export type ArgsProblem = string | undefined;

/** A required project id. */
export const projectIdProblem = (args: Props): ArgsProblem =>
  typeof args.projectId === "string" && PROJECT_ID.test(args.projectId)
    ? undefined
    : `projectId must be ${PROJECT_ID_SHAPE} (got ${JSON.stringify(args.projectId)})`;

/** A branch id, required unless `optional`. */
export const branchIdProblem = (args: Props, optional = false): ArgsProblem =>
  (optional && args.branchId === undefined) || (typeof args.branchId === "string" && BRANCH_ID.test(args.branchId))
    ? undefined
    : `branchId must be ${BRANCH_ID_SHAPE}${optional ? ", or left out" : ""} (got ${JSON.stringify(args.branchId)})`;

/** The first problem of the arguments, or undefined. */
export const firstProblem = (...problems: ArgsProblem[]): ArgsProblem => problems.find((p) => p !== undefined);

/** Rejects with `fn: problem` when there is one, else runs `call` (nothing is sent for bad arguments). */
export function checked<T>(fn: string, problem: ArgsProblem, call: () => Promise<T>): Promise<T> {
  return problem === undefined ? call() : Promise.reject(new Error(`${fn}: ${problem}`));
}

/** What a lookup was reading when the service answered 404. */
export interface Looking {
  /** The function's name, first in its messages. */
  fn: string;
  projectId: string;
  /** The branch it read (its lists), if any: a 404 of a project that answers is that branch's. */
  branchId?: string;
  /** Names the setting the key comes from (`neon:apiKey`, or the native plugin's provider's). */
  key: string;
}

/**
 * The error a lookup reports for `error`: a 404 names what is missing: the branch when its project answers (GET
 * /projects/{p}), else the project, with what else Neon's 404 may mean (a key that does not reach it). Anything else
 * stands, with the function's name first.
 */
export async function lookupError(client: NeonClient, looking: Looking, error: unknown): Promise<Error> {
  const { fn, projectId, branchId, key } = looking;
  const said = (error as Error).message;
  const fail = (text: string) => new Error(`${fn}: ${text}`, { cause: error });
  if (errorKind(error) !== "not_found") return fail(said);
  const project = branchId === undefined ? "missing" : await projectState(client, projectId);
  if (project === "unknown") return fail(said); // a read that failed otherwise proves nothing
  if (project === "answers")
    return fail(`project ${projectId} has no branch ${branchId} (${said}); check the branchId.`);
  return fail(`project ${projectId} was not found (${said}): check the projectId, or ${outOfReach(projectId, key)}.`);
}

/** Whether the project answers GET /projects/{p}: "missing" on a 404, "unknown" on any other failure. */
async function projectState(client: NeonClient, projectId: string): Promise<"answers" | "missing" | "unknown"> {
  try {
    await client.projects.get(projectId);
    return "answers";
  } catch (error) {
    return errorKind(error) === "not_found" ? "missing" : "unknown";
  }
}

/** Runs a lookup's reads, turning a failure into `lookupError`'s. */
export async function reading<T>(client: NeonClient, looking: Looking, read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    throw await lookupError(client, looking, error);
  }
}
