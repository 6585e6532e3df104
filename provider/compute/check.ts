/**
 * `check` for Compute: every rule the service applies to a compute, enforced at preview time, so that an
 * invalid program fails in the pull request that introduced it and never reaches the API.
 * Rules come from api.md; sizes from sizes.ts. Values unknown during preview pass.
 */
import { ALLOWED_SIZES, AUTOSCALING_MAX_CU, sizePairProblem } from "./sizes";
import { branchIdRule, isComputeId, projectIdRule } from "../shared/ids";
import { isUnknown } from "../shared/unknown";
import {
  CheckFailure,
  Validator,
  describe,
  isBoolean,
  isString,
  isStringMap,
  lengthBetween,
  matches,
  oneOf,
  optional,
  isList,
} from "../shared/validators";

const SIZES_TEXT = "0.25, 0.5, any integer from 1 to 16, or an even integer from 18 to 56";

const isSize: Validator = (v) =>
  typeof v === "number" && ALLOWED_SIZES.includes(v)
    ? undefined
    : `must be a compute size in CU (${SIZES_TEXT}); got ${describe(v)}`;

const isSuspendTimeout: Validator = (v) =>
  Number.isInteger(v) && (v === -1 || v === 0 || ((v as number) >= 60 && (v as number) <= 604800))
    ? undefined
    : `must be -1 (never suspend), 0 (the default, 300 s) or a whole number of seconds from 60 to 604800 (7 days); got ${describe(v)}`;

/** One validator per input property: the table users read in the README. */
export const COMPUTE_RULES: Record<string, Validator> = {
  projectId: projectIdRule,
  branchId: branchIdRule,
  type: optional(oneOf(["read_write", "read_only"])),
  autoscalingLimitMinCu: optional(isSize),
  autoscalingLimitMaxCu: optional(isSize),
  suspendTimeoutSeconds: optional(isSuspendTimeout),
  pgSettings: optional(isStringMap),
  poolerEnabled: optional(isBoolean),
  poolerMode: optional(oneOf(["transaction"])),
  disabled: optional(isBoolean),
  passwordlessAccess: optional(isBoolean),
  // OpenAPI's Provisioner lists serverless-platform too (api.md names only the other two): never refuse what the
  // service may accept.
  provisioner: optional(oneOf(["k8s-pod", "k8s-neonvm", "serverless-platform"])),
  name: optional(isString, lengthBetween(1, 64)),
  regionId: optional(isString, matches(/^[a-z0-9-]{1,64}$/, "a region id such as aws-us-east-2")),
  restartTriggers: optional(isList),
  adoptId: optional(isString, isComputeId),
  resourceName: optional(isString),
  ownerTag: optional(isString, matches(/^[0-9a-f]{12}$/, "12 hexadecimal digits (set by the Compute class)")),
};

/** Validates Compute inputs; returns the failures, each naming its property. */
export function checkComputeInputs(news: Record<string, unknown>): CheckFailure[] {
  const failures: CheckFailure[] = [];
  for (const property of new Set([...Object.keys(news), "projectId", "branchId"])) {
    if (property === "__provider") continue;
    const validate = COMPUTE_RULES[property];
    const value = news[property];
    if (!validate) failures.push({ property, reason: `is not a Compute property; known: ${knownProperties()}` });
    else if (!isUnknown(value)) pushIfProblem(failures, property, validate(value));
  }
  return failures.concat(checkSizePair(news), checkAlwaysActive(news));
}

/**
 * Computes above 16 CU never scale to zero (api.md, Sizes: suspend_timeout_seconds -1). Whether the service refuses
 * another delay or overrides it is undocumented: refusing it here is right either way.
 */
function checkAlwaysActive(news: Record<string, unknown>): CheckFailure[] {
  const { autoscalingLimitMinCu: min, suspendTimeoutSeconds: suspend } = news;
  if (typeof min !== "number" || min <= AUTOSCALING_MAX_CU || suspend === undefined || isUnknown(suspend)) return [];
  if (suspend === -1) return [];
  return [
    {
      property: "suspendTimeoutSeconds",
      reason: `must be -1 (never suspend) or left out for a compute above ${AUTOSCALING_MAX_CU} CU: such computes are always active; got ${describe(suspend)}`,
    },
  ];
}

function checkSizePair(news: Record<string, unknown>): CheckFailure[] {
  const min = news.autoscalingLimitMinCu;
  const max = news.autoscalingLimitMaxCu;
  if (isUnknown(min) || isUnknown(max)) return [];
  if ((min === undefined) !== (max === undefined)) {
    const [missing, given] =
      min === undefined
        ? ["autoscalingLimitMinCu", "autoscalingLimitMaxCu"]
        : ["autoscalingLimitMaxCu", "autoscalingLimitMinCu"];
    return [
      {
        property: missing,
        reason: `must be set with ${given}: the sizes are checked as a pair (set both equal for a fixed size)`,
      },
    ];
  }
  if (typeof min !== "number" || typeof max !== "number") return [];
  if (!ALLOWED_SIZES.includes(min) || !ALLOWED_SIZES.includes(max)) return [];
  const problem = sizePairProblem(min, max);
  return problem ? [{ property: "autoscalingLimitMaxCu", reason: problem }] : [];
}

function pushIfProblem(failures: CheckFailure[], property: string, reason: string | undefined): void {
  if (reason) failures.push({ property, reason });
}

function knownProperties(): string {
  return Object.keys(COMPUTE_RULES).join(", ");
}
