import { badRequest } from "./errors";
import type { EndpointConfig, Plan } from "./types";

/**
 * What the service refuses or overrides after a compute's config passed validation, by plan and size, in one
 * place so that create, update and branch create agree:
 *
 * - Free plan: sizes up to 2 CU (Neon docs, Manage computes: "The Neon Free plan supports computes with up to
 *   2 CU"); above → 400 naming the field and the limit (the status is a guess: not documented).
 * - Free plan: the autosuspend delay "is fixed" (Neon docs, Scale to Zero). The service keeps the default:
 *   `suspend_timeout_seconds` is reset to 0 instead of refusing the request (a guess: the plausible reading of
 *   "Plans limit further"; a client must not rely on either).
 * - Computes above 16 CU "remain always active" (Neon docs, Manage computes; api.md "Sizes"): the service
 *   overrides `suspend_timeout_seconds` to -1 (kept at -1 if the compute is later made smaller, until set).
 */
export const FREE_PLAN_MAX_CU = 2;

/** Above this size a compute never scales to zero. */
export const ALWAYS_ACTIVE_ABOVE_CU = 16;

/** Refuses sizes the plan does not allow (400 naming the field and the limit). */
export function checkPlanSizes(plan: Plan, config: EndpointConfig, prefix: string): void {
  if (plan !== "free") return;
  for (const field of ["autoscaling_limit_min_cu", "autoscaling_limit_max_cu"] as const) {
    if (config[field] > FREE_PLAN_MAX_CU) {
      throw badRequest(
        `${prefix}.${field}: ${config[field]} exceeds the Free plan's limit of ${FREE_PLAN_MAX_CU} CU; ` +
          `allowed on the Free plan: 0.25, 0.5, 1, 2 (larger sizes need a paid plan)`,
      );
    }
  }
}

/** The config as the service stores it: the values it overrides set (see the module comment). */
export function serviceOverrides(plan: Plan, config: EndpointConfig): EndpointConfig {
  if (config.autoscaling_limit_min_cu > ALWAYS_ACTIVE_ABOVE_CU) return { ...config, suspend_timeout_seconds: -1 };
  if (plan === "free") return { ...config, suspend_timeout_seconds: 0 };
  return config;
}

/** `checkPlanSizes`, then `serviceOverrides`: what a validated config becomes on this account. */
export function settleConfig(plan: Plan | undefined, config: EndpointConfig, prefix: string): EndpointConfig {
  const p = plan ?? "paid";
  checkPlanSizes(p, config, prefix);
  return serviceOverrides(p, config);
}
