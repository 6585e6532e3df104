/**
 * Interruption (issue 6, part 3): a `pulumi up` killed (CLI and plugin, as Ctrl-C twice or a killed CI job) while
 * the provider waits for the service's operation; then the next `up`s. Each case runs on a rig of its own, since the
 * pending create an interrupted create leaves stays in that stack's state.
 *
 * - Killed mid-update (resize, move, restart): the state still holds the compute's id and old outputs, with the
 *   update pending; the next `up` warns of it, sends the change again and converges; nothing is duplicated.
 * - Killed mid-create: the engine never got the id; the state keeps the pending `creating` operation, whose inputs
 *   hold the resource's ownerTag, and every later `up` warns of it. The compute the killed attempt made cannot be
 *   proven to be that attempt's (a twin stack's carries the same tag), so it is never adopted, deleted or changed,
 *   and no second compute is made beside it: the next `up` is refused before anything is sent, naming it (it carries
 *   this resource's name, an interrupted `up` made it, keep it with adoptId or delete it), for a replica and a
 *   primary alike; the user deletes the compute the message names, and the next `up` converges.
 */
import { RequestLogEntry } from "../../emulator";
import { auditWorld, failuresOf } from "./audit";
import { COMPUTE, Rig, RigUp } from "./rig";
import { ComputeDecl, DeclaredWorld, primaryDecl, programOf } from "./worlds";

export interface Write {
  method: string;
  path: RegExp;
}

export interface InterruptCase {
  label: string;
  before: ComputeDecl[];
  after: ComputeDecl[];
  /** The write after whose answer the `up` is killed. */
  write: Write;
}

const ENDPOINTS = /^\/projects\/[^/]+\/endpoints$/;
const ONE = /^\/projects\/[^/]+\/endpoints\/ep-[^/]+$/;
const db = primaryDecl("db");
const replica = primaryDecl("replica", { type: "read_only", branch: "main" });

/** Updates killed while the provider waits for the operation the write started. */
export const UPDATE_INTERRUPTIONS: InterruptCase[] = [
  { label: "a resize", before: [db], after: [{ ...db, min: 1, max: 2 }], write: { method: "PATCH", path: ONE } },
  {
    label: "a branch move",
    before: [db],
    after: [{ ...db, branch: "staging" }],
    write: { method: "PATCH", path: ONE },
  },
  {
    label: "a restart trigger",
    before: [db],
    after: [{ ...db, trigger: 1 }],
    write: { method: "POST", path: /\/restart$/ },
  },
];
export const REPLICA_CREATE: InterruptCase = {
  label: "the create of a read replica",
  before: [],
  after: [replica],
  write: { method: "POST", path: ENDPOINTS },
};
export const PRIMARY_CREATE: InterruptCase = {
  label: "the create of a primary",
  before: [],
  after: [db],
  write: { method: "POST", path: ENDPOINTS },
};
export const INTERRUPTIONS = [...UPDATE_INTERRUPTIONS, REPLICA_CREATE, PRIMARY_CREATE];

const world = (computes: ComputeDecl[]): DeclaredWorld => ({ computes, keys: [] });

/** Runs an `up` of `declared`, and interrupts it once `write` was answered (2xx). */
export async function killDuringWait(rig: Rig, declared: DeclaredWorld, write: Write): Promise<RigUp> {
  const mark = rig.emulator.requests.length;
  const running = rig.up(programOf(declared, rig.projects));
  const answered = () =>
    rig
      .requestsSince(mark)
      .some((r) => r.method === write.method && write.path.test(r.path) && r.status >= 200 && r.status < 300);
  const deadline = Date.now() + 20_000;
  while (!answered() && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 10));
  if (!answered()) throw new Error(`${write.method} ${write.path} was never answered`);
  await rig.interrupt();
  return running;
}

/** Runs one case on a rig of its own; returns its problems (empty: the case passed). */
export async function runInterruption(c: InterruptCase, tag: string): Promise<string[]> {
  const rig = await Rig.start({ projects: 1, operationDurationMs: 800, waitTimeoutSeconds: 20 });
  try {
    const problems: string[] = [];
    const setup = await rig.up(programOf(world(c.before), rig.projects));
    if (setup.errors.length > 0) throw setup.errors[0];
    const killed = await killDuringWait(rig, world(c.after), c.write);
    if (!killed.result.interrupted) problems.push("the up was not interrupted");
    const after = c.after[0];
    const pending = rig.stack.state.pendingOperations.map((op) => `${op.type} ${op.resource.urn}`);
    const urn = `urn:pulumi:${rig.stack.stack}::${rig.stack.project}::${COMPUTE}::${after.name}`;
    const creating = c.before.length === 0;
    const want = `${creating ? "creating" : "updating"} ${urn}`;
    if (JSON.stringify(pending) !== JSON.stringify([want]))
      problems.push(`pending operations after the kill: [${pending}], expected [${want}]`);
    if (!creating) problems.push(...(await afterKilledUpdate(rig, world(c.after), urn, tag)));
    else problems.push(...(await afterKilledCreate(rig, world(c.after), urn, tag)));
    return problems;
  } finally {
    await rig.stop();
  }
}

/** The next `up` warns of the pending update and converges; the one after changes nothing; no pending operation. */
async function afterKilledUpdate(rig: Rig, declared: DeclaredWorld, urn: string, tag: string): Promise<string[]> {
  const next = await rig.up(programOf(declared, rig.projects));
  const problems = [...upProblems("the next up", next), ...warnedOf(next, urn, "updating")];
  problems.push(...(await convergedProblems(rig, declared, tag)));
  if (rig.stack.state.pendingOperations.length > 0) problems.push("the pending update is still in state");
  return problems;
}

/** The stray the killed create made: the only compute of the project that is neither the fixture's nor held. */
async function strays(rig: Rig): Promise<{ id: string; name?: string | null }[]> {
  const project = rig.projects[0];
  const held = new Set(rig.stack.state.resources.map((r) => r.id));
  const listed = await rig.api().endpoints.list(project.id);
  return listed.filter((c) => !project.fixtureComputes.includes(c.id) && !held.has(c.id));
}

/** The compute the killed create made, which must carry the pending resource's tag; problems if it does not. */
async function strayOfPendingCreate(rig: Rig, problems: string[]): Promise<{ id: string; name?: string | null }> {
  const [operation] = rig.stack.state.pendingOperations;
  const ownerTag = String(operation?.resource.inputs.ownerTag);
  const found = await strays(rig);
  if (found.length !== 1) throw new Error(`expected one compute left by the killed create, found ${found.length}`);
  if (!new RegExp(`^pulumi-${ownerTag}-[0-9a-f]{8}$`).test(found[0].name ?? ""))
    problems.push(`the stray ${found[0].id} is named "${found[0].name}", not pulumi-${ownerTag}-<8 hex>`);
  return found[0];
}

/**
 * The next `up` is refused before anything is sent, naming the stray and the ways to keep or delete it (owner-tag.ts);
 * once the user deletes it, as the message says they may, the next `up` converges with no stray left.
 */
async function afterKilledCreate(rig: Rig, declared: DeclaredWorld, urn: string, tag: string) {
  const problems: string[] = [];
  const stray = await strayOfPendingCreate(rig, problems);
  const next = await rig.up(programOf(declared, rig.projects));
  problems.push(...warnedOf(next, urn, "creating"), ...untouched(next, stray.id));
  if (writesOf(next).length > 0) problems.push(`the refused up sent [${writesOf(next)}]`);
  const message = next.errors[0]?.message ?? "";
  const says = ["was not created", "named for this resource", "an interrupted pulumi up made it", "delete it"];
  for (const words of [...says, `adoptId: "${stray.id}"`])
    if (!message.includes(words)) problems.push(`the failed up does not say "${words}": ${message || "no error"}`);
  const named = /on branch \S+, (ep-[a-z0-9-]+) \(/.exec(message)?.[1];
  if (named !== stray.id) problems.push(`the message names ${named}, the stray is ${stray.id}`);
  await rig.api().endpoints.delete(rig.projects[0].id, named ?? stray.id);
  const after = await rig.up(programOf(declared, rig.projects));
  problems.push(...upProblems("the up after deleting the stray", after));
  problems.push(...(await convergedProblems(rig, declared, tag)));
  return problems;
}

/** One more `up` changes nothing and sends no write; the audit finds no failure and exactly these strays. */
async function convergedProblems(rig: Rig, declared: DeclaredWorld, tag: string, strayIds: string[] = []) {
  const again = await rig.up(programOf(declared, rig.projects));
  const problems = upProblems("the up after convergence", again);
  const changed = again.steps.filter((s) => s.type === COMPUTE && s.op !== "same").map((s) => `${s.op} ${s.name}`);
  const writes = writesOf(again);
  if (changed.length + writes.length > 0) problems.push(`the up after convergence did [${[...changed, ...writes]}]`);
  const audit = await auditWorld(rig, declared, tag);
  problems.push(...failuresOf(audit));
  const reported = audit.reportedStrays;
  if (reported.length !== strayIds.length || !strayIds.every((id) => reported.some((s) => s.includes(id))))
    problems.push(`reported strays [${reported.join(" | ")}], expected the computes [${strayIds}]`);
  return problems;
}

function upProblems(what: string, up: RigUp): string[] {
  return up.errors.map((e) => `${what} failed: ${e.message}`);
}

/** The `up` warned of the pending operation the kill left on `urn`. */
function warnedOf(up: RigUp, urn: string, type: string): string[] {
  return up.warnings.some((w) => w.includes(`${urn}, interrupted while ${type}`))
    ? []
    : [`no warning of the pending ${type} of ${urn}: [${up.warnings.join(" | ")}]`];
}

/** Nothing was sent to the stray, and nothing was deleted. */
function untouched(up: RigUp, strayId: string): string[] {
  return writesOf(up)
    .filter((w) => w.includes(strayId) || w.startsWith("DELETE"))
    .map((w) => `the up sent ${w}`);
}

function writesOf(up: RigUp): string[] {
  return (up.result.requests as RequestLogEntry[])
    .filter((r) => r.method !== "GET")
    .map((r) => `${r.method} ${r.path}`);
}
