/**
 * The values a project's properties take, as data that Check, schema.json and the docs read from one place: the
 * documented regions, whole numbers in a range, and the named object types (the default compute's settings, the
 * default branch's names, the declared subset of the project's settings).
 */
import { BOOLEAN, INTEGER, NUMBER, ObjectType, STRING, STRING_LIST } from "../shared/declaration";
import { isSize, isSuspendTimeout } from "../shared/sizes";
import { describe, isBoolean, isString, isStringList, lengthBetween, matches, Validator } from "../shared/validators";

/** An integer from `min` to `max`, naming both. */
export const integerBetween =
  (min: number, max: number): Validator =>
  (v) =>
    Number.isInteger(v) && (v as number) >= min && (v as number) <= max
      ? undefined
      : `must be an integer from ${min} to ${max}, got ${describe(v)}`;

/** The regions of Neon's docs (Regions); a new one of the same shape is accepted (the service names the rest). */
export const REGIONS_DOCUMENTED = [
  "aws-us-east-1",
  "aws-us-east-2",
  "aws-us-west-2",
  "aws-eu-central-1",
  "aws-eu-west-2",
  "aws-ap-southeast-1",
  "aws-ap-southeast-2",
  "aws-sa-east-1",
  "azure-eastus2",
  "azure-westus3",
  "azure-gwc",
];
/** An organization id: OpenAPI ProjectCreateRequest.org_id's pattern, ^[a-z0-9-]{1,60}$ (`org-…`). */
export const isOrgId = matches(
  /^[a-z0-9-]{1,60}$/,
  "an organization id (`org-…`): 1 to 60 lowercase letters, digits and hyphens",
);

export const isRegion = matches(/^(aws|azure)-[a-z0-9-]+$/, `a region id such as ${REGIONS_DOCUMENTED.join(", ")}`);

/** OpenAPI `DefaultEndpointSettings`: the default compute's and every later compute's sizes and autosuspend. */
export const DEFAULT_ENDPOINT_SETTINGS: ObjectType = {
  token: "neon:index:ProjectDefaultEndpointSettings",
  argsType: "ProjectDefaultEndpointSettings",
  description:
    "The settings of the project's computes (OpenAPI DefaultEndpointSettings): the default compute's, and those of the computes made later.",
  fields: {
    autoscalingLimitMinCu: {
      api: "autoscaling_limit_min_cu",
      schema: NUMBER,
      rules: [isSize],
      description: "Minimum size in CU (0.25, 0.5, 1..16, even 18..56); set with autoscalingLimitMaxCu.",
    },
    autoscalingLimitMaxCu: {
      api: "autoscaling_limit_max_cu",
      schema: NUMBER,
      rules: [isSize],
      description: "Maximum size in CU (autoscaling up to 16 CU, at most 8 CU above the minimum).",
    },
    suspendTimeoutSeconds: {
      api: "suspend_timeout_seconds",
      schema: INTEGER,
      rules: [isSuspendTimeout],
      description: "Idle seconds before suspending: 0 = the default (300), -1 = never, else 60..604800.",
    },
  },
};

/** OpenAPI `ProjectCreateRequest.branch`: the names a new project gives its default branch, role and database. */
export const DEFAULT_BRANCH: ObjectType = {
  token: "neon:index:ProjectDefaultBranch",
  argsType: "ProjectDefaultBranch",
  description: "The names of the default branch, role and database a new project makes (set at creation only).",
  fields: {
    name: {
      api: "name",
      schema: STRING,
      rules: [isString, lengthBetween(1, 256)],
      description: "The default branch's name (default `main`), 1..256 characters.",
    },
    roleName: {
      api: "role_name",
      schema: STRING,
      rules: [isString, lengthBetween(1, 63)],
      description: "The default role's name (default `{databaseName}_owner`), at most 63 bytes.",
    },
    databaseName: {
      api: "database_name",
      schema: STRING,
      rules: [isString, lengthBetween(1, 63)],
      description: "The default database's name (default `neondb`), at most 63 bytes.",
    },
  },
};

/** The subset of OpenAPI `ProjectSettingsData` declared (see the module's doc); the bodies are changes.ts's. */
export const PROJECT_SETTINGS: ObjectType = {
  token: "neon:index:ProjectSettings",
  argsType: "ProjectSettings",
  description: "Project settings (a subset of OpenAPI ProjectSettingsData): the IP allowlist and logical replication.",
  fields: {
    allowedIps: {
      api: "allowed_ips",
      schema: STRING_LIST,
      rules: [isStringList],
      description:
        "The addresses, ranges or CIDR blocks allowed to connect (IP Allow; `allowed_ips.ips`); empty: any address.",
    },
    enableLogicalReplication: {
      api: "enable_logical_replication",
      schema: BOOLEAN,
      rules: [isBoolean],
      description:
        "Sets wal_level=logical on every compute: the running computes are suspended (their connections drop), and it cannot be turned off again (OpenAPI).",
    },
  },
};
