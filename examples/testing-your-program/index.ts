/**
 * The Pulumi program: the infrastructure of database.ts, with its settings from the stack config.
 *
 * Config: `projectId`, `branchId`, optional `primaryCu` (default 1); `neon:apiKey` (secret) and `neon:apiUrl`.
 */
import * as pulumi from "@pulumi/pulumi";
import { database } from "./database";

const config = new pulumi.Config();
const outputs = database({
  projectId: config.require("projectId"),
  branchId: config.require("branchId"),
  primaryCu: config.getNumber("primaryCu") ?? 1,
});

export const primaryHost = outputs.primaryHost;
export const replicaHost = outputs.replicaHost;
export const deployKey = outputs.deployKey;
