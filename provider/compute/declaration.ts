/**
 * Compute, declared: one row per property. Check, the plan, the request bodies and outputs (plan.ts), schema.json, the
 * class's types and docs/resources.md's table derive from it (shared/declaration.ts); the values it names: values.ts.
 */
import { COMPUTE_TYPE, POOLER_MODE, PRELOAD_LIBRARIES, PROVISIONER, SIZE_CHECKS, SIZE_INPUTS } from "./values";
import {
  ANY_LIST,
  BOOLEAN,
  branchIdRow,
  Declaration,
  INTEGER,
  InputRow,
  NUMBER,
  OBJECT,
  OutputRow,
  projectIdRow,
  reported,
  STRING,
  STRING_MAP,
} from "../shared/declaration";
import { isComputeId } from "../shared/ids";
import { isBoolean, isList, isString, isStringMap, lengthBetween, matches } from "../shared/validators";

/** The service may leave it out of its answer (client/schemas.ts); KEPT: the output then keeps the program's value. */
const MAYBE = { optional: true };
const KEPT = { ...MAYBE, keptIfUnreported: true };
/** The output of an input the service reports: its field, type and description; `optional` unless `more` says. */
const echoed = (row: InputRow, more: Partial<OutputRow> = MAYBE): OutputRow =>
  reported(String(row.api), row.description, { schema: row.schema, ...more });

const INPUTS = {
  projectId: projectIdRow("Project of the compute. Changing it replaces the compute."),
  branchId: {
    ...branchIdRow(
      "Branch the compute serves. Changing it moves the compute (one PATCH, no replacement); a running compute's connections drop. Moving with an update (`branch_id`) is deprecated by Neon: if the service refuses or ignores a move, the update fails and says to replace the compute instead (`pulumi up --replace`; a `replacementTrigger` on the branch id for later moves).",
    ),
    api: "branch_id",
    change: "update",
    connections: "drop",
    because: "a connection cannot continue on another branch's data (api.md, Branch move)",
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
  // The sizes and the autosuspend delay, beside their rules (values.ts).
  ...SIZE_INPUTS,
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
    description:
      "The shared libraries to preload: `useDefaults` (boolean) and `enabledLibraries` (names). Sent in `settings` with `pgSettings`, neither erasing the other. A change may restart a running compute (Postgres loads them only at a start; the preview warns).",
  },
  poolerEnabled: {
    schema: BOOLEAN,
    api: "pooler_enabled",
    rules: [isBoolean],
    source: "api.md, Pooler fields",
    change: "update",
    deprecation: "Neon deprecated pooler_enabled: connect through the poolerHost output.",
    description:
      "Whether pooled connections are on. Deprecated by Neon (the pooler settings' removal was scheduled for 2026-06-20); pooling is always available through `poolerHost`. Sent only when set; a service that refuses it fails the step, saying to remove it.",
  },
  poolerMode: {
    schema: STRING,
    enum: POOLER_MODE,
    api: "pooler_mode",
    source: "api.md, Pooler fields",
    change: "update",
    deprecation: "Neon deprecated pooler_mode (to be removed after 2026-06-20); PgBouncer runs in transaction mode.",
    description:
      "Pooling mode: `transaction`. Deprecated by Neon (to be removed after 2026-06-20). Sent only when set; a service that refuses it fails the step, saying to remove it.",
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
    // it (refusal.ts, keptOnDelete).
    removalIsChange: true,
    description:
      "Adopt an existing compute by id instead of creating one (`pulumi import` reaches only the native plugin's resources, not dynamic ones). Acts at creation. Keep it (a project's default compute), or remove it after the first `up` (an `up` that sends nothing) to let a destroy delete the compute. Pulumi never deletes a compute that the state's `adoptId` names: while it stays in the program, a replacement (`--replace`, a `replacementTrigger`, a new parent) adopts the same compute again, so a replacement, a destroy or a removal of the resource leaves it on the service, with a warning.",
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
      "Identifies this resource's compute on the service (set by the Compute class): its names carry it (owner-tag.ts).",
  },
} satisfies Record<string, InputRow>;

export const COMPUTE = {
  name: "Compute",
  docs: "docs/resources.md#compute",
  description:
    "A compute endpoint on a branch: a primary (`read_write`) or a read replica (`read_only`). A change of projectId, type or regionId replaces it (the old compute is deleted first: the dynamic class defaults deleteBeforeReplace to true, and a native Compute's Diff asks for it; give a native Compute that option yourself for `pulumi up --replace`, which asks no Diff); every other change is one PATCH. Sizes, a branch move and disabling restart a running compute (its connections drop; the preview warns); provisioner, pgSettings and preloadLibraries may (undocumented; the preview warns); a new restartTriggers value restarts it once, and not at all when it is idle.",
  inputs: INPUTS,
  // Outputs without `api` are set by plan.ts toOutputs: the pooled host, max_connections, the inputs carried as given.
  outputs: {
    endpointId: reported("id", "The compute's id (`ep-...`)."),
    projectId: reported("project_id", INPUTS.projectId.description),
    branchId: echoed(INPUTS.branchId, {}),
    regionId: reported("region_id", "Region of the compute (the project's)."),
    type: reported("type", "`read_write` (primary) or `read_only` (read replica).", { enum: COMPUTE_TYPE }),
    autoscalingLimitMinCu: reported("autoscaling_limit_min_cu", "Minimum size in CU.", { schema: NUMBER }),
    autoscalingLimitMaxCu: reported("autoscaling_limit_max_cu", "Maximum size in CU.", { schema: NUMBER }),
    suspendTimeoutSeconds: reported(
      "suspend_timeout_seconds",
      "Idle seconds before suspending, as the service reports it (0 = the default, 300; -1 = never).",
      { schema: INTEGER },
    ),
    pgSettings: echoed(INPUTS.pgSettings, {}),
    preloadLibraries: echoed(INPUTS.preloadLibraries, { ...MAYBE, object: PRELOAD_LIBRARIES }),
    poolerEnabled: echoed(INPUTS.poolerEnabled, { ...KEPT, deprecation: INPUTS.poolerEnabled.deprecation }),
    poolerMode: echoed(INPUTS.poolerMode, { ...KEPT, deprecation: INPUTS.poolerMode.deprecation }),
    disabled: echoed(INPUTS.disabled, KEPT),
    passwordlessAccess: echoed(INPUTS.passwordlessAccess, KEPT),
    provisioner: reported(
      "provisioner",
      "`k8s-pod`, `k8s-neonvm` or `serverless-platform`. A change may restart a running compute (undocumented; the preview warns).",
      KEPT,
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
  crossChecks: SIZE_CHECKS,
} satisfies Declaration;
