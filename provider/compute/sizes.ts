/**
 * Compute sizes as the service documents them (api.md), kept as data so that check, the docs and the
 * tests read one table. The peers hard-coded "max 10 CU" and lagged behind the service (#157); this table
 * follows the documented list and is the one place to update when the service grows. The size rules of the
 * declaration (declaration.ts) are here too: one size, the pair, and the always-active computes above 16 CU.
 */
import { isUnknown } from "../shared/unknown";
import { CheckFailure, describe, Validator } from "../shared/validators";

type Props = Record<string, unknown>;

/** Every documented size in CU: 0.25, 0.5, each integer 1..16, each even integer 18..56. */
export const ALLOWED_SIZES: readonly number[] = [
  0.25,
  0.5,
  ...Array.from({ length: 16 }, (_, i) => i + 1),
  ...Array.from({ length: 20 }, (_, i) => 18 + 2 * i),
];

/** Autoscaling (min < max) is only possible within this range, and over at most this spread. */
export const AUTOSCALING_MAX_CU = 16;
export const AUTOSCALING_MAX_SPREAD_CU = 8;

/** The two sizes: a change of either sends both (the service's merge of a lone size is undocumented: api.md). */
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

const SIZES_TEXT = "0.25, 0.5, any integer from 1 to 16, or an even integer from 18 to 56";

/** One size (api.md, Sizes). */
export const isSize: Validator = (v) =>
  typeof v === "number" && ALLOWED_SIZES.includes(v)
    ? undefined
    : `must be a compute size in CU (${SIZES_TEXT}); got ${describe(v)}`;

/** Why a size pair is refused, or undefined when the service accepts it. */
export function sizePairProblem(min: number, max: number): string | undefined {
  if (min > max) return `the minimum (${min} CU) is larger than the maximum (${max} CU)`;
  if (min === max) return undefined;
  if (max > AUTOSCALING_MAX_CU) {
    return `autoscaling works only up to ${AUTOSCALING_MAX_CU} CU; sizes above that are fixed (set min = max)`;
  }
  if (max - min > AUTOSCALING_MAX_SPREAD_CU) {
    return `max - min may be at most ${AUTOSCALING_MAX_SPREAD_CU} CU (got ${max} - ${min} = ${max - min})`;
  }
  return undefined;
}

/** The sizes are checked as a pair: both or neither, and a pair the service accepts (api.md, Sizes). */
export function checkSizePair(news: Props): CheckFailure[] {
  const min = news.autoscalingLimitMinCu;
  const max = news.autoscalingLimitMaxCu;
  if (isUnknown(min) || isUnknown(max)) return [];
  if ((min === undefined) !== (max === undefined)) {
    const [missing, given] = min === undefined ? [...SIZES] : [SIZES[1], SIZES[0]];
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

/**
 * Computes above 16 CU never scale to zero (api.md, Sizes: suspend_timeout_seconds -1). Whether the service refuses
 * another delay or overrides it is undocumented: refusing it here is right either way.
 */
export function checkAlwaysActive(news: Props): CheckFailure[] {
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
