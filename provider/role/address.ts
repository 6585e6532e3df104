/**
 * A role's address and resource id, and what its state records when nothing is sent.
 *
 * The id: roles have no id in the API, which addresses one by project, branch and name
 * (`/projects/{p}/branches/{b}/roles/{name}`). The resource's id is that address, `<projectId>/<branchId>/<name>`:
 * unique, readable in the CLI's output, free of secrets, and stable for the resource's life, since a change of any of
 * the three replaces the role (a dynamic provider cannot change an id in an update). Project and branch ids hold no
 * `/` (api.md, Ids), so the name is everything after the second `/`, whatever it holds.
 */
import { CARRIED } from "./declaration";
import { recordedOutputs as recordedWith } from "../shared/declaration";

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
