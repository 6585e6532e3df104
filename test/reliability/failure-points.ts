/**
 * Failure at every point (issue 6, part 2): for each operation of each resource, a fault at each point of the
 * call, then the next `up` (faults off) and the check that the stack's state and the service agree.
 *
 * Points: `before` the write reached the service (503, which the client retries), `after` it was applied
 * (the response lost), the operation it started `fails`, and the wait for that operation `times out` (the
 * operation is stuck; Neon ends it before the next `up`, as rig.restartEmulator does). Deletes and key calls
 * start no operation in the service, so they have no `fails` / `times out` point.
 *
 * Each case runs on a rig of its own (a new emulator and stack), so that nothing one case leaves can pass for
 * another's. A faulty `up` that failed gets a repairing `up` (faults off); then one more `up` must change nothing
 * (right after a faulty `up` that succeeded: its success must mean it converged). What must hold then:
 * - the audit finds no failure: no duplicate or orphan compute, no lost key, no key nobody was told of, nothing
 *   taken (bystander keys named like the stack's own, created before the faulty `up`, all still work);
 * - a lost compute create is settled by reading (the attempt's unique name), never sent twice, and leaves no stray;
 * - a lost key create cannot be settled (a key carries no mark of its attempt): the create is sent again and the
 *   one key it may have made is a reported stray, its id named in a warning of that `up`; nothing is revoked;
 * - the first error names what happened; no key appears in plain text anywhere.
 */
import { FaultRule, RequestLogEntry } from "../../emulator";
import { auditWorld, AuditResult, Bystander, createBystander, failuresOf, unexplained } from "./audit";
import { leaks, secretsInState } from "./leaks";
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
  /** What the faulted write creates, if anything. */
  creates?: "compute" | "key";
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
      creates: "compute",
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
      creates: "key",
    },
    {
      name: "ApiKey rotate",
      before: world([], [key("ci", `${tag}-a`)]),
      after: world([], [key("ci", `${tag}-b`)]),
      write: { method: "POST", path: /^\/api_keys$/ },
      creates: "key",
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
  /** Errors and warnings of the faulty `up`. */
  errors: Error[];
  warnings: string[];
  audit: AuditResult;
  /**
   * Errors of the repairing up (run only when the faulty one failed); whether the up after it (or right after a
   * faulty up that succeeded) changed nothing and sent no write.
   */
  repairErrors: Error[];
  emptyAfter: boolean;
  /** Writes of the faulty and the repairing up, "METHOD path status". */
  writes: string[];
  /** How many times the faulted write was sent by the faulty `up`. */
  sent: number;
  leaks: string[];
}

/** Runs one case at one point on a rig of its own. */
export async function runPoint(operation: OperationCase, point: Point, tag: string): Promise<PointResult> {
  const rig = await Rig.start({ projects: 1, waitTimeoutSeconds: 1 });
  try {
    const setup = await rig.up(programOf(operation.before, rig.projects));
    if (setup.errors.length > 0) throw setup.errors[0];
    const bystanders = await bystandersOf(rig, operation);
    const mark = rig.emulator.requests.length;
    arm(rig, operation, point);
    const faulty = await rig.up(programOf(operation.after, rig.projects));
    const faultyWrites = rig.requestsSince(mark).filter((r) => r.method !== "GET");
    await rig.restartEmulator(undefined); // faults off, scripted rules gone, stuck operations ended
    // A faulty up that succeeded must have converged: the next up changes nothing. One that failed gets a repair.
    const repair = faulty.errors.length > 0 ? await rig.up(programOf(operation.after, rig.projects)) : undefined;
    const again = await rig.up(programOf(operation.after, rig.projects));
    const againWrites = (again.result.requests as RequestLogEntry[]).filter((r) => r.method !== "GET");
    const audit = await auditWorld(rig, operation.after, tag, bystanders);
    const secrets = [rig.emulator.apiKey, ...bystanders.map((b) => b.key), ...secretsInState(rig)];
    return {
      errors: faulty.errors,
      warnings: faulty.warnings,
      audit,
      repairErrors: repair?.errors ?? [],
      emptyAfter: again.errors.length === 0 && again.steps.every((s) => s.op === "same") && againWrites.length === 0,
      writes: [
        ...lines(faultyWrites),
        "-- next up --",
        ...lines((repair ?? again).result.requests as RequestLogEntry[]),
      ],
      sent: faultyWrites.filter((r) => r.method === operation.write.method && operation.write.path.test(r.path)).length,
      leaks: leaks(rig, [...faulty.errors, ...(repair?.errors ?? []), ...again.errors], secrets),
    };
  } finally {
    await rig.stop();
  }
}

/** Keys another stack or person holds, named like each key the case declares, made before the faulty `up`. */
function bystandersOf(rig: Rig, operation: OperationCase): Promise<Bystander[]> {
  const names = new Set([...operation.before.keys, ...operation.after.keys].map((k) => k.keyName));
  return Promise.all([...names].map((name) => createBystander(rig, name)));
}

function lines(requests: RequestLogEntry[]): string[] {
  return requests
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

/** Every applicable (operation, point) of the operations whose name starts with `resource`, labelled for a test. */
export function pointCases(tag: string, resource: "Compute" | "ApiKey") {
  return operationCases(tag)
    .filter((operation) => operation.name.startsWith(`${resource} `))
    .flatMap((operation) =>
      POINTS.filter((point) => applies(operation, point)).map((point) => ({
        operation,
        point,
        label: `${operation.name}, ${point}`,
      })),
    );
}

/** Runs one case and throws its problems with the writes, errors and warnings that explain them. */
export async function expectPointPasses(operation: OperationCase, point: Point, tag: string): Promise<void> {
  const result = await runPoint(operation, point, tag);
  const problems = pointProblems(result, operation, point);
  if (problems.length === 0) return;
  const errors = result.errors.map((e) => e.message);
  throw new Error(
    [...problems, "writes:", ...result.writes, "errors:", ...errors, "warnings:", ...result.warnings].join("\n"),
  );
}

/** Problems of one point's result, as readable lines (empty: the point passed). */
export function pointProblems(result: PointResult, operation: OperationCase, point: Point): string[] {
  const problems = failuresOf(result.audit);
  problems.push(...strayProblems(result, operation, point));
  if (result.repairErrors.length > 0)
    problems.push(`the next up failed: ${result.repairErrors.map((e) => e.message).join(" | ")}`);
  if (!result.emptyAfter) problems.push("the up after the faulty (or the repairing) up still changed something");
  const firstError = result.errors[0];
  if (firstError && !EXPECTED_ERROR[point].test(firstError.message))
    problems.push(`first error does not say what happened: ${firstError.message}`);
  if (firstError && unexplained(firstError)) problems.push(`first error ${unexplained(firstError)}`);
  problems.push(...result.leaks.map((hit) => `secret in plain text: ${hit}`));
  return problems;
}

/**
 * A lost compute create is found by its attempt's name (sent once, no stray); a lost key create is sent again and
 * leaves exactly one key, reported; nothing else leaves a stray.
 */
function strayProblems(result: PointResult, operation: OperationCase, point: Point): string[] {
  const lost = point === "after" ? operation.creates : undefined;
  const strays = result.audit.reportedStrays;
  const problems: string[] = [];
  if (lost === "compute" && result.sent !== 1)
    problems.push(`the lost compute create was sent ${result.sent} times, not settled by its attempt's name`);
  if (lost === "key" && result.sent !== 2) problems.push(`the lost key create was sent ${result.sent} times, not 2`);
  const expected = lost === "key" ? 1 : 0;
  if (strays.length !== expected || !strays.every((s) => s.startsWith("key ")))
    problems.push(`expected ${expected} reported stray key(s), found: ${strays.join(" | ") || "none"}`);
  return problems;
}
