/**
 * Project's changes: creating one, reading it with its default objects, updating it in place (with the default
 * compute's resize), and adopting one by id.
 *
 * - A create is sent once and waited for (its `create_timeline` and `start_compute`): the default role's password is
 *   in its answer only (later reads reveal it, which a project that stores no passwords refuses). A create whose
 *   answer was lost is not resent: a project's name is not unique, so nothing tells the project it made from another
 *   (architecture.md, rule 11); the error says to look. A project made whose operations failed is kept in state by its
 *   id, as it is now (recordedAsItIs), so it is never orphaned.
 * - An update is one PATCH of what changed (OpenAPI `ProjectUpdateRequest`), then, when `defaultEndpointSettings`
 *   changed, one PATCH of the default compute with the changed fields: Neon's PATCH of the project changes only the
 *   computes made afterwards (kislerdm/terraform-provider-neon#234).
 * - The outputs are the project's record, its default branch and read-write compute, the default role and database
 *   named at creation and the connection strings built from them (connection/connection-uri.ts: no request), so a
 *   refresh rebuilds the same strings and the preview after an `up` shows nothing (kislerdm#179).
 */
import type { NeonClient, ProjectCreate, ProjectDetail, ProjectUpdate } from "../../client";
import { formatConnectionUri } from "../connection/connection-uri";
import * as adoption from "../shared/adoption";
import { apiBody, outputsFrom, planChange } from "../shared/declaration";
import { errorKind, found } from "../shared/errors";
import { poolerHost } from "../shared/ids";
import { recordedAsItIs } from "../shared/lifecycle";
import { client } from "../shared/runtime";
import { PROJECT } from "./declaration";
import { ADOPTABLE, lostCreate } from "./refusal";
import { DEFAULT_ENDPOINT_SETTINGS } from "./values";

type Props = Record<string, unknown>;

/** The inputs the provider keeps in the outputs as given (the service knows nothing of them). */
export function recordsOf(inputs: Props): Props {
  return {
    deletionProtection: inputs.deletionProtection ?? true,
    adoptId: inputs.adoptId,
    resourceName: inputs.resourceName,
  };
}

/** `settings` as the API spells them (ProjectSettingsData): only the fields the program sets. */
export function settingsBody(settings: unknown): Props | undefined {
  if (typeof settings !== "object" || settings === null) return undefined;
  const { allowedIps, enableLogicalReplication } = settings as Props;
  const body: Props = {};
  if (allowedIps !== undefined) body.allowed_ips = { ips: allowedIps };
  if (enableLogicalReplication !== undefined) body.enable_logical_replication = enableLogicalReplication;
  return body;
}

/** The default objects a project's outputs name, besides its own record. */
export interface Defaults {
  branchId: string;
  compute?: { id: string; host: string };
  /** The default branch, role and database names (the `branch` output). */
  names: { name: string; roleName: string; databaseName: string };
  /** The default database's id (a Database's adoptId): the one made with the project, kept across a rename. */
  databaseId?: string;
  /** The default database's name now (a rename through its Database, or outside Pulumi), else its name at creation. */
  databaseName?: string;
  password?: string;
}

/** Every output of a project: its record, its default objects, the connection strings, and the provider's records. */
export function toOutputs(project: ProjectDetail, defaults: Defaults, records: Props): Props {
  const { names, compute, password } = defaults;
  const databaseName = defaults.databaseName ?? names.databaseName;
  const uri = (host: string) => formatConnectionUri({ host, roleName: names.roleName, password, databaseName });
  const connections =
    compute && typeof password === "string"
      ? { connectionUri: uri(compute.host), connectionUriPooled: uri(poolerHost(compute.id, compute.host)) }
      : {};
  const settings = {
    allowedIps: project.settings?.allowed_ips?.ips ?? [],
    enableLogicalReplication: project.settings?.enable_logical_replication ?? false,
  };
  const outs = outputsFrom(PROJECT, project, {
    settings,
    branch: names,
    defaultBranchId: defaults.branchId,
    defaultComputeId: compute?.id,
    defaultComputeHost: compute?.host,
    defaultRoleId:
      defaults.branchId && names.roleName ? `${project.id}/${defaults.branchId}/${names.roleName}` : undefined,
    defaultDatabaseId: defaults.databaseId,
    roleName: names.roleName,
    rolePassword: password,
    databaseName,
    ...connections,
    ...records,
  });
  return defined(outs);
}

/** Without the properties whose value is undefined: the plugin cannot send them (protobuf's Struct has no undefined). */
export const defined = (props: Props): Props =>
  Object.fromEntries(Object.entries(props).filter(([, v]) => v !== undefined));

/**
 * The project `id` as it is now: its record and default objects (the state's `known` names at creation and default
 * database id kept), and the default role's password read again (a reset through its Role, or outside Pulumi, shows).
 */
export async function readProject(id: string, records: Props, known: Props = {}): Promise<Props> {
  const { project, defaults } = await projectAsItIs(client(), id, known, true);
  return toOutputs(project, defaults, records);
}

/**
 * The project's record and its default objects, read with `api`; the role's password revealed when `reveal` (a lookup
 * gives no secret; the reveal waits for the branch's operations, as a reset's new password may show only then), else
 * the state's: one the service does not reveal (a project that stores no passwords) keeps it.
 */
export async function projectAsItIs(api: NeonClient, id: string, known: Props, reveal: boolean) {
  const project = await api.projects.get(id);
  const branches = await api.branches.list(id);
  const branch = branches.find((b) => b.default) ?? branches[0];
  const computes = branch ? await api.endpoints.listForBranch(id, branch.id) : [];
  const compute = computes.find((c) => c.type === "read_write");
  const database = await defaultDatabase(api, id, branch?.id, known);
  let password = known.rolePassword as string | undefined;
  if (branch && reveal) {
    // A project that stores no passwords (412), or a role gone: the state's password stays.
    const { roleName } = database.names;
    password = await api.roles.revealPasswordSettled(id, branch.id, roleName).catch(() => password);
  }
  const defaults: Defaults = { branchId: branch?.id ?? "", compute, ...database, password };
  return { project, defaults };
}

/**
 * The default names and database: the state's (`known`: the names at creation, and the default database's id, which a
 * rename keeps), with that database's name now; else (a create's first read, an adoption, an import, a lookup) the
 * default branch's name, its first database and that database's owner.
 */
async function defaultDatabase(
  api: NeonClient,
  id: string,
  branchId: string | undefined,
  known: Props,
): Promise<Pick<Defaults, "names" | "databaseId" | "databaseName">> {
  const names = known.branch as Defaults["names"] | undefined;
  const databaseId = typeof known.defaultDatabaseId === "string" ? known.defaultDatabaseId : undefined;
  if (branchId === undefined) return { names: names ?? { name: "", roleName: "", databaseName: "" }, databaseId };
  const databases = await api.databases.list(id, branchId);
  if (names) {
    // By its id (a rename keeps it), else by the name at creation (a state from before the id was recorded).
    const database =
      databases.find((d) => String(d.id) === databaseId) ??
      (databaseId === undefined ? databases.find((d) => d.name === names.databaseName) : undefined);
    return { names, databaseId: databaseId ?? idOf(database), databaseName: database?.name };
  }
  const { branch } = await api.branches.get(id, branchId);
  const [database] = databases;
  const made = { name: branch.name, roleName: database?.owner_name ?? "", databaseName: database?.name ?? "" };
  return { names: made, databaseId: idOf(database), databaseName: database?.name };
}

const idOf = (database: { id: number } | undefined): string | undefined =>
  database === undefined ? undefined : String(database.id);

export async function createProject(inputs: Props): Promise<{ id: string; outs: Props }> {
  // Every input with an API field (`settings` has its own shape: settingsBody).
  const body = apiBody(PROJECT, inputs, Object.keys(PROJECT.inputs)) as ProjectCreate;
  const settings = settingsBody(inputs.settings);
  if (settings) body.settings = settings;
  try {
    const made = await client().projects.create(body);
    const role = made.roles.find((r) => typeof r.password === "string");
    const database = made.databases.find((d) => d.owner_name === role?.name) ?? made.databases[0];
    const compute = made.endpoints.find((e) => e.type === "read_write");
    const names = { name: made.branch.name, roleName: role?.name ?? "", databaseName: database?.name ?? "" };
    const defaults = { branchId: made.branch.id, compute, names, databaseId: idOf(database), password: role?.password };
    return { id: made.project.id, outs: toOutputs(made.project, defaults, recordsOf(inputs)) };
  } catch (error) {
    if (errorKind(error) === "ambiguous") throw lostCreate(inputs, error);
    const id = (error as { resourceId?: string }).resourceId;
    if (id === undefined) throw error;
    throw await recordedAsItIs(id, inputs, error, { read: () => readProject(id, recordsOf(inputs)) });
  }
}

/** The PATCH body of the changed `properties` (settings and defaults with the fields the program sets). */
function patchBody(news: Props, properties: string[]): ProjectUpdate {
  const body = apiBody(PROJECT, news, properties) as ProjectUpdate; // settings has no API field: its own shape
  if (properties.includes("settings")) body.settings = settingsBody(news.settings);
  return body;
}

/** The default compute's fields to PATCH for a change of `defaultEndpointSettings` (only those the program sets). */
export function computeBody(news: Props): Props {
  const settings = (news.defaultEndpointSettings ?? {}) as Props;
  const body: Props = {};
  for (const [name, field] of Object.entries(DEFAULT_ENDPOINT_SETTINGS.fields))
    if (settings[name] !== undefined) body[field.api] = settings[name];
  return body;
}

/** Applies `news` to the project `id` whose outputs are `olds`; returns the new outputs. */
export async function updateProject(id: string, olds: Props, news: Props): Promise<Props> {
  const plan = planChange(PROJECT, olds, news);
  const records = recordsOf(news);
  const patch = plan.by.update;
  if (patch.length === 0) return defined({ ...olds, ...records, adoptId: news.adoptId });
  try {
    await client().projects.update(id, patchBody(news, patch));
    const computeId = olds.defaultComputeId;
    if (patch.includes("defaultEndpointSettings") && typeof computeId === "string") {
      const body = computeBody(news);
      if (Object.keys(body).length > 0) await client().endpoints.update(id, computeId, body);
    }
  } catch (error) {
    if (errorKind(error) === "not_found") throw error;
    const read = () => readProject(id, records, olds);
    const message =
      `Project ${id}: the update did not finish (${(error as Error).message}); what was applied is recorded: run ` +
      `pulumi up again to send the rest (docs/troubleshooting.md).`;
    throw await recordedAsItIs(id, news, error, { read, message });
  }
  return readProject(id, records, olds);
}

/** Takes the project `inputs.adoptId` under management (again, for a replacement: shared/adoption.ts). */
export async function adoptProject(inputs: Props): Promise<{ id: string; outs: Props }> {
  const id = String(inputs.adoptId);
  const records = recordsOf(inputs);
  await adoption.readForAdoption(ADOPTABLE, id, id, () => client().projects.get(id));
  const current = await readProject(id, records);
  const plan = planChange(PROJECT, current, inputs);
  const fixed = [...plan.by.replace, ...plan.by.refused];
  if (fixed.length > 0) {
    const why = fixed.map((p) => `${p} is ${JSON.stringify(current[p] ?? null)} on the service`).join("; ");
    throw adoption.cannotAdopt(
      ADOPTABLE,
      id,
      why,
      "these are set when a project is created; remove them or adopt another project",
    );
  }
  const outs = plan.by.update.length > 0 ? await updateProject(id, current, inputs) : current;
  return { id, outs };
}

/** Whether the project `id` is gone: the account's list (searched by id) answers without it. */
export async function projectListedNot(id: string): Promise<boolean> {
  const projects = await found(() => client().projects.listAll({ search: id }));
  return projects !== undefined && !projects.some((p) => p.id === id);
}
