/**
 * Project, declared: a Neon project with its default branch, compute, role and database (OpenAPI `createProject`,
 * `CreatedProject`). Each property is one row (its type, the API field, its rules and their source, what a change
 * does); Check, the diff's plan, the request bodies, schema.json and the table in docs/resources.md are derived from it
 * (shared/declaration.ts); its named types and rules are values.ts's. What is Project's own is in the hooks beside it:
 * changes.ts (create, update, adoption, the default compute's resize), refusal.ts (Check's rules over several inputs,
 * the preview's warnings, the refusals).
 *
 * What a change does, as the service allows it (OpenAPI `ProjectUpdateRequest`: name, history_retention_seconds,
 * default_endpoint_settings, settings):
 * - `name`, `historyRetentionSeconds`, `settings`, `defaultEndpointSettings`: one PATCH of the project. Neon's PATCH
 *   changes the defaults of the computes made afterwards only (kislerdm/terraform-provider-neon#234), so a change of
 *   `defaultEndpointSettings` also PATCHes the default compute (its sizes restart it: the preview warns).
 * - `regionId`, `pgVersion`, `orgId`: no call changes them (Neon docs, Regions: "it cannot be changed for that
 *   project"), so a change replaces the project: a new, empty project, and the old one deleted with every branch and
 *   database. Refused while `deletionProtection` is true (Check), as Pulumi's `protect` refuses it.
 * - `branch` (the default branch's, role's and database's names): acts only at creation (`ProjectUpdateRequest` has no
 *   `branch`). A later change is refused at preview, saying how to rename each (refusal.ts), never a silent
 *   replacement (a new project would lose the data); removing it changes nothing.
 * - `deletionProtection`, `adoptId`: the provider's own records; nothing is sent.
 *
 * `settings` is a subset of `ProjectSettingsData`: the IP allowlist (`allowed_ips.ips`) and logical replication, the
 * two the peers' users set (peers.md: kislerdm's `allowed_ips`, `enable_logical_replication`, #218). Left out: the
 * quota, the maintenance window (kislerdm#199: it broke updates on the Free plan), the audit log level and HIPAA
 * (plan features) and `block_public_connections` / `block_vpc_connections` ("under active development and its
 * semantics may change", OpenAPI).
 */
import { BOOLEAN, Declaration, INTEGER, OutputRow, STRING } from "../shared/declaration";
import { isProjectId } from "../shared/ids";
import { isBoolean, isString, lengthBetween } from "../shared/validators";
import { checkProjectInputs, sameFields } from "./refusal";
import {
  DEFAULT_BRANCH,
  DEFAULT_ENDPOINT_SETTINGS,
  integerBetween,
  isOrgId,
  isRegion,
  PROJECT_SETTINGS,
} from "./values";

const out = (schema: OutputRow["schema"], description: string, more: Partial<OutputRow> = {}): OutputRow => ({
  schema,
  description,
  ...more,
});

export const PROJECT = {
  name: "Project",
  docs: "docs/resources.md#project",
  description:
    "A Neon project, with the default branch, compute, role and database it makes. name, historyRetentionSeconds, settings and defaultEndpointSettings are one PATCH (a new size also resizes the default compute, which restarts it: the preview warns); a change of regionId, pgVersion or orgId replaces the project (a new, empty one: every branch and database of the old one is deleted), refused while deletionProtection is true; branch acts only at creation. deletionProtection (default true) gives the resource Pulumi's protect: a destroy is refused until it is false.",
  inputs: {
    name: {
      schema: STRING,
      api: "name",
      rules: [isString, lengthBetween(1, 256)],
      source: "OpenAPI ProjectCreateRequest.name, ProjectUpdateRequest.name (minLength 1, maxLength 256)",
      change: "update",
      description:
        "The project's name, 1..256 characters. Default: the resource's name. Changing it renames the project (one PATCH).",
    },
    regionId: {
      schema: STRING,
      api: "region_id",
      rules: [isString, isRegion],
      source: "OpenAPI ProjectCreateRequest.region_id; Neon docs, Regions (cannot be changed for a project)",
      change: "replace",
      description:
        "The region (`aws-us-east-2`, `aws-eu-central-1`, `azure-eastus2`, …; Neon docs, Regions). Default: the service's. Changing it replaces the project: every branch and database is deleted.",
    },
    pgVersion: {
      schema: INTEGER,
      api: "pg_version",
      rules: [integerBetween(14, 18)],
      source: "OpenAPI PgVersion (14..18, default 17)",
      change: "replace",
      description:
        "The Postgres major version, 14 to 18 (default 17). Changing it replaces the project: every branch and database is deleted.",
    },
    orgId: {
      schema: STRING,
      api: "org_id",
      rules: [isString, isOrgId],
      source: "OpenAPI ProjectCreateRequest.org_id (pattern ^[a-z0-9-]{1,60}$)",
      change: "replace",
      description:
        "The organization that owns the project (`org-…`). Left out: the key's account (or an organization key's organization). Changing it replaces the project.",
    },
    historyRetentionSeconds: {
      schema: INTEGER,
      api: "history_retention_seconds",
      rules: [integerBetween(0, 2592000)],
      source: "OpenAPI ProjectCreateRequest / ProjectUpdateRequest.history_retention_seconds (0..2592000)",
      change: "update",
      description:
        "Seconds of history kept for point-in-time restore and branching from the past, 0..2592000 (30 days). Changing it is one PATCH.",
    },
    defaultEndpointSettings: {
      schema: { type: "object" },
      object: DEFAULT_ENDPOINT_SETTINGS,
      api: "default_endpoint_settings",
      source: "OpenAPI DefaultEndpointSettings; api.md, Sizes; kislerdm/terraform-provider-neon#234",
      change: "update",
      connections: "drop",
      because: "a size change restarts the running default compute",
      same: sameFields,
      description:
        "The default compute's sizes and autosuspend, and those of computes made later: `{ autoscalingLimitMinCu, autoscalingLimitMaxCu, suspendTimeoutSeconds }` (both sizes or neither). A change is one PATCH of the project and one of the default compute (Neon's PATCH alone leaves existing computes as they are); a new size restarts it if it is running.",
    },
    settings: {
      schema: { type: "object" },
      object: PROJECT_SETTINGS,
      source: "OpenAPI ProjectSettingsData (allowed_ips, enable_logical_replication)",
      change: "update",
      same: sameFields,
      description:
        "`{ allowedIps, enableLogicalReplication }`: one PATCH. Turning logical replication on suspends the running computes (the preview warns) and cannot be undone; a setting left out keeps its value.",
    },
    branch: {
      schema: { type: "object" },
      object: DEFAULT_BRANCH,
      api: "branch",
      source: "OpenAPI ProjectCreateRequest.branch (ProjectUpdateRequest has none)",
      change: "refused",
      same: sameFields,
      description:
        "`{ name, roleName, databaseName }`: the names of the default branch, role and database, at creation only. A later change is refused at preview, saying how to rename each; removing it changes nothing.",
    },
    deletionProtection: {
      schema: BOOLEAN,
      rules: [isBoolean],
      source: "this provider (Neon has no project-level protection)",
      change: "record",
      default: true,
      description:
        "Default true: the resource gets Pulumi's protect (unless the program sets protect or retainOnDelete), so a destroy or a replacement is refused before anything is deleted, and the provider refuses to delete the project. Set false (and run pulumi up) to let it go.",
    },
    adoptId: {
      schema: STRING,
      rules: [isString, isProjectId],
      source: "api.md, Ids",
      change: "record",
      removalIsChange: true,
      description:
        "Adopt an existing project by id instead of creating one. Acts at creation. Keep it to leave the project on the service when the resource goes, or remove it after the first `up` (an `up` that sends nothing) to let a destroy delete it. Pulumi never deletes a project that the state's `adoptId` names.",
    },
    resourceName: {
      schema: STRING,
      rules: [isString],
      change: "record",
      internal: true,
      description: "The Pulumi name of this resource, used in messages and as the default project name.",
    },
  },
  outputs: {
    projectId: out(STRING, "The project id, for the projectId of a Branch, Compute, Role or Database.", { api: "id" }),
    name: out(STRING, "The project's name.", { api: "name" }),
    regionId: out(STRING, "The project's region.", { api: "region_id" }),
    pgVersion: out(INTEGER, "The Postgres major version.", { api: "pg_version" }),
    orgId: out(STRING, "The organization that owns the project, if any.", { api: "org_id", optional: true }),
    historyRetentionSeconds: out(INTEGER, "Seconds of history kept.", { api: "history_retention_seconds" }),
    defaultEndpointSettings: out({ type: "object" }, "The settings of the project's computes.", {
      object: DEFAULT_ENDPOINT_SETTINGS,
      api: "default_endpoint_settings",
    }),
    settings: out({ type: "object" }, "The declared subset of the project's settings.", {
      object: PROJECT_SETTINGS,
    }),
    branch: out({ type: "object" }, "The names of the default branch, role and database at creation.", {
      object: DEFAULT_BRANCH,
    }),
    deletionProtection: out(BOOLEAN, "Whether the provider refuses to delete the project (recorded, not Neon's)."),
    adoptId: out(STRING, "The id of the project adopted at creation, while the program sets adoptId.", {
      optional: true,
    }),
    defaultBranchId: out(STRING, "The default branch's id (`br-…`), for a Compute's or Role's branchId."),
    defaultComputeId: out(STRING, "The default branch's read-write compute (`ep-…`), for a Compute's adoptId."),
    defaultComputeHost: out(STRING, "The default compute's host name.", { optional: true }),
    defaultRoleId: out(STRING, "The default role's id (`<projectId>/<branchId>/<name>`), for a Role's adoptId."),
    defaultDatabaseId: out(STRING, "The default database's id, for a Database's adoptId."),
    roleName: out(STRING, "The default role's name (it owns the default database)."),
    rolePassword: out(STRING, "The default role's password (a secret).", { secret: true, optional: true }),
    databaseName: out(STRING, "The default database's name."),
    connectionUri: out(STRING, "postgresql://… to the default database through the default compute (a secret).", {
      secret: true,
      optional: true,
    }),
    connectionUriPooled: out(STRING, "The same through the connection pooler (`-pooler` host; a secret).", {
      secret: true,
      optional: true,
    }),
    createdAt: out(STRING, "Creation time (ISO 8601).", { api: "created_at", optional: true }),
    resourceName: out(STRING, "The Pulumi name of this resource, used in messages and as the default project name."),
  },
  crossChecks: [checkProjectInputs],
} satisfies Declaration;
