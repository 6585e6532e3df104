/**
 * Branch, declared: one row per property, from which shared/declaration.ts derives Check, the plan, the request bodies,
 * the outputs, schema.json and the docs' table. Check's rules over several inputs are refusal.ts's; what a change does
 * beyond the rows, plan.ts's.
 */
import { ANY_LIST, BOOLEAN, enumOf, INTEGER, projectIdRow, reported, STRING, STRING_MAP } from "../shared/declaration";
import type { Declaration, OutputRow } from "../shared/declaration";
import { isBranchId } from "../shared/ids";
import { isTimestamp, LSN, sameInstant, sameLsn } from "../shared/instants";
import { CheckFailure, isBoolean, isList, isString, lengthBetween, matches } from "../shared/validators";
import { checkSeveral, isAnnotations } from "./refusal";

type Props = Record<string, unknown>;

/** A usage counter of the service's record: an integer, never left out. */
const counter = (api: string, description: string): OutputRow => reported(api, description, { schema: INTEGER });
const MAYBE = { optional: true };
const RESETS =
  "Any values: when they change, the branch is reset from its parent (its latest data): the branch's own changes are discarded, and its computes restart. Not on a schema-only branch, a protected one or one with children.";

export const BRANCH = {
  name: "Branch",
  docs: "docs/resources.md#branch",
  description:
    "A branch of a project: a copy-on-write clone of its parent's data (or, with initSource `schema-only`, a new root branch with its parent's schema only). A change of projectId, parentId, parentLsn, parentTimestamp or initSource replaces it (the new branch first, computes that follow its branchId moved to it, then the old one deleted with its data; the preview warns); name, protected and expiresAt are one PATCH; a new resetTriggers value resets it from its parent (its own changes discarded, its computes restarted; the preview warns). A name another branch has is refused before anything is created (set adoptId to manage that branch). Destroying it deletes the branch and its data (refused, sending nothing, for the default branch, a protected branch or one with children).",
  inputs: {
    projectId: projectIdRow("Project of the branch. Changing it replaces the branch."),
    parentId: {
      schema: STRING,
      api: "branch.parent_id",
      rules: [isString, isBranchId],
      source: "api.md, Ids",
      change: "replace",
      description:
        "The parent branch (its id). Left out: the project's default branch, resolved when the branch is created and recorded, so leaving it out never shows a difference later. Changing it replaces the branch. For a schema-only branch, the branch whose schema is copied.",
    },
    name: {
      schema: STRING,
      api: "branch.name",
      rules: [isString, lengthBetween(1, 256)],
      source: "OpenAPI BranchCreateRequest and BranchUpdateRequest, branch.name (minLength 1, maxLength 256)",
      change: "update",
      description:
        "The branch's name, 1..256 characters, unique in the project. Default: the resource's name. Changing it renames the branch (one PATCH).",
    },
    parentLsn: {
      schema: STRING,
      api: "branch.parent_lsn",
      rules: [isString, matches(LSN, "a Log Sequence Number: two hex numbers such as 0/1DE2850")],
      source: "OpenAPI BranchCreateRequest.parent_lsn (not with parent_timestamp: refusal.ts)",
      change: "replace",
      same: sameLsn,
      description:
        "A point on the parent to branch from: a Log Sequence Number (`0/1DE2850`). Not with `parentTimestamp`. Changing it replaces the branch.",
    },
    parentTimestamp: {
      schema: STRING,
      api: "branch.parent_timestamp",
      rules: [isTimestamp],
      source: "OpenAPI BranchCreateRequest.parent_timestamp (RFC 3339; not in the future: refusal.ts)",
      change: "replace",
      same: sameInstant,
      description:
        "A point on the parent to branch from: an RFC 3339 time, not in the future. Not with `parentLsn`. Changing it replaces the branch.",
    },
    initSource: {
      schema: STRING,
      enum: enumOf("neon:index:BranchInitSource", "What a new branch starts with.", {
        "parent-data": "The parent's schema and data (the service's default).",
        "schema-only": "A new root branch with the parent's schema only.",
      }),
      api: "branch.init_source",
      source: "OpenAPI BranchCreateRequest.init_source",
      change: "replace",
      description:
        "`parent-data` (the default: schema and data) or `schema-only` (a root branch with the schema only). Changing it replaces the branch.",
    },
    protected: {
      schema: BOOLEAN,
      api: "branch.protected",
      rules: [isBoolean],
      source: "OpenAPI BranchUpdateRequest.protected; Neon docs, Protected branches",
      change: "update",
      default: false,
      description:
        "A protected branch cannot be deleted, reset or expire. Changing it is one PATCH. A plain true also gives the resource Pulumi's protect option (unless the program sets protect or retainOnDelete itself), so that a destroy or a replacement is refused before anything is deleted.",
    },
    expiresAt: {
      schema: STRING,
      api: "branch.expires_at",
      rules: [isTimestamp],
      source: "Neon docs, Branch expiration (whole seconds, in the future, at most 30 days, not protected: refusal.ts)",
      change: "update",
      removalIsChange: true,
      same: sameInstant,
      description:
        "When Neon deletes the branch (with its computes): RFC 3339 in whole seconds, in the future, at most 30 days ahead; not with `protected: true`. Changing it is one PATCH; removing it removes the expiry.",
    },
    annotations: {
      schema: STRING_MAP,
      api: "annotation_value",
      rules: [isAnnotations],
      source: "OpenAPI AnnotationValueData (at most 50 string properties), AnnotationCreateValueRequest",
      change: "refused",
      description:
        "Annotations (at most 50 string values). Set at creation; Neon documents no call that changes them afterwards, so a change is refused at preview, naming the keys and the way out (ignoreChanges, or a replacement); removing them is recorded and the branch keeps them.",
    },
    resetTriggers: {
      schema: ANY_LIST,
      rules: [isList],
      change: "action",
      removalIsChange: true,
      connections: "drop",
      because: "a reset gives the branch its parent's latest data: its computes restart",
      description: RESETS,
    },
    adoptId: {
      schema: STRING,
      rules: [isString, isBranchId],
      source: "api.md, Ids",
      change: "record",
      removalIsChange: true,
      description:
        "Adopt an existing branch by id instead of creating one (`pulumi import` reaches only the native plugin's resources, not dynamic ones). Acts at creation. Keep it (a project's default object), or remove it after the first `up` (an `up` that sends nothing) to let a destroy delete it. Pulumi never deletes a branch that the state's `adoptId` names.",
    },
    resourceName: {
      schema: STRING,
      rules: [isString],
      change: "record",
      internal: true,
      description: "The Pulumi name of this resource, used in messages and as the default branch name.",
    },
  },
  outputs: {
    branchId: {
      schema: STRING,
      api: "id",
      description: "The branch id (`br-…`), for a Compute's `branchId` or a child Branch's `parentId`.",
    },
    projectId: { schema: STRING, api: "project_id", description: "Project of the branch." },
    parentId: {
      schema: STRING,
      api: "parent_id",
      optional: true,
      description: "The parent, as the service reports it (none for a schema-only or root branch).",
    },
    name: { schema: STRING, api: "name", description: "The branch's name." },
    parentLsn: {
      schema: STRING,
      api: "parent_lsn",
      optional: true,
      description: "The point on the parent the branch starts from (a reset moves it to the parent's head then).",
    },
    parentTimestamp: {
      schema: STRING,
      api: "parent_timestamp",
      optional: true,
      description: "The time on the parent the branch starts from (a reset moves it).",
    },
    initSource: {
      schema: STRING,
      api: "init_source",
      optional: true,
      description: "`parent-data` or `schema-only`, as the service reports it.",
    },
    protected: { schema: BOOLEAN, api: "protected", description: "Whether the branch is protected." },
    expiresAt: {
      schema: STRING,
      api: "expires_at",
      optional: true,
      description: "When Neon deletes the branch, if it expires (RFC 3339).",
    },
    annotations: {
      schema: STRING_MAP,
      optional: true,
      description: "The branch's annotations, as the service has them.",
    },
    resetTriggers: { schema: ANY_LIST, optional: true, description: RESETS },
    adoptId: {
      schema: STRING,
      optional: true,
      description:
        "The id of the branch adopted at creation, while the program sets adoptId: Pulumi never deletes the branch it names.",
    },
    default: reported("default", "Whether this is the project's default branch.", { schema: BOOLEAN }),
    currentState: reported("current_state", "init, ready, resetting, …"),
    pendingState: reported("pending_state", "The state the branch is moving to, if any.", MAYBE),
    stateChangedAt: reported("state_changed_at", "When `currentState` began (ISO 8601)."),
    logicalSize: reported("logical_size", "The logical size of the branch, in bytes, if reported.", {
      schema: INTEGER,
      optional: true,
    }),
    creationSource: reported("creation_source", "What created the branch (console, API, ...)."),
    computeTimeSeconds: counter("compute_time_seconds", "Compute time used, in seconds (a usage counter)."),
    activeTimeSeconds: counter(
      "active_time_seconds",
      "Active time of the branch's computes, in seconds (a usage counter).",
    ),
    writtenDataBytes: counter("written_data_bytes", "Data written, in bytes (a usage counter)."),
    dataTransferBytes: counter("data_transfer_bytes", "Data transferred, in bytes (a usage counter)."),
    createdAt: reported("created_at", "Creation time (ISO 8601)."),
    updatedAt: reported("updated_at", "Last update time (ISO 8601)."),
    ttlIntervalSeconds: reported(
      "ttl_interval_seconds",
      "The time to live set with expiresAt, in seconds: a reset moves the expiry to now plus this.",
      { schema: INTEGER, optional: true },
    ),
    lastResetAt: reported("last_reset_at", "When the branch was last reset, if ever.", MAYBE),
    resourceName: {
      schema: STRING,
      description: "The Pulumi name of this resource, used in messages and as the default branch name.",
    },
  },
  crossChecks: [(news: Props): CheckFailure[] => checkSeveral(BRANCH, news, Date.now())],
} satisfies Declaration;
