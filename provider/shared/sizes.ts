/**
 * Compute sizes and the autosuspend delay, as the service documents them (api.md, Sizes): one place for every
 * resource that sets a compute's size (a Compute, a Project's default compute settings). The peers hard-coded "max 10
 * CU" and lagged behind the service (#157); this is the one place to update when the service grows.
 */
import { describe, Validator } from "./validators";

/** The autosuspend delay (api.md). */
export const isSuspendTimeout: Validator = (v) =>
  Number.isInteger(v) && (v === -1 || v === 0 || ((v as number) >= 60 && (v as number) <= 604800))
    ? undefined
    : `must be -1 (never suspend), 0 (the default, 300 s) or a whole number of seconds from 60 to 604800 (7 days); got ${describe(v)}`;

/** 0 means "the default", which is 300 seconds: both spellings are the same setting (api.md). */
export const sameSuspendTimeout = (a: unknown, b: unknown): boolean => (a === 0 ? 300 : a) === (b === 0 ? 300 : b);

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
