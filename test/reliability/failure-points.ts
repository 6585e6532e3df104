/**
 * Failure at every point (issue 6, part 2): for each operation of each resource, a fault at each point of the
 * call, then the next `up` (faults off) and the check that the engine's state and the service agree.
 *
 * Points: `before` the write reached the service (503, which the client retries), `after` it was applied
 * (the response lost), the operation it started `fails`, and the wait for that operation `times out` (the
 * operation is stuck; Neon ends it before the next `up`, as rig.restartEmulator does). Deletes and key calls
 * start no operation in the service, so they have no `fails` / `times out` point.
 */
import { FaultRule } from "../../emulator";
import { auditWorld, AuditResult, unexplained } from "./audit";
import { Rig } from "./rig";
import { ComputeDecl, DeclaredWorld, KeyDecl, primaryDecl, programOf } from "./worlds";

export type Point = "before" | "after" | "fails" | "times out";

export interface OperationCase {
  /** e.g. "Compute resize". */
  name: string;
  before: DeclaredWorld;
  after: DeclaredWorld;
  /** The write the fault targets. */
  write: { method: string; path: RegExp };
  /** The operation action the service starts, when it starts one. */
  action?: string;
}

const primary = primaryDecl;
const key = (name: string, keyName: string): KeyDecl => ({ name, keyName });
const world = (computes: ComputeDecl[], keys: KeyDecl[] = []): DeclaredWorld => ({ computes, keys });

/** The operations of both resources, each as a change from one declared world to the next. */
export function operationCases(tag: string): OperationCase[] {
  const ENDPOINTS = /^\/projects\/[^/]+\/endpoints$/;
  const ONE = /^\/projects\/[^/]+\/endpoints\/ep-[^/]+$/;
  const db = primary("db");
  return [
    {
      name: "Compute create",
      before: world([]),
      after: world([db]),
      write: { method: "POST", path: ENDPOINTS },
      action: "start_compute",
    },
    {
      name: "Compute resize",
      before: world([db]),
      after: world([{ ...db, min: 1, max: 2 }]),
      write: { method: "PATCH", path: ONE },
      action: "apply_config",
    },
    {
      name: "Compute move",
      before: world([db]),
      after: world([{ ...db, branch: "staging" }]),
      write: { method: "PATCH", path: ONE },
      action: "apply_config",
    },
    {
      name: "Compute restart",
      before: world([db]),
      after: world([{ ...db, trigger: 1 }]),
      write: { method: "POST", path: /\/restart$/ },
      action: "suspend_compute",
    },
    { name: "Compute delete", before: world([db]), after: world([]), write: { method: "DELETE", path: ONE } },
    {
      name: "ApiKey create",
      before: world([]),
      after: world([], [key("ci", `${tag}-a`)]),
      write: { method: "POST", path: /^\/api_keys$/ },
    },
    {
      name: "ApiKey rotate",
      before: world([], [key("ci", `${tag}-a`)]),
      after: world([], [key("ci", `${tag}-b`)]),
      write: { method: "POST", path: /^\/api_keys$/ },
    },
    {
      name: "ApiKey delete",
      before: world([], [key("ci", `${tag}-a`)]),
      after: world([]),
      write: { method: "DELETE", path: /^\/api_keys\/\d+$/ },
    },
  ];
}

export const POINTS: Point[] = ["before", "after", "fails", "times out"];

/** Whether a point applies to an operation (deletes and keys start no operation). */
export function applies(operation: OperationCase, point: Point): boolean {
  return operation.action !== undefined || point === "before" || point === "after";
}

/** What the first error must say at each point (when the point ends in an error at all). */
export const EXPECTED_ERROR: Record<Point, RegExp> = {
  before: /HTTP 503/,
  after: /(outcome|response|lost|unknown|socket|reset|ECONNRESET)/i,
  fails: /operation \w+ [0-9a-f-]{36} ended failed/,
  "times out": /timed out after \d+ ms waiting for operations/,
};

export interface PointResult {
  errors: Error[];
  audit: AuditResult;
  /** Steps of the repairing up, and of the one after it (which must be empty). */
  repairErrors: Error[];
  emptyAfter: boolean;
  /** Writes of the faulty and the repairing up, "METHOD path status". */
  writes: string[];
}

/** Runs one case at one point on `rig` (which must start from an empty world) and cleans up after. */
export async function runPoint(rig: Rig, operation: OperationCase, point: Point, tag: string): Promise<PointResult> {
  const first = await rig.up(programOf(operation.before, rig.projects));
  if (first.errors.length > 0) throw first.errors[0];
  const mark = rig.emulator.requests.length;
  arm(rig, operation, point);
  const { errors } = await rig.up(programOf(operation.after, rig.projects));
  const writes = writesOf(rig, mark);
  await rig.restartEmulator(undefined); // faults off, scripted rules gone, stuck operations ended
  const repair = await rig.up(programOf(operation.after, rig.projects));
  const again = await rig.up(programOf(operation.after, rig.projects));
  const emptyAfter = again.errors.length === 0 && rig.engine.steps.every((s) => s.op === "same");
  const audit = await auditWorld(rig, operation.after, tag);
  writes.push("-- next up --", ...writesOf(rig, 0));
  const cleanup = await rig.up(programOf(world([]), rig.projects));
  if (cleanup.errors.length > 0) throw cleanup.errors[0];
  return { errors, audit, repairErrors: repair.errors, emptyAfter, writes };
}

function writesOf(rig: Rig, from: number): string[] {
  return rig.emulator.requests
    .slice(from)
    .filter((r) => r.method !== "GET")
    .map((r) => `${r.method} ${r.path} ${r.status}${r.fault ? ` (${r.fault})` : ""}`);
}

function arm(rig: Rig, operation: OperationCase, point: Point): void {
  const rule: FaultRule = { method: operation.write.method, path: operation.write.path, kind: "503" };
  if (point === "before") rig.emulator.faults.add(rule);
  else if (point === "after") rig.emulator.faults.add({ ...rule, kind: "ambiguous" });
  else if (point === "fails")
    rig.emulator.operations.failNext({ action: operation.action, error: "injected: the operation failed" });
  else rig.emulator.operations.stickNext({ action: operation.action });
}

/** Problems of one point's result, as readable lines (empty: the point passed). */
export function pointProblems(result: PointResult, point: Point): string[] {
  const problems: string[] = [];
  for (const [kind, list] of Object.entries(result.audit))
    for (const item of list as string[]) problems.push(`${kind}: ${item}`);
  if (result.repairErrors.length > 0)
    problems.push(`the next up failed: ${result.repairErrors.map((e) => e.message).join(" | ")}`);
  if (!result.emptyAfter) problems.push("the up after the repair still planned changes");
  const firstError = result.errors[0];
  if (firstError && !EXPECTED_ERROR[point].test(firstError.message))
    problems.push(`first error does not say what happened: ${firstError.message}`);
  if (firstError && unexplained(firstError)) problems.push(`first error ${unexplained(firstError)}`);
  return problems;
}
