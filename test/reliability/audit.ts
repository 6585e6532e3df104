/**
 * What "the world converged" means, checked against the service itself (faults off):
 *
 * - computes: every compute in state exists, with the declared branch, type and sizes, and state says the same;
 *   no compute of the projects is outside state apart from the fixture's own (an orphan), and none of those is
 *   a second copy of a declared compute (a duplicate);
 * - keys: every key in state is listed and answers 200 with its secret (else it is lost); no key of the run's
 *   names is listed outside state (a key nobody saw);
 * - errors: every error a user saw names what failed;
 * - secrets: no key used or created appears in plain text in state, the plugins' output, errors or `__provider`.
 */
import axios from "axios";
import { readFileSync } from "fs";
import { API_KEY, COMPUTE, Rig } from "./rig";
import { DeclaredWorld } from "./worlds";

export interface AuditResult {
  duplicates: string[];
  orphans: string[];
  lostKeys: string[];
  orphanKeys: string[];
  /** State and service (or declaration) disagree. */
  mismatches: string[];
}

/** Compares the service's world with the engine's state and with the declaration. */
export async function auditWorld(rig: Rig, world: DeclaredWorld, keyTag: string): Promise<AuditResult> {
  const result: AuditResult = { duplicates: [], orphans: [], lostKeys: [], orphanKeys: [], mismatches: [] };
  await auditComputes(rig, world, result);
  await auditKeys(rig, world, keyTag, result);
  return result;
}

async function auditComputes(rig: Rig, world: DeclaredWorld, result: AuditResult): Promise<void> {
  const inState = [...rig.engine.state.values()].filter((r) => r.type === COMPUTE);
  const stateNames = inState.map((r) => nameOf(r.urn)).sort();
  const declaredNames = world.computes.map((c) => c.name).sort();
  if (JSON.stringify(stateNames) !== JSON.stringify(declaredNames)) {
    result.mismatches.push(`computes in state [${stateNames}] but declared [${declaredNames}]`);
  }
  const api = rig.api();
  const stateIds = new Set(inState.map((r) => r.id));
  for (const [index, project] of rig.projects.entries()) {
    const listed = await api.endpoints.list(project.id);
    for (const decl of world.computes.filter((c) => c.project === index)) {
      const resource = inState.find((r) => nameOf(r.urn) === decl.name);
      const actual = listed.find((c) => c.id === resource?.id);
      const outputs = rig.engine.outputsOf(COMPUTE, decl.name);
      if (!resource || !actual) {
        result.mismatches.push(`compute ${decl.name} (${resource?.id ?? "no id in state"}) is not on the service`);
        continue;
      }
      const want = {
        branch_id: project.branches[decl.branch],
        type: decl.type,
        autoscaling_limit_min_cu: decl.min,
        autoscaling_limit_max_cu: decl.max,
      };
      const got = {
        branch_id: actual.branch_id,
        type: actual.type,
        autoscaling_limit_min_cu: actual.autoscaling_limit_min_cu,
        autoscaling_limit_max_cu: actual.autoscaling_limit_max_cu,
      };
      const said = {
        branch_id: outputs?.branchId,
        type: outputs?.type,
        autoscaling_limit_min_cu: outputs?.autoscalingLimitMinCu,
        autoscaling_limit_max_cu: outputs?.autoscalingLimitMaxCu,
      };
      if (JSON.stringify(got) !== JSON.stringify(want))
        result.mismatches.push(
          `compute ${decl.name} ${actual.id} is ${JSON.stringify(got)}, declared ${JSON.stringify(want)}`,
        );
      if (JSON.stringify(said) !== JSON.stringify(got))
        result.mismatches.push(
          `compute ${decl.name} ${actual.id}: state says ${JSON.stringify(said)}, service ${JSON.stringify(got)}`,
        );
    }
    for (const extra of listed.filter((c) => !stateIds.has(c.id) && !project.fixtureComputes.includes(c.id))) {
      const copyOf = world.computes.find(
        (d) => d.project === index && project.branches[d.branch] === extra.branch_id && d.type === extra.type,
      );
      const text = `${extra.id} (${extra.type} on ${extra.branch_id}, ${extra.autoscaling_limit_min_cu}-${extra.autoscaling_limit_max_cu} CU, project ${project.id})`;
      if (copyOf) result.duplicates.push(`${text}, a copy of ${copyOf.name}`);
      else result.orphans.push(text);
    }
  }
}

async function auditKeys(rig: Rig, world: DeclaredWorld, keyTag: string, result: AuditResult): Promise<void> {
  const inState = [...rig.engine.state.values()].filter((r) => r.type === API_KEY);
  const stateNames = inState.map((r) => nameOf(r.urn)).sort();
  const declaredNames = world.keys.map((k) => k.name).sort();
  if (JSON.stringify(stateNames) !== JSON.stringify(declaredNames)) {
    result.mismatches.push(`keys in state [${stateNames}] but declared [${declaredNames}]`);
  }
  const listed = await rig.api().apiKeys.list();
  for (const resource of inState) {
    const name = nameOf(resource.urn);
    const outputs = rig.engine.outputsOf(API_KEY, name) ?? {};
    const onService = listed.find((k) => String(k.id) === resource.id);
    if (!onService) result.lostKeys.push(`${name} (key id ${resource.id}) is in state but not listed`);
    else if ((await statusWith(rig, String(outputs.key))) !== 200)
      result.lostKeys.push(`${name} (key id ${resource.id}): its secret does not work`);
    const decl = world.keys.find((k) => k.name === name);
    if (decl && onService && onService.name !== decl.keyName)
      result.mismatches.push(`key ${name} is named ${onService.name}, declared ${decl.keyName}`);
  }
  const stateIds = new Set(inState.map((r) => r.id));
  for (const key of listed.filter((k) => k.name.startsWith(`${keyTag}-`) && !stateIds.has(String(k.id)))) {
    result.orphanKeys.push(`key ${key.id} "${key.name}" is listed but not in state (a key nobody holds)`);
  }
}

/** The status of GET /api_keys made with `key`. */
export async function statusWith(rig: Rig, key: string): Promise<number> {
  const response = await axios.get(`${rig.emulator.baseUrl}/api_keys`, {
    headers: { Authorization: `Bearer ${key}` },
    validateStatus: () => true,
  });
  return response.status;
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

/** Everything a user or a backend keeps that must never hold a key in plain text. */
export function haystacks(rig: Rig, errors: Error[]): { where: string; text: string }[] {
  const out = [
    { where: "state", text: rig.engine.serializedState() },
    ...rig.plugins.map((p, i) => ({ where: `plugin #${i} output`, text: p.text() })),
    ...errors.map((e, i) => ({ where: `error #${i}`, text: `${e.message}\n${e.stack ?? ""}\n${JSON.stringify(e)}` })),
  ];
  for (const resource of rig.engine.state.values()) {
    out.push({ where: `__provider of ${nameOf(resource.urn)}`, text: String(resource.inputs.__provider ?? "") });
  }
  try {
    out.push({ where: "emulator state file", text: readFileSync(rig.stateFile, "utf8") });
  } catch {
    // no state file written yet
  }
  return out;
}

/** Plain-text hits of any secret in the haystacks: "where: key …last4". */
export function leaks(rig: Rig, errors: Error[], secrets: Iterable<string>): string[] {
  const hits: string[] = [];
  const texts = haystacks(rig, errors);
  for (const secret of new Set(secrets)) {
    if (!secret || secret.length < 16) continue;
    for (const { where, text } of texts) if (text.includes(secret)) hits.push(`${where}: key …${secret.slice(-4)}`);
  }
  return hits;
}

/** Secrets of every key in state (decrypted, as the engine would hand them out). */
export function secretsInState(rig: Rig): string[] {
  return [...rig.engine.state.values()]
    .filter((r) => r.type === API_KEY)
    .map((r) => String(rig.engine.outputsOf(API_KEY, nameOf(r.urn))?.key ?? ""))
    .filter(Boolean);
}

export function nameOf(urn: string): string {
  return urn.split("::").pop() ?? urn;
}
