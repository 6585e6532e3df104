/**
 * Compute, declared: a compute endpoint of a branch, a primary (`read_write`) or a read replica (`read_only`). Each
 * property is one row (its type, the API field, its rules and their source, what a change does and to a running
 * compute's connections, how two values compare, its description); Check, the diff's plan (plan.ts), the request
 * bodies and the outputs (outputs.ts), schema.json and the table in docs/resources.md are derived from it
 * (shared/declaration.ts). Sizes and their rules are data in sizes.ts.
 */
import { checkAlwaysActive, checkSizePair, isSize } from "./sizes";
import {
  Declaration,
  EnumType,
  InputRow,
  ObjectType,
  OutputRow,
  SchemaType,
  projectIdRow,
} from "../shared/declaration";
import { isBranchId, isComputeId } from "../shared/ids";
import {
  describe,
  isBoolean,
  isList,
  isString,
  isStringList,
  isStringMap,
  lengthBetween,
  matches,
  Validator,
} from "../shared/validators";

const STRING: SchemaType = { type: "string" };
const NUMBER: SchemaType = { type: "number" };
const BOOLEAN: SchemaType = { type: "boolean" };
const STRING_MAP: SchemaType = { type: "object", additionalProperties: { type: "string" } };
const INTEGER: SchemaType = { type: "integer" };
const ANY_LIST: SchemaType = { type: "array", items: { $ref: "pulumi.json#/Any" } };
const STRING_LIST: SchemaType = { type: "array", items: { type: "string" } };
const OBJECT: SchemaType = { type: "object" };

/** An output read from the record's `api` field: a string, unless `more` says otherwise. */
const reported = (api: string, description: string, more: Partial<OutputRow> = {}): OutputRow => ({
  schema: STRING,
  api,
  description,
  ...more,
});
/** The service may leave it out of its answer (client/schemas.ts). */
const MAYBE = { optional: true };

const COMPUTE_TYPE: EnumType = {
  token: "neon:index:ComputeType",
  description: "The kind of compute.",
  values: [
    { value: "read_write", description: "Primary: reads and writes; one per branch." },
    { value: "read_only", description: "Read replica." },
  ],
};

const POOLER_MODE: EnumType = {
  token: "neon:index:PoolerMode",
  description: "Connection pooling mode.",
  values: [{ value: "transaction", description: "Transaction pooling." }],
};

const PROVISIONER: EnumType = {
  token: "neon:index:Provisioner",
  description: "How the compute is provisioned.",
  values: [
    { value: "k8s-pod", description: "Fixed-size pods." },
    { value: "k8s-neonvm", description: "Virtual machines; needed for autoscaling." },
    { value: "serverless-platform", description: "Listed by Neon's OpenAPI document (Provisioner)." },
  ],
};

/** OpenAPI, PreloadLibraries (EndpointSettingsData.preload_libraries): both fields optional. */
const PRELOAD_LIBRARIES: ObjectType = {
  token: "neon:index:PreloadLibraries",
  description:
    "The shared libraries to preload into the compute (Postgres's shared_preload_libraries; OpenAPI, PreloadLibraries).",
  fields: {
    useDefaults: {
      api: "use_defaults",
      schema: BOOLEAN,
      rules: [isBoolean],
      description: "Whether Neon's default libraries are preloaded.",
    },
    enabledLibraries: {
      api: "enabled_libraries",
      schema: STRING_LIST,
      rules: [isStringList],
      description:
        "The libraries to preload, by name (Neon's available_preload_libraries lists those of the project's Postgres version).",
    },
  },
};

const PRELOAD_LIBRARIES_TEXT =
  "The shared libraries to preload: `useDefaults` (boolean) and `enabledLibraries` (names). Sent in `settings` with `pgSettings`, neither erasing the other. A change may restart a running compute (Postgres loads them only at a start; the preview warns).";

const isSuspendTimeout: Validator = (v) =>
  Number.isInteger(v) && (v === -1 || v === 0 || ((v as number) >= 60 && (v as number) <= 604800))
    ? undefined
    : `must be -1 (never suspend), 0 (the default, 300 s) or a whole number of seconds from 60 to 604800 (7 days); got ${describe(v)}`;

/** 0 means "the default", which is 300 seconds: both spellings are the same setting (api.md). */
const normalizeSuspend = (value: unknown): unknown => (value === 0 ? 300 : value);

const SIZE = {
  schema: NUMBER,
  rules: [isSize],
  source: "api.md, Sizes (sizes.ts)",
  change: "update",
  connections: "drop",
  because:
    "a size change restarts a running compute (api.md, Neon docs: changing autoscaling limits requires a restart)",
} satisfies Omit<InputRow, "description">;

const POOLER_ENABLED =
  "Whether pooled connections are on. Deprecated by Neon (the pooler settings' removal was scheduled for 2026-06-20); pooling is always available through `poolerHost`. Sent only when set; a service that refuses it fails the step, saying to remove it.";
const POOLER_MODE_TEXT =
  "Pooling mode: `transaction`. Deprecated by Neon (to be removed after 2026-06-20). Sent only when set; a service that refuses it fails the step, saying to remove it.";

const INPUTS = {
  projectId: projectIdRow("Project of the compute. Changing it replaces the compute."),
  branchId: {
    schema: STRING,
    required: true,
    api: "branch_id",
    rules: [isString, isBranchId],
    source: "api.md, Ids",
    change: "update",
    connections: "drop",
    because: "a connection cannot continue on another branch's data (api.md, Branch move)",
    description:
      "Branch the compute serves. Changing it moves the compute (one PATCH, no replacement); a running compute's connections drop. Moving with an update (`branch_id`) is deprecated by Neon: if the service refuses or ignores a move, the update fails and says to replace the compute instead (`pulumi up --replace`; a `replacementTrigger` on the branch id for later moves).",
  },
  type: {
    schema: STRING,
    enum: COMPUTE_TYPE,
    api: "type",
    source: "api.md",
    change: "replace",
    default: "read_write",
    description:
      "`read_write` (primary, the default; one per branch) or `read_only` (read replica). Changing it replaces the compute.",
  },
  autoscalingLimitMinCu: {
    ...SIZE,
    api: "autoscaling_limit_min_cu",
    description:
      "Minimum size in CU (0.25, 0.5, 1..16, even 18..56). Changing it restarts a running compute (its connections drop). Fixes `maxConnections`.",
  },
  autoscalingLimitMaxCu: {
    ...SIZE,
    api: "autoscaling_limit_max_cu",
    description:
      "Maximum size in CU (equal to the minimum for a fixed size; autoscaling up to 16 CU, at most 8 CU above the minimum). Changing it restarts a running compute.",
  },
  suspendTimeoutSeconds: {
    schema: INTEGER,
    api: "suspend_timeout_seconds",
    rules: [isSuspendTimeout],
    source: "api.md",
    change: "update",
    same: (a, b) => normalizeSuspend(a) === normalizeSuspend(b),
    description:
      "Idle seconds before suspending: 0 = the default (300), -1 = never, else 60..604800. Changes need no restart.",
  },
  pgSettings: {
    schema: STRING_MAP,
    api: "settings.pg_settings",
    rules: [isStringMap],
    change: "update",
    connections: "may-drop",
    because: "Postgres applies many settings only at a restart; the service does not document which",
    description:
      "Postgres settings (string values). A change may restart a running compute (undocumented; the preview warns).",
  },
  preloadLibraries: {
    schema: OBJECT,
    object: PRELOAD_LIBRARIES,
    api: "settings.preload_libraries",
    source: "OpenAPI, EndpointSettingsData.preload_libraries (PreloadLibraries)",
    change: "update",
    connections: "may-drop",
    because:
      "Postgres loads shared_preload_libraries only at a server start (PostgreSQL docs), and Neon's libraries need a compute restart to activate (OpenAPI, getAvailablePreloadLibraries); the service does not document whether its PATCH restarts the compute",
    description: PRELOAD_LIBRARIES_TEXT,
  },
  poolerEnabled: {
    schema: BOOLEAN,
    api: "pooler_enabled",
    rules: [isBoolean],
    source: "api.md, Pooler fields",
    change: "update",
    deprecation: "Neon deprecated pooler_enabled: connect through the poolerHost output.",
    description: POOLER_ENABLED,
  },
  poolerMode: {
    schema: STRING,
    enum: POOLER_MODE,
    api: "pooler_mode",
    source: "api.md, Pooler fields",
    change: "update",
    deprecation: "Neon deprecated pooler_mode (to be removed after 2026-06-20); PgBouncer runs in transaction mode.",
    description: POOLER_MODE_TEXT,
  },
  disabled: {
    schema: BOOLEAN,
    api: "disabled",
    rules: [isBoolean],
    change: "update",
    connections: "drop",
    because: "disabling schedules a suspend_compute operation (OpenAPI, EndpointUpdateRequest.disabled)",
    description:
      "A disabled compute refuses connections. Disabling a running compute suspends it (its connections drop).",
  },
  passwordlessAccess: {
    schema: BOOLEAN,
    api: "passwordless_access",
    rules: [isBoolean],
    change: "update",
    description: "Whether connections may authenticate without a password.",
  },
  provisioner: {
    schema: STRING,
    enum: PROVISIONER,
    api: "provisioner",
    // OpenAPI's Provisioner lists serverless-platform too (api.md names only the other two): never refuse what the
    // service may accept.
    source: "OpenAPI, Provisioner",
    change: "update",
    connections: "may-drop",
    because: "the compute is re-provisioned; the service does not document whether it restarts",
    description:
      "`k8s-pod`, `k8s-neonvm` (needed for autoscaling) or `serverless-platform`. A change may restart a running compute (undocumented; the preview warns).",
  },
  name: {
    schema: STRING,
    api: "name",
    rules: [isString, lengthBetween(1, 64)],
    source: "api.md",
    change: "update",
    description: "A display name, 1..64 characters.",
  },
  regionId: {
    schema: STRING,
    api: "region_id",
    rules: [isString, matches(/^[a-z0-9-]{1,64}$/, "a region id such as aws-us-east-2")],
    source: "api.md",
    change: "replace",
    description: "Region; must equal the project's. Changing it replaces the compute.",
  },
  restartTriggers: {
    schema: ANY_LIST,
    rules: [isList],
    change: "action",
    action: "a new value restarts the compute",
    connections: "drop",
    because: "restartTriggers changed",
    // Removed restart triggers are recorded (plan.ts).
    removalIsChange: true,
    description:
      "Any values: when they change, the compute is restarted through the restart API (nothing else changes); not when it is idle or the same update disables it (nothing runs), nor twice when the update's PATCH restarted it.",
  },
  adoptId: {
    schema: STRING,
    rules: [isString, isComputeId],
    source: "api.md, Ids",
    change: "record",
    // A removed `adoptId` must leave the state, or Delete would keep treating the compute as adopted and never delete
    // it (adopt.ts).
    removalIsChange: true,
    description:
      "Adopt an existing compute by id instead of creating one (Pulumi's `import` cannot reach dynamic providers). Acts at creation; remove it after the first `up` (the next `up` records that, sending nothing). Pulumi never deletes a compute that the state's `adoptId` names: while it stays in the program, a replacement (`--replace`, a `replacementTrigger`, a new parent) adopts the same compute again, so a replacement, a destroy or a removal of the resource leaves it on the service, with a warning.",
  },
  resourceName: {
    schema: STRING,
    rules: [isString],
    change: "record",
    internal: true,
    description: "The Pulumi name of this resource (set by the Compute class), used in messages.",
  },
  ownerTag: {
    schema: STRING,
    rules: [isString, matches(/^[0-9a-f]{12}$/, "12 hexadecimal digits (set by the Compute class)")],
    change: "record",
    internal: true,
    description:
      "Identifies this resource's compute on the service (set by the Compute class): its names carry it (owner.ts).",
  },
} satisfies Record<string, InputRow>;

export const COMPUTE = {
  name: "Compute",
  docs: "docs/resources.md#compute",
  description:
    "A compute endpoint on a branch: a primary (`read_write`) or a read replica (`read_only`). A change of projectId, type or regionId replaces it (the old compute is deleted first: the dynamic class defaults deleteBeforeReplace to true, and a native Compute's Diff asks for it; give a native Compute that option yourself for `pulumi up --replace`, which asks no Diff); every other change is one PATCH. Sizes, a branch move and disabling restart a running compute (its connections drop; the preview warns); provisioner, pgSettings and preloadLibraries may (undocumented; the preview warns); a new restartTriggers value restarts it once, and not at all when it is idle.",
  inputs: INPUTS,
  // Outputs without `api` are set by outputs.ts: the pooled host, max_connections, and the inputs carried as given.
  outputs: {
    endpointId: reported("id", "The compute's id (`ep-...`)."),
    projectId: reported("project_id", INPUTS.projectId.description),
    branchId: reported("branch_id", INPUTS.branchId.description),
    regionId: reported("region_id", "Region of the compute (the project's)."),
    type: reported("type", "`read_write` (primary) or `read_only` (read replica).", { enum: COMPUTE_TYPE }),
    autoscalingLimitMinCu: reported("autoscaling_limit_min_cu", "Minimum size in CU.", { schema: NUMBER }),
    autoscalingLimitMaxCu: reported("autoscaling_limit_max_cu", "Maximum size in CU.", { schema: NUMBER }),
    suspendTimeoutSeconds: reported(
      "suspend_timeout_seconds",
      "Idle seconds before suspending, as the service reports it (0 = the default, 300; -1 = never).",
      { schema: INTEGER },
    ),
    pgSettings: reported("settings.pg_settings", INPUTS.pgSettings.description, { schema: STRING_MAP }),
    preloadLibraries: reported("settings.preload_libraries", PRELOAD_LIBRARIES_TEXT, {
      ...MAYBE,
      schema: OBJECT,
      object: PRELOAD_LIBRARIES,
    }),
    poolerEnabled: reported("pooler_enabled", POOLER_ENABLED, {
      ...MAYBE,
      schema: BOOLEAN,
      deprecation: INPUTS.poolerEnabled.deprecation,
    }),
    poolerMode: reported("pooler_mode", POOLER_MODE_TEXT, { ...MAYBE, deprecation: INPUTS.poolerMode.deprecation }),
    disabled: reported("disabled", INPUTS.disabled.description, { ...MAYBE, schema: BOOLEAN }),
    passwordlessAccess: reported("passwordless_access", INPUTS.passwordlessAccess.description, {
      ...MAYBE,
      schema: BOOLEAN,
    }),
    provisioner: reported(
      "provisioner",
      "`k8s-pod`, `k8s-neonvm` or `serverless-platform`. A change may restart a running compute (undocumented; the preview warns).",
      MAYBE,
    ),
    name: reported("name", "The display name, if set.", MAYBE),
    restartTriggers: { schema: ANY_LIST, optional: true, description: INPUTS.restartTriggers.description },
    adoptId: {
      schema: STRING,
      optional: true,
      description:
        "The id of the compute adopted at creation, while the program sets adoptId: Pulumi never deletes the compute it names.",
    },
    host: reported("host", "Connection host, e.g. ep-cool-darkness-123456.us-east-2.aws.neon.tech."),
    poolerHost: { schema: STRING, description: "Pooled connection host (`-pooler` after the compute id)." },
    proxyHost: reported("proxy_host", "The region's proxy host.", MAYBE),
    currentState: reported("current_state", "init, active or idle."),
    pendingState: reported("pending_state", "The state the compute is moving to, if any.", MAYBE),
    creationSource: reported("creation_source", "What created the compute (console, API, ...).", MAYBE),
    lastActive: reported("last_active", "When the compute last served a connection.", MAYBE),
    startedAt: reported("started_at", "When the compute last started.", MAYBE),
    suspendedAt: reported("suspended_at", "When the compute last suspended.", MAYBE),
    createdAt: reported("created_at", "Creation time (ISO 8601).", MAYBE),
    updatedAt: reported("updated_at", "Last update time (ISO 8601).", MAYBE),
    computeReleaseVersion: reported("compute_release_version", "The compute's release version, if reported.", MAYBE),
    maxConnections: {
      schema: INTEGER,
      description: "Postgres max_connections, fixed by the minimum size (not by the current size under autoscaling).",
    },
    resourceName: {
      schema: STRING,
      internal: true,
      description: "The Pulumi name of this resource, used in messages such as the restart warning.",
    },
    ownerTag: {
      schema: STRING,
      internal: true,
      description:
        "Identifies this resource's compute on the service: its name is `pulumi-<ownerTag>` when `name` is not set, so a compute created by an interrupted run is recognised by the next one.",
    },
  },
  crossChecks: [checkSizePair, checkAlwaysActive],
} satisfies Declaration;
