/**
 * A compute that follows the branch named in config. Changing `branchId` moves the compute: one PATCH of
 * its branch, same compute id, same host; nothing is replaced.
 *
 * Config: `projectId`, `branchId` (the target branch must not have a primary compute already).
 */
import * as pulumi from "@pulumi/pulumi";
import { Compute } from "pulumi-neon-dynamic";

const config = new pulumi.Config();

const db = new Compute("db", {
  projectId: config.require("projectId"),
  branchId: config.require("branchId"),
});

export const computeId = db.endpointId;
export const branchId = db.branchId;
export const host = db.host;
