/**
 * The Role resource: a Postgres role of a branch, with its password kept as a secret (`password` is registered with
 * `additionalSecretOutputs`, so the engine encrypts it in state whatever the program does with it). The provider object
 * and the constructed properties come from shared/dynamic-class.ts.
 */
import * as pulumi from "@pulumi/pulumi";
import { ROLE } from "./declaration";
import { loadingProvider, constructedWith, withSecretOutputs } from "../shared/dynamic-class";

// generated: the Role inputs (npm run generate, from declaration.ts)
/** The inputs of a Role; docs/resources.md#role says what a change of each does. */
export interface RoleArgs {
  /** Project of the role. Changing it replaces the role (a new role, with a new password). */
  projectId: pulumi.Input<string>;
  /**
   * Branch of the role. Changing it replaces the role. A branch made from a parent already has the parent's roles:
   * declaring one of those fails before anything is sent (read its password with getRolePasswordOutput).
   */
  branchId: pulumi.Input<string>;
  /**
   * The role's name: 1 to 63 bytes, not starting with `pg_`, not `neon_superuser`, `cloud_admin`, `zenith_admin`,
   * `public` or `none` (Neon's protected names). Roles cannot be renamed: a new name replaces the role (the new one is
   * created, then the old one deleted), with a new password.
   */
  name: pulumi.Input<string>;
  /**
   * A role that cannot log in (OpenAPI `RoleCreateRequest.no_login`): it has no password. Changing it replaces the role
   * (deleted first: the name is taken).
   */
  noLogin?: pulumi.Input<boolean>;
  /**
   * Any values: when they change, the role's password is reset (Neon's reset_password; nothing else changes) and the
   * new one recorded in `password`. Clients using the old password fail once the reset is in force. A first value (none
   * before) and removing them reset nothing (recorded). Not with `noLogin: true` (no password).
   */
  passwordTriggers?: pulumi.Input<unknown[]>;
  /**
   * Adopt the branch's existing role instead of creating one (a Project's default role: its `defaultRoleId`): the
   * role's id, `<projectId>/<branchId>/<name>`, naming this Role's own project, branch and name. Acts at creation:
   * nothing is created, and the password is read back. Pulumi never deletes a role that the state's `adoptId` names (it
   * goes with its project); remove adoptId (an `up` that sends nothing) to let a destroy delete it.
   */
  adoptId?: pulumi.Input<string>;
}
// end of the generated Role inputs

const roleProvider = loadingProvider(
  () => require("pulumi-neon-dynamic/provider/role/impl") as typeof import("./impl"),
  (impl) => impl.deleteRole,
);

/** A Postgres role of a branch. Destroying it deletes the role (refused while it owns a database). */
export class Role extends pulumi.dynamic.Resource {
  // generated: the Role outputs (npm run generate, from declaration.ts)
  /** Project of the role. */
  declare readonly projectId: pulumi.Output<string>;
  /** Branch of the role. */
  declare readonly branchId: pulumi.Output<string>;
  /** The role's name. */
  declare readonly name: pulumi.Output<string>;
  /** True for a role that cannot log in (it has no password). */
  declare readonly noLogin: pulumi.Output<boolean>;
  /**
   * Any values: when they change, the role's password is reset (Neon's reset_password; nothing else changes) and the
   * new one recorded in `password`. Clients using the old password fail once the reset is in force. A first value (none
   * before) and removing them reset nothing (recorded). Not with `noLogin: true` (no password).
   */
  declare readonly passwordTriggers: pulumi.Output<unknown[] | undefined>;
  /**
   * The role's password, a secret (encrypted in state, never shown). Absent for a role that cannot log in, and when the
   * service would not reveal it (a project that stores no passwords).
   */
  declare readonly password: pulumi.Output<string | undefined>;
  /** `password`, `oauth` or `no_login`, as the service reports it. */
  declare readonly authenticationMethod: pulumi.Output<string | undefined>;
  /** Whether the service protects the role (a system role). */
  declare readonly protected: pulumi.Output<boolean | undefined>;
  /** Creation time (ISO 8601). */
  declare readonly createdAt: pulumi.Output<string>;
  /** Last update time (ISO 8601); a password reset moves it. */
  declare readonly updatedAt: pulumi.Output<string>;
  /** The id of the role adopted at creation, while the program sets adoptId: Pulumi never deletes the role it names. */
  declare readonly adoptId: pulumi.Output<string | undefined>;
  // end of the generated Role outputs

  constructor(name: string, args: RoleArgs, opts?: pulumi.CustomResourceOptions) {
    super(roleProvider, name, constructedWith(ROLE, args), withSecretOutputs(opts, ROLE), "neon", "Role");
  }
}
