/**
 * The package's part of `schema.json` that no resource declares: its name and description, the provider's
 * configuration (client/config.ts reads the same keys: test/schema checks them), the functions and their types, and the
 * languages' settings. The resources and their enumerations come from their declarations (provider/declarations.ts);
 * `npm run generate` (scripts/generate.ts) puts the two together. The version is package.json's.
 */
import { LOOKUP_FUNCTIONS, LOOKUP_TYPES } from "./functions/lookups-schema";

export const PACKAGE_HEADER = {
  name: "neon",
  displayName: "Neon",
  description:
    "Pulumi resources for Neon's serverless Postgres management API: branches, computes, roles, databases and API keys, a role's password and the project list. Served by the native plugin pulumi-resource-neon (every Pulumi language, through the generated SDKs or YAML) and, for Node.js programs, as dynamic resources by the npm package pulumi-neon-dynamic.",
  license: "Apache-2.0",
  keywords: ["pulumi", "neon", "postgres", "serverless", "category/database"],
};

export const PACKAGE_CONFIG = {
  variables: {
    apiKey: {
      type: "string",
      secret: true,
      description:
        "Neon API key. Set it with `pulumi config set --secret neon:apiKey <key>`, else the NEON_API_KEY environment variable is used. Only the `neon:` namespace is read: a program's own `apiKey` setting is never sent to Neon. `pulumi refresh` and `pulumi destroy` use the key saved by the last `pulumi up`.",
      defaultInfo: {
        environment: ["NEON_API_KEY"],
      },
    },
    apiUrl: {
      type: "string",
      default: "https://console.neon.tech/api/v2",
      description:
        "Base URL of the management API (for example a local emulator). Else the NEON_API_HOST environment variable, else https://console.neon.tech/api/v2.",
      defaultInfo: {
        environment: ["NEON_API_HOST"],
      },
    },
    waitTimeoutSeconds: {
      type: "number",
      default: 300,
      description:
        "How long a step waits for the service's operations, in seconds. Else the NEON_WAIT_TIMEOUT_SECONDS environment variable, else 300.",
      defaultInfo: {
        environment: ["NEON_WAIT_TIMEOUT_SECONDS"],
      },
    },
  },
};

/**
 * The provider resource's inputs: the configuration's settings, for an explicit provider (`new neon.Provider("other",
 * { apiKey })` in a generated SDK), whose inputs the plugin's Configure reads before the stack's `neon:*` configuration
 * (native/configure.ts). Without it the SDKs' Provider classes take no arguments. Without the settings' defaults: with
 * them, the generated classes would read NEON_API_KEY in the program and send it as an input that is not a secret, so
 * the key would land in the state in plain text; the plugin falls back to the same variables itself.
 */
export const PACKAGE_PROVIDER = {
  description: "The provider of Neon's resources: a Neon account's API key and the API's URL.",
  inputProperties: Object.fromEntries(
    Object.entries(PACKAGE_CONFIG.variables).map(([name, spec]) => [
      name,
      { type: spec.type, ...("secret" in spec ? { secret: spec.secret } : {}), description: spec.description },
    ]),
  ),
};

/** The types the functions use (the resources' enumerations come from their declarations). */
export const FUNCTION_TYPES = {
  "neon:index:ProjectSummary": {
    type: "object",
    description: "A project as listed.",
    properties: {
      id: {
        type: "string",
        description: "The project's id.",
      },
      projectId: {
        type: "string",
        description: "The project's id again, under the name the Project resource and getProject give it.",
      },
      name: {
        type: "string",
        description: "The project's name.",
      },
      platformId: {
        type: "string",
        description: "The cloud platform (aws, azure).",
      },
      regionId: {
        type: "string",
        description: "The project's region.",
      },
      provisioner: {
        type: "string",
        description: "The project's default provisioner: `k8s-pod`, `k8s-neonvm` or `serverless-platform`.",
      },
      pgVersion: {
        type: "integer",
        description: "Postgres major version.",
      },
      proxyHost: {
        type: "string",
        description: "The region's proxy host.",
      },
      createdAt: {
        type: "string",
        description: "Creation time (ISO 8601).",
      },
      updatedAt: {
        type: "string",
        description: "Last update time (ISO 8601).",
      },
    },
    required: ["id", "projectId", "name", "regionId"],
  },
  ...LOOKUP_TYPES,
};

export const FUNCTIONS = {
  "neon:index:getProjects": {
    description: "Every project of the account matching the arguments, across all pages.",
    inputs: {
      properties: {
        search: {
          type: "string",
          description: "Only projects whose name or id contains this text.",
        },
        orgId: {
          type: "string",
          description: "Only projects of this organization.",
        },
      },
    },
    outputs: {
      properties: {
        projects: {
          type: "array",
          items: {
            $ref: "#/types/neon:index:ProjectSummary",
          },
          description: "The matching projects.",
        },
      },
      required: ["projects"],
    },
  },
  "neon:index:getRolePassword": {
    description:
      "The password of a role the program does not manage, such as one a branch inherited from its parent, read with Neon's reveal_password (one request on every preview and up). Through getRolePasswordOutput the result is a secret.",
    inputs: {
      properties: {
        projectId: {
          type: "string",
          description: "The role's project.",
        },
        branchId: {
          type: "string",
          description: "The role's branch.",
        },
        roleName: {
          type: "string",
          description: "The role's name, e.g. `neondb_owner`.",
        },
      },
      required: ["projectId", "branchId", "roleName"],
    },
    outputs: {
      properties: {
        password: {
          type: "string",
          description: "The role's password. Through getRolePasswordOutput, a secret.",
          secret: true,
        },
      },
      required: ["password"],
    },
  },
  ...LOOKUP_FUNCTIONS,
};

/**
 * The generated SDKs' settings (`npm run generate` writes sdk/nodejs, sdk/go, sdk/python from them: scripts/sdks.ts).
 * The SDKs are classes over the native plugin (bin/pulumi-resource-neon), so each takes a name of its own: the
 * Node.js SDK is not the npm package pulumi-neon-dynamic (the dynamic resources and the plugin). The GitHub path is a
 * placeholder until the repository has a public home; the Go module in sdk/go/neon carries it. Every SDK takes
 * schema.json's version (package.json's), as the plugin does.
 */
export const LANGUAGE = {
  nodejs: {
    packageName: "@pulumi-neon/neon",
    packageDescription: "Pulumi resources for Neon's management API, served by the native plugin pulumi-resource-neon.",
    respectSchemaVersion: true,
  },
  go: {
    importBasePath: "github.com/pulumi-neon/pulumi-neon/sdk/go/neon",
    generateResourceContainerTypes: true,
    respectSchemaVersion: true,
  },
  python: {
    packageName: "pulumi_neon",
    pyproject: { enabled: true },
    respectSchemaVersion: true,
  },
};
