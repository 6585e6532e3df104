/**
 * An autoscaling compute whose size range comes from config. Changing `minCu` or `maxCu` is an in-place
 * update, and the preview warns that the compute restarts and its open connections drop.
 *
 * Config: `projectId`, `branchId`, optional `minCu` (default 0.25) and `maxCu` (default 2).
 */
import * as pulumi from "@pulumi/pulumi";
import { Compute } from "pulumi-neon-dynamic";

const config = new pulumi.Config();

const app = new Compute("app", {
  projectId: config.require("projectId"),
  branchId: config.require("branchId"),
  autoscalingLimitMinCu: config.getNumber("minCu") ?? 0.25,
  autoscalingLimitMaxCu: config.getNumber("maxCu") ?? 2,
});

export const host = app.host;
export const minCu = app.autoscalingLimitMinCu;
export const maxCu = app.autoscalingLimitMaxCu;
/** Fixed by the minimum size, not by the current size under autoscaling. */
export const maxConnections = app.maxConnections;
