/**
 * What "the world converged" means, checked against the service itself (faults off):
 *
 * - computes: every compute in state exists, with the declared branch, type and sizes, and state says the same; a
 *   compute of the projects outside state (the fixture's own apart) is a reported stray when the user was told of it
 *   (compute/owner-tag.ts), else a duplicate (a second copy of a declared compute) or an orphan;
 * - keys: every key in state is listed and answers 200 with its secret (else it is lost); a key of the run's names
 *   outside state is a reported stray when a warning of the command that made it named its id, else an orphan key
 *   (a key nobody holds and nobody was told of);
 * - taken: nothing the stack did not make is ever deleted, revoked or held in state: the fixture's computes, and
 *   bystander keys (another stack's or person's keys, created by the test with the run's key names);
 * - errors: every error a user saw names what failed.
 *
 * Reported strays are not failures (an unused object the user was told of is a nuisance), so they are listed apart;
 * everything else is a failure.
 */
import axios, { AxiosResponse } from "axios";
import { Agent } from "http";
import { ApiKey as ServiceKey } from "../../client";
import { ResourceState } from "../../testing";
import { reveal } from "../../testing/values";
import { API_KEY, COMPUTE, Rig } from "./rig";
import { computeReported, keyReported } from "./strays";
import { DeclaredWorld } from "./worlds";

export interface AuditResult {
  /** A compute outside state, a copy of a declared one, that nobody reported. */
  duplicates: string[];
  /** Any other compute outside state that nobody reported. */
  orphans: string[];
  lostKeys: string[];
  /** A key of the run's names outside state that no warning of the command that made it named. */
  orphanKeys: string[];
  /** A fixture compute or a bystander key deleted, revoked or held in state. */
  taken: string[];
  /** State and service (or declaration) disagree. */
  mismatches: string[];
  /** Not a failure: computes and keys outside state that the user was told of. */
  reportedStrays: string[];
}

/** A key the stack does not own: made by the test (as another stack or person would) with one of the run's names. */
export interface Bystander {
  id: number;
  name: string;
  key: string;
}

/** The audit's failures as readable lines ("kind: what"), reported strays left out. */
export function failuresOf(audit: AuditResult): string[] {
  return Object.entries(audit)
    .filter(([kind]) => kind !== "reportedStrays")
    .flatMap(([kind, list]) => (list as string[]).map((item) => `${kind}: ${item}`));
}

/** Compares the service's world with the stack's state, the declaration and the bystanders. */
export async function auditWorld(
  rig: Rig,
  world: DeclaredWorld,
  keyTag: string,
  bystanders: readonly Bystander[] = [],
): Promise<AuditResult> {
  const result: AuditResult = {
    duplicates: [],
    orphans: [],
    lostKeys: [],
    orphanKeys: [],
    taken: [],
    mismatches: [],
    reportedStrays: [],
  };
  await auditComputes(rig, world, result);
  await auditKeys(rig, world, keyTag, bystanders, result);
  return result;
}

/** The stack's resources of `type`, outputs with secrets revealed. */
export function inState(rig: Rig, type: string): ResourceState[] {
  return rig.stack.state.resources.filter((r) => r.type === type).map((r) => ({ ...r, outputs: reveal(r.outputs) }));
}

async function auditComputes(rig: Rig, world: DeclaredWorld, result: AuditResult): Promise<void> {
  const held = inState(rig, COMPUTE);
  compareNames("computes", held, world.computes, result);
  const api = rig.api();
  const heldIds = new Set(held.map((r) => r.id));
  for (const [index, project] of rig.projects.entries()) {
    const listed = await api.endpoints.list(project.id);
    for (const decl of world.computes.filter((c) => c.project === index)) {
      const resource = held.find((r) => nameOf(r.urn) === decl.name);
      const actual = listed.find((c) => c.id === resource?.id);
      if (!resource || !actual) {
        result.mismatches.push(`compute ${decl.name} (${resource?.id ?? "no id in state"}) is not on the service`);
        continue;
      }
      const want = [project.branches[decl.branch], decl.type, decl.min, decl.max];
      const got = [actual.branch_id, actual.type, actual.autoscaling_limit_min_cu, actual.autoscaling_limit_max_cu];
      const o = resource.outputs;
      const said = [o.branchId, o.type, o.autoscalingLimitMinCu, o.autoscalingLimitMaxCu];
      const text = (v: unknown[]) => `[branch, type, min, max] ${JSON.stringify(v)}`;
      if (JSON.stringify(got) !== JSON.stringify(want))
        result.mismatches.push(`compute ${decl.name} ${actual.id} is ${text(got)}, declared ${text(want)}`);
      if (JSON.stringify(said) !== JSON.stringify(got))
        result.mismatches.push(`compute ${decl.name} ${actual.id}: state says ${text(said)}, service ${text(got)}`);
    }
    for (const id of project.fixtureComputes) {
      if (!listed.some((c) => c.id === id)) result.taken.push(`fixture compute ${id} was deleted`);
      if (heldIds.has(id)) result.taken.push(`fixture compute ${id} is held in the stack's state`);
    }
    for (const extra of listed.filter((c) => !heldIds.has(c.id) && !project.fixtureComputes.includes(c.id))) {
      const text = `${extra.id} "${extra.name ?? ""}" (${extra.type} on ${extra.branch_id}, ${extra.autoscaling_limit_min_cu}-${extra.autoscaling_limit_max_cu} CU, project ${project.id})`;
      const reported = computeReported(rig, extra);
      const copyOf = world.computes.find(
        (d) => d.project === index && project.branches[d.branch] === extra.branch_id && d.type === extra.type,
      );
      if (reported) result.reportedStrays.push(`compute ${text}: ${reported}`);
      else if (copyOf) result.duplicates.push(`${text}, a copy of ${copyOf.name}`);
      else result.orphans.push(text);
    }
  }
}

async function auditKeys(
  rig: Rig,
  world: DeclaredWorld,
  keyTag: string,
  bystanders: readonly Bystander[],
  result: AuditResult,
): Promise<void> {
  const held = inState(rig, API_KEY);
  compareNames("keys", held, world.keys, result);
  const listed = await rig.api().apiKeys.list();
  for (const resource of held) {
    const name = nameOf(resource.urn);
    const onService = listed.find((k) => String(k.id) === resource.id);
    if (!onService) result.lostKeys.push(`${name} (key id ${resource.id}) is in state but not listed`);
    else if ((await statusWith(rig, String(resource.outputs.key))) !== 200)
      result.lostKeys.push(`${name} (key id ${resource.id}): its secret does not work`);
    const decl = world.keys.find((k) => k.name === name);
    if (decl && onService && onService.name !== decl.keyName)
      result.mismatches.push(`key ${name} is named ${onService.name}, declared ${decl.keyName}`);
  }
  result.taken.push(...(await takenBystanders(rig, held, listed, bystanders)));
  const known = new Set([...held.map((r) => r.id), ...bystanders.map((b) => String(b.id))]);
  for (const key of listed.filter((k) => k.name.startsWith(`${keyTag}-`) && !known.has(String(k.id)))) {
    const reported = keyReported(rig, key);
    if (reported) result.reportedStrays.push(`key ${key.id} "${key.name}": ${reported}`);
    else result.orphanKeys.push(`key ${key.id} "${key.name}" is listed, not in state, and no warning named it`);
  }
}

/** Bystander keys revoked, broken or held in state: one line each. */
async function takenBystanders(
  rig: Rig,
  held: ResourceState[],
  listed: ServiceKey[],
  bystanders: readonly Bystander[],
): Promise<string[]> {
  const taken: string[] = [];
  for (const bystander of bystanders) {
    const what = `bystander key ${bystander.id} "${bystander.name}"`;
    if (!listed.some((k) => k.id === bystander.id)) taken.push(`${what} was revoked`);
    else if ((await statusWith(rig, bystander.key)) !== 200) taken.push(`${what} no longer works`);
    if (held.some((r) => r.id === String(bystander.id))) taken.push(`${what} is held in the stack's state`);
  }
  return taken;
}

/** The bystanders taken (revoked, broken or held) as the service and the state are now, e.g. after a destroy. */
export async function bystandersTaken(rig: Rig, bystanders: readonly Bystander[]): Promise<string[]> {
  return takenBystanders(rig, inState(rig, API_KEY), await rig.api().apiKeys.list(), bystanders);
}

/** Creates a bystander key named `name` with the console key (faults must be off). */
export async function createBystander(rig: Rig, name: string): Promise<Bystander> {
  const created = await rig.api().apiKeys.create({ key_name: name });
  return { id: created.id, name, key: created.key };
}

function compareNames(what: string, held: ResourceState[], declared: { name: string }[], result: AuditResult): void {
  const heldNames = held.map((r) => nameOf(r.urn)).sort();
  const declaredNames = declared.map((d) => d.name).sort();
  if (JSON.stringify(heldNames) !== JSON.stringify(declaredNames))
    result.mismatches.push(`${what} in state [${heldNames}] but declared [${declaredNames}]`);
}

/**
 * GET `path` of the emulator with `key`, whatever the status. A connection of its own each time: a kept-alive one
 * may be closed by the emulator (restarted, or idle past its timeout) just as it is reused ("socket hang up").
 */
export function getWith(rig: Rig, key: string, path: string): Promise<AxiosResponse> {
  return axios.get(`${rig.emulator.baseUrl}${path}`, {
    headers: { Authorization: `Bearer ${key}` },
    validateStatus: () => true,
    httpAgent: new Agent({ keepAlive: false }),
  });
}

/** The status of GET /api_keys made with `key`: 200 for a working key, 401 for a revoked one. */
export async function statusWith(rig: Rig, key: string): Promise<number> {
  return (await getWith(rig, key, "/api_keys")).status;
}

/** Property names a message may point at. */
const PROPERTIES =
  /\b(projectId|branchId|type|autoscalingLimit(Min|Max)Cu|suspendTimeoutSeconds|keyName|regionId|name|adoptId|restartTriggers)\b/;

/**
 * Whether an error says what failed: a request (METHOD /path), an operation (its id or action), or a property.
 * Returns the reason it does not, or undefined.
 */
export function unexplained(error: Error): string | undefined {
  const message = error.message ?? "";
  if (!message.trim()) return "empty message";
  if (/\b(GET|POST|PATCH|DELETE) \/\S+/.test(message)) return undefined;
  if (/\boperations?\b/i.test(message) && /[0-9a-f]{8}-|start_compute|apply_config|suspend_compute/.test(message))
    return undefined;
  if (PROPERTIES.test(message)) return undefined;
  return `names no request, operation or property: ${message.slice(0, 300)}`;
}

export function nameOf(urn: string): string {
  return urn.split("::").pop() ?? urn;
}
