/**
 * The values a compute's properties take, as data that Check, schema.json, the docs and the tests read: the named
 * types, the sizes with their rules (api.md, Sizes: shared/sizes.ts) and max_connections. The peers hard-coded "max 10
 * CU" and lagged behind the service (#157): this and shared/sizes.ts are the places to update when the service grows.
 */
import { BOOLEAN, enumOf, InputRow, INTEGER, NUMBER, ObjectType, STRING_LIST } from "../shared/declaration";
import { isUnknown } from "../shared/unknown";
import { AUTOSCALING_MAX_CU, isSize, isSuspendTimeout, sameSuspendTimeout, sizePairProblem } from "../shared/sizes";
import { CheckFailure, describe, isBoolean, isStringList } from "../shared/validators";

type Props = Record<string, unknown>;

export const COMPUTE_TYPE = enumOf("neon:index:ComputeType", "The kind of compute.", {
  read_write: "Primary: reads and writes; one per branch.",
  read_only: "Read replica.",
});

export const POOLER_MODE = enumOf("neon:index:PoolerMode", "Connection pooling mode.", {
  transaction: "Transaction pooling.",
});

export const PROVISIONER = enumOf("neon:index:Provisioner", "How the compute is provisioned.", {
  "k8s-pod": "Fixed-size pods.",
  "k8s-neonvm": "Virtual machines; needed for autoscaling.",
  "serverless-platform": "Listed by Neon's OpenAPI document (Provisioner).",
});

/** OpenAPI, PreloadLibraries (EndpointSettingsData.preload_libraries): both fields optional. */
export const PRELOAD_LIBRARIES: ObjectType = {
  token: "neon:index:PreloadLibraries",
  argsType: "PreloadLibrariesArgs",
  outputType: "PreloadLibraries",
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

/** The two sizes, checked and sent as a pair (the service's merge of a lone size is undocumented: api.md). */
export const SIZES = ["autoscalingLimitMinCu", "autoscalingLimitMaxCu"] as const;

/** `max_connections` by the minimum size (service-spec.md, "Compute sizes"). Sizes above 10 CU keep 4000. */
const MAX_CONNECTIONS: ReadonlyArray<readonly [number, number]> = [
  [0.25, 112],
  [0.5, 225],
  [1, 450],
  [2, 901],
  [3, 1351],
  [4, 1802],
  [5, 2253],
  [6, 2703],
  [7, 3154],
  [8, 3604],
  [9, 4000],
];

/** The connection limit of a compute, fixed by its minimum size, not by its current size under autoscaling. */
export function maxConnectionsFor(minCu: number): number {
  let result = MAX_CONNECTIONS[0][1];
  for (const [cu, connections] of MAX_CONNECTIONS) if (minCu >= cu) result = connections;
  return result;
}

/** Both sizes or neither, and a pair the service accepts (api.md, Sizes). */
function checkSizePair({ autoscalingLimitMinCu: min, autoscalingLimitMaxCu: max }: Props): CheckFailure[] {
  if (isUnknown(min) || isUnknown(max)) return [];
  if ((min === undefined) !== (max === undefined)) {
    const [missing, given] = min === undefined ? SIZES : [SIZES[1], SIZES[0]];
    const reason = `must be set with ${given}: the sizes are checked as a pair (set both equal for a fixed size)`;
    return [{ property: missing, reason }];
  }
  if (typeof min !== "number" || typeof max !== "number" || isSize(min) || isSize(max)) return [];
  const problem = sizePairProblem(min, max);
  return problem ? [{ property: "autoscalingLimitMaxCu", reason: problem }] : [];
}

/** Computes above 16 CU never scale to zero (api.md, Sizes: -1); refusing another delay is right, refused or not. */
function checkAlwaysActive({ autoscalingLimitMinCu: min, suspendTimeoutSeconds: suspend }: Props): CheckFailure[] {
  if (typeof min !== "number" || min <= AUTOSCALING_MAX_CU || suspend === undefined || suspend === -1) return [];
  if (isUnknown(suspend)) return [];
  const reason = `must be -1 (never suspend) or left out for a compute above ${AUTOSCALING_MAX_CU} CU: such computes are always active; got ${describe(suspend)}`;
  return [{ property: "suspendTimeoutSeconds", reason }];
}

/** A size: a change restarts a running compute. */
const SIZE = {
  schema: NUMBER,
  rules: [isSize],
  source: "api.md, Sizes (values.ts)",
  change: "update",
  connections: "drop",
  because:
    "a size change restarts a running compute (api.md, Neon docs: changing autoscaling limits requires a restart)",
} satisfies Omit<InputRow, "description">;

/** The rows of the sizes and the autosuspend delay (declaration.ts spreads them among its inputs, in this order). */
export const SIZE_INPUTS = {
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
    same: sameSuspendTimeout,
    description:
      "Idle seconds before suspending: 0 = the default (300), -1 = never, else 60..604800. Changes need no restart.",
  },
} satisfies Record<string, InputRow>;

/** Check's rules over the sizes and the autosuspend delay together. */
export const SIZE_CHECKS = [checkSizePair, checkAlwaysActive];
