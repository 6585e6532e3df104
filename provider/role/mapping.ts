/**
 * Translation between the API's role record (snake_case) and the Role's outputs (camelCase), and the resource id.
 *
 * The id: roles have no id in the API, which addresses one by project, branch and name
 * (`/projects/{p}/branches/{b}/roles/{name}`). The resource's id is that address, `<projectId>/<branchId>/<name>`:
 * unique, readable in the CLI's output, free of secrets, and stable for the resource's life, since a change of any of
 * the three replaces the role (a dynamic provider cannot change an id in an update). Project and branch ids hold no
 * `/` (api.md, Ids), so the name is everything after the second `/`, whatever it holds.
 */
import type { Role } from "../../sdk";

type Props = Record<string, unknown>;

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

/** Inputs kept in the outputs as given (the service knows nothing of them). */
const CARRIED = ["passwordTriggers"];

/**
 * Every output of a Role: the record in camelCase, `noLogin` (the service's `authentication_method`, else the input),
 * the carried inputs, and `password` when known (a secret: registered with additionalSecretOutputs).
 */
export function toOutputs(role: Role, inputs: Props, password: string | undefined): Props {
  const outputs: Props = {
    projectId: String(inputs.projectId),
    branchId: role.branch_id,
    name: role.name,
    noLogin:
      role.authentication_method !== undefined ? role.authentication_method === "no_login" : inputs.noLogin === true,
    createdAt: role.created_at,
    updatedAt: role.updated_at,
  };
  if (role.authentication_method !== undefined) outputs.authenticationMethod = role.authentication_method;
  if (role.protected !== undefined) outputs.protected = role.protected;
  for (const name of CARRIED) if (inputs[name] !== undefined) outputs[name] = inputs[name];
  if (password !== undefined) outputs.password = password;
  return outputs;
}

/** The body of a create: the name, and `no_login` only when asked for. */
export function toCreateBody(inputs: Props): { name: string; no_login?: boolean } {
  return inputs.noLogin === true ? { name: String(inputs.name), no_login: true } : { name: String(inputs.name) };
}

/**
 * What to do about a password the provider could not read: a first passwordTriggers value resets a role whose state
 * has no password (diff.ts), a new value any role.
 */
export const RESET_ADVICE =
  "set passwordTriggers (or give it a new value) to reset it, and the new one is recorded (docs/resources.md, Role).";

/** True when the role cannot log in: it has no password to reveal or reset. */
export function cannotLogIn(props: Props): boolean {
  return props.noLogin === true || props.authenticationMethod === "no_login";
}

/** The outputs of an update that sends nothing (only carried inputs changed): the role as last read. */
export function recordedOutputs(olds: Props, news: Props): Props {
  const outputs: Props = { ...olds };
  for (const name of CARRIED) {
    if (news[name] === undefined) delete outputs[name];
    else outputs[name] = news[name];
  }
  return outputs;
}
