/**
 * The lookups' part of schema.json (provider/package-schema.ts adds it to the package's functions and types): each
 * list's element type is its resource's lookup fields (lookup.ts), rows and descriptions taken from the resource's
 * declaration, so the SDKs' element types and the resources' outputs cannot drift apart; getProject's result is its
 * own rows (get-project.ts).
 */
import { BRANCH } from "../branch/declaration";
import { COMPUTE } from "../compute/declaration";
import { DATABASE } from "../database/declaration";
import { ROLE } from "../role/declaration";
import { Declaration } from "../shared/declaration";
import { PROJECT_FIELDS } from "./get-project";
import { lookupRows, rowsSchema } from "./lookup";

type Json = Record<string, unknown>;

const string = (description: string) => ({ type: "string", description });
const PROJECT_ID = string("The project's id.");
const BRANCH_ID = string("The branch's id (`br-…`).");

/** A resource's element type: its lookup fields, as an object type. */
const elementType = (declaration: Declaration, description: string): Json => ({
  type: "object",
  description,
  ...rowsSchema(lookupRows(declaration)),
});

/**
 * The lookups' element types: the resource whose lookup fields each holds, and the file of its TypeScript interface,
 * which `npm run generate` writes from the same rows (shared/class-of.ts).
 */
export const LOOKUP_ELEMENTS = [
  {
    name: "BranchInfo",
    declaration: BRANCH,
    file: "provider/functions/get-branch.ts",
    description: "A branch as a lookup gives it: a Branch resource's outputs.",
  },
  {
    name: "ComputeInfo",
    declaration: COMPUTE,
    file: "provider/functions/get-computes.ts",
    description: "A compute as a lookup gives it: a Compute resource's outputs.",
  },
  {
    name: "RoleInfo",
    declaration: ROLE,
    file: "provider/functions/get-roles.ts",
    description: "A role as a lookup gives it: a Role resource's outputs but the password (getRolePassword reads one).",
  },
  {
    name: "DatabaseInfo",
    declaration: DATABASE,
    file: "provider/functions/get-databases.ts",
    description: "A database as a lookup gives it: a Database resource's outputs.",
  },
];

/** The element types, by token. */
export const LOOKUP_TYPES: Record<string, Json> = Object.fromEntries(
  LOOKUP_ELEMENTS.map(({ name, declaration, description }) => [
    `neon:index:${name}`,
    elementType(declaration, description),
  ]),
);

/** A list result: `{ <plural>: <element>[] }`, required. */
const listOf = (plural: string, token: string, description: string): Json => ({
  properties: { [plural]: { type: "array", items: { $ref: `#/types/${token}` }, description } },
  required: [plural],
});

const inputs = (properties: Json, required: string[]): Json => ({ properties, required });

/** The lookups, by token. */
export const LOOKUP_FUNCTIONS: Record<string, Json> = {
  "neon:index:getProject": {
    description:
      "A project by id: its fields in camelCase (projectId, name, regionId, pgVersion, orgId, historyRetentionSeconds, …) and its default branch's id. A project that does not answer is an error naming it.",
    inputs: inputs({ projectId: PROJECT_ID }, ["projectId"]),
    outputs: rowsSchema(PROJECT_FIELDS),
  },
  "neon:index:getBranch": {
    description:
      "One branch of a project, by id or by name (exactly one of them), with a Branch resource's outputs. A branch the project lacks is an error naming it and the project.",
    inputs: inputs(
      {
        projectId: string("The branch's project."),
        branchId: string("The branch's id (`br-…`); not with name."),
        name: string("The branch's name; not with branchId."),
      },
      ["projectId"],
    ),
    outputs: rowsSchema(lookupRows(BRANCH)),
  },
  "neon:index:getBranches": {
    description: "Every branch of a project (its list read to the last page), each with a Branch resource's outputs.",
    inputs: inputs({ projectId: PROJECT_ID }, ["projectId"]),
    outputs: listOf(
      "branches",
      "neon:index:BranchInfo",
      "Every branch of the project, newest first (the service's order by creation time).",
    ),
  },
  "neon:index:getComputes": {
    description:
      "The computes of a project, or of one of its branches, each with a Compute resource's outputs (poolerHost and maxConnections included).",
    inputs: inputs({ projectId: PROJECT_ID, branchId: string("Only the computes of this branch (`br-…`).") }, [
      "projectId",
    ]),
    outputs: listOf("computes", "neon:index:ComputeInfo", "The computes of the project, or of the branch."),
  },
  "neon:index:getRoles": {
    description:
      "The Postgres roles of a branch, each with a Role resource's outputs but the password (getRolePassword reads one).",
    inputs: inputs({ projectId: PROJECT_ID, branchId: BRANCH_ID }, ["projectId", "branchId"]),
    outputs: listOf("roles", "neon:index:RoleInfo", "The branch's roles, without passwords."),
  },
  "neon:index:getDatabases": {
    description: "The databases of a branch, each with a Database resource's outputs.",
    inputs: inputs({ projectId: PROJECT_ID, branchId: BRANCH_ID }, ["projectId", "branchId"]),
    outputs: listOf("databases", "neon:index:DatabaseInfo", "The branch's databases."),
  },
};
