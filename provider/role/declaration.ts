/**
 * Role, declared: a Postgres role of a branch, with its password a secret output. Each property is one row (what it
 * is, the API field, its rules and their source, what a change does); Check, the diff's plan, the create body, the
 * outputs, schema.json and the table in docs/resources.md are derived from it (shared/declaration.ts).
 *
 * A role has no update in the API but its password reset: its name, branch and project address it, so a change of any
 * replaces it; `passwordTriggers` reset the password.
 *
 * Protected names: Neon docs, Manage roles, "Protected role names": "The following names are protected and cannot be
 * given to a role: Any name starting with `pg_`, `neon_superuser`, `cloud_admin`, `zenith_admin`, `public`, `none`"
 * (the emulator refuses the same: emulator/pg-input.ts). Names are compared exactly, as Postgres compares quoted
 * identifiers (`PG_x` is allowed; the emulator does the same).
 *
 * A role's address and resource id, and what its state records when nothing is sent.
 *
 * The id: roles have no id in the API, which addresses one by project, branch and name
 * (`/projects/{p}/branches/{b}/roles/{name}`). The resource's id is that address, `<projectId>/<branchId>/<name>`:
 * unique, readable in the CLI's output, free of secrets, and stable for the resource's life, since a change of any of
 * the three replaces the role (a dynamic provider cannot change an id in an update). Project and branch ids hold no
 * `/` (api.md, Ids), so the name is everything after the second `/`, whatever it holds.
 */
import type { Role } from "../../client";
import { postgresName } from "../shared/branch-objects";
import {
  Declaration,
  outputsFrom,
  planChange,
  SchemaType,
  projectIdRow,
  branchIdRow,
  recordedOutputs as recordedWith,
} from "../shared/declaration";
import { isBoolean, isList, isString, Validator } from "../shared/validators";
import { adoptIdNamesTheRole, triggersWithoutLogin } from "./refusal";

type Props = Record<string, unknown>;

const STRING: SchemaType = { type: "string" };
const ANY_LIST: SchemaType = { type: "array", items: { $ref: "pulumi.json#/Any" } };

/** Role names Neon refuses, besides those starting with `pg_`. */
export const PROTECTED_ROLE_NAMES = ["neon_superuser", "cloud_admin", "zenith_admin", "public", "none"] as const;
export const PROTECTED_ROLE_PREFIX = "pg_";

const PROTECTED_TEXT = `any name starting with ${PROTECTED_ROLE_PREFIX}, ${PROTECTED_ROLE_NAMES.join(", ")}`;

/** Not one of Neon's protected role names (the reason names the rule and the list, not the value). */
const notProtected: Validator = (value) => {
  const name = String(value);
  if (name.startsWith(PROTECTED_ROLE_PREFIX))
    return `must not start with ${PROTECTED_ROLE_PREFIX}: Neon reserves those role names (protected: ${PROTECTED_TEXT})`;
  if ((PROTECTED_ROLE_NAMES as readonly string[]).includes(name))
    return `is one of Neon's protected role names, which cannot be given to a role (protected: ${PROTECTED_TEXT})`;
  return undefined;
};

export const ROLE = {
  name: "Role",
  docs: "docs/resources.md#role",
  description:
    "A Postgres role of a branch, with its password a secret output. A change of projectId, branchId or name replaces it (the new role first, then the old one deleted; roles cannot be renamed), with a new password; a change of noLogin replaces it, the old one deleted first. A new passwordTriggers value resets the password (one request; the preview warns); a first value is recorded. A role the branch already has (inherited from its parent) is refused before anything is sent. Destroying it deletes the role (refused while it owns a database).",
  inputs: {
    projectId: projectIdRow("Project of the role. Changing it replaces the role (a new role, with a new password)."),
    branchId: branchIdRow(
      "Branch of the role. Changing it replaces the role. A branch made from a parent already has the parent's roles: declaring one of those fails before anything is sent (read its password with getRolePasswordOutput).",
    ),
    name: {
      schema: STRING,
      required: true,
      api: "name",
      rules: [postgresName("role"), notProtected],
      source: "PostgreSQL docs, Identifiers (NAMEDATALEN); Neon docs, Manage roles, Protected role names",
      change: "replace",
      description:
        "The role's name: 1 to 63 bytes, not starting with `pg_`, not `neon_superuser`, `cloud_admin`, `zenith_admin`, `public` or `none` (Neon's protected names). Roles cannot be renamed: a new name replaces the role (the new one is created, then the old one deleted), with a new password.",
    },
    noLogin: {
      schema: { type: "boolean" },
      api: "no_login",
      rules: [isBoolean],
      source: "OpenAPI RoleCreateRequest.no_login",
      change: "replace",
      default: false,
      description:
        "A role that cannot log in (OpenAPI `RoleCreateRequest.no_login`): it has no password. Changing it replaces the role (deleted first: the name is taken).",
    },
    passwordTriggers: {
      schema: ANY_LIST,
      rules: [isList],
      change: "action",
      action: "a new value resets the password",
      connections: "drop",
      because: "a password reset drops the branch's connections (OpenAPI resetProjectBranchRolePassword)",
      removalIsChange: true,
      description:
        "Any values: when they change, the role's password is reset (Neon's reset_password; nothing else changes) and the new one recorded in `password`. Clients using the old password fail once the reset is in force. A first value (none before) and removing them reset nothing (recorded). Not with `noLogin: true` (no password).",
    },
    adoptId: {
      schema: STRING,
      rules: [isString],
      source: "api.md, Ids (a role is addressed by project, branch and name)",
      change: "record",
      removalIsChange: true,
      description:
        "Adopt the branch's existing role instead of creating one (a Project's default role: its `defaultRoleId`): the role's id, `<projectId>/<branchId>/<name>`, naming this Role's own project, branch and name. Acts at creation: nothing is created, and the password is read back. Pulumi never deletes a role that the state's `adoptId` names (it goes with its project); remove adoptId (an `up` that sends nothing) to let a destroy delete it.",
    },
  },
  outputs: {
    projectId: { schema: STRING, description: "Project of the role." },
    branchId: { schema: STRING, api: "branch_id", description: "Branch of the role." },
    name: { schema: STRING, api: "name", description: "The role's name." },
    noLogin: { schema: { type: "boolean" }, description: "True for a role that cannot log in (it has no password)." },
    passwordTriggers: {
      schema: ANY_LIST,
      optional: true,
      description:
        "Any values: when they change, the role's password is reset (Neon's reset_password; nothing else changes) and the new one recorded in `password`. Clients using the old password fail once the reset is in force. A first value (none before) and removing them reset nothing (recorded). Not with `noLogin: true` (no password).",
    },
    password: {
      schema: STRING,
      optional: true,
      secret: true,
      description:
        "The role's password, a secret (encrypted in state, never shown). Absent for a role that cannot log in, and when the service would not reveal it (a project that stores no passwords).",
    },
    authenticationMethod: {
      schema: STRING,
      api: "authentication_method",
      optional: true,
      description: "`password`, `oauth` or `no_login`, as the service reports it.",
    },
    protected: {
      schema: { type: "boolean" },
      api: "protected",
      optional: true,
      description: "Whether the service protects the role (a system role).",
    },
    createdAt: { schema: STRING, api: "created_at", description: "Creation time (ISO 8601)." },
    updatedAt: {
      schema: STRING,
      api: "updated_at",
      description: "Last update time (ISO 8601); a password reset moves it.",
    },
    adoptId: {
      schema: STRING,
      optional: true,
      description:
        "The id of the role adopted at creation, while the program sets adoptId: Pulumi never deletes the role it names.",
    },
  },
  crossChecks: [triggersWithoutLogin, adoptIdNamesTheRole],
} satisfies Declaration;

export interface RolePlan {
  changes: boolean;
  /** The inputs whose change the plan found. */
  changed: string[];
  replaces: string[];
  /** The replacement keeps the role's address (only noLogin changed): the old role must go first, its name is taken. */
  deleteBeforeReplace: boolean;
  /**
   * The password is reset: passwordTriggers changed from one value to another. A first value (none before) is
   * recorded, as a removal is, like a Branch's resetTriggers: a reset breaks every client of the old password. But a
   * first value resets a role whose state has no password (one that could not be read back): the advice then given.
   */
  reset: boolean;
}

/** Decides what changing `olds` (old outputs) into `news` (new inputs) does to the role. */
export function planRoleChange(olds: Props, news: Props): RolePlan {
  const plan = planChange(ROLE, olds, news);
  const replaces = plan.by.replace;
  const sameAddress = ["projectId", "branchId", "name"].every((p) => !replaces.includes(p));
  return {
    changes: plan.changed.length > 0,
    changed: plan.changed,
    replaces,
    deleteBeforeReplace: replaces.length > 0 && sameAddress,
    reset:
      replaces.length === 0 &&
      plan.by.action.includes("passwordTriggers") &&
      news.passwordTriggers !== undefined &&
      (olds.passwordTriggers !== undefined || lacksPassword(olds)),
  };
}

/** True when the role cannot log in: it has no password to reveal or reset. */
export function cannotLogIn(props: Props): boolean {
  return props.noLogin === true || props.authenticationMethod === "no_login";
}

/** A role that can log in, whose state holds no password. */
const lacksPassword = (olds: Props): boolean => olds.password === undefined && !cannotLogIn(olds);

/** Inputs kept in the outputs as given (the service knows nothing of them). */
export const CARRIED = ["passwordTriggers", "adoptId"];

/**
 * Every output of a Role: the record's, `noLogin` (the service's `authentication_method`, else the input), the project
 * (which the record does not name), the carried inputs, and `password` when known (a secret: additionalSecretOutputs).
 */
export function toOutputs(role: Role, inputs: Props, password: string | undefined): Props {
  const noLogin =
    role.authentication_method !== undefined ? role.authentication_method === "no_login" : inputs.noLogin === true;
  const carried = Object.fromEntries(CARRIED.filter((p) => inputs[p] !== undefined).map((p) => [p, inputs[p]]));
  const outputs = outputsFrom(ROLE, role, { projectId: String(inputs.projectId), noLogin, ...carried });
  return password === undefined ? outputs : { ...outputs, password };
}

/** The body of a create: the name, and `no_login` only when asked for. */
export function toCreateBody(inputs: Props): { name: string; no_login?: boolean } {
  return inputs.noLogin === true ? { name: String(inputs.name), no_login: true } : { name: String(inputs.name) };
}

/** What addresses a role. */
export interface RoleAddress {
  projectId: string;
  branchId: string;
  name: string;
}

export function roleId(address: RoleAddress): string {
  return `${address.projectId}/${address.branchId}/${address.name}`;
}

/** The address of a role from its state (or inputs); from the id when the state lacks it. */
export function roleAddressOf(props: Props, id?: string): RoleAddress {
  if (typeof props.projectId === "string" && typeof props.branchId === "string" && typeof props.name === "string")
    return { projectId: props.projectId, branchId: props.branchId, name: props.name };
  const [projectId, branchId, ...rest] = String(id).split("/");
  return { projectId, branchId, name: rest.join("/") };
}

/**
 * What to do about a password the provider could not read: a first passwordTriggers value resets a role whose state
 * has no password (declaration.ts, planRoleChange), a new value any role.
 */
export const RESET_ADVICE =
  "set passwordTriggers (or give it a new value) to reset it, and the new one is recorded (docs/resources.md, Role).";

/** The outputs of an update that sends nothing (only carried inputs changed): the role as last read. */
export function recordedOutputs(olds: Props, news: Props): Props {
  const { declared: _none, ...outputs } = recordedWith(olds, news, CARRIED, []);
  return outputs;
}
