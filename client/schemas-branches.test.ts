/**
 * The zod schemas of schemas-branches.ts and schemas-roles-databases.ts against the official full OpenAPI document
 * (`../shared/reference/neon-openapi.yaml`): every field they name exists there, what it marks required is required
 * here (but for the exceptions written down in schemas-branches.ts), and its examples parse. Guards against a field
 * typed from memory (`parentId`, `owner`), and against a schema that quietly drops a requirement the document states.
 */
import * as fs from "fs";
import * as path from "path";
import { parse } from "yaml";
import { z } from "zod";
import * as branchSchemas from "./schemas-branches";
import * as roleSchemas from "./schemas-roles-databases";

const schemas = { ...branchSchemas, ...roleSchemas };

type Json = Record<string, unknown>;

function repoRoot(dir: string = __dirname): string {
  return fs.existsSync(path.join(dir, "package.json")) ? dir : repoRoot(path.dirname(dir));
}

const document = parse(
  fs.readFileSync(path.join(repoRoot(), "..", "shared", "reference", "neon-openapi.yaml"), "utf8"),
) as Json;
const components = (document.components as Json).schemas as Record<string, Json>;

/** A component, or one object property of it (`BranchUpdateRequest.branch`). */
function component(ref: string): Json {
  const [name, property] = ref.split(".");
  const schema = components[name];
  return property ? ((schema.properties as Json)[property] as Json) : schema;
}

/** Keys of a zod object that a body must hold (neither optional nor defaulted). */
function requiredKeys(schema: z.ZodObject): string[] {
  return Object.entries(schema.shape)
    .filter(([, field]) => !(field as z.ZodType).safeParse(undefined).success)
    .map(([key]) => key)
    .sort();
}

/** [zod schema, component, fields the document requires that are optional here (schemas-branches.ts says why)]. */
const PAIRS: [string, z.ZodObject, string, string[]][] = [
  ["Branch", schemas.Branch, "Branch", ["cpu_used_sec"]],
  ["BranchCreateFields", schemas.BranchCreateFields, "BranchCreateRequest.branch", []],
  ["BranchEndpointOptions", schemas.BranchEndpointOptions, "BranchCreateRequestEndpointOptions", []],
  ["BranchUpdate", schemas.BranchUpdate, "BranchUpdateRequest.branch", []],
  ["BranchUpdateRequest", schemas.BranchUpdateRequest, "BranchUpdateRequest", []],
  ["BranchRestoreRequest", schemas.BranchRestoreRequest, "BranchRestoreRequest", []],
  ["Annotation", schemas.Annotation, "AnnotationData", []],
  ["Role", schemas.Role, "Role", []],
  ["RoleCreate", schemas.RoleCreate, "RoleCreateRequest.role", []],
  ["RoleCreateRequest", schemas.RoleCreateRequest, "RoleCreateRequest", []],
  ["RolePasswordResponse", schemas.RolePasswordResponse, "RolePasswordResponse", []],
  ["Database", schemas.Database, "Database", []],
  ["DatabaseCreate", schemas.DatabaseCreate, "DatabaseCreateRequest.database", []],
  ["DatabaseCreateRequest", schemas.DatabaseCreateRequest, "DatabaseCreateRequest", []],
  ["DatabaseUpdate", schemas.DatabaseUpdate, "DatabaseUpdateRequest.database", []],
  ["DatabaseUpdateRequest", schemas.DatabaseUpdateRequest, "DatabaseUpdateRequest", []],
  ["ConnectionDetails", schemas.ConnectionDetails, "ConnectionDetails", []],
  ["ConnectionURIResponse", schemas.ConnectionURIResponse, "ConnectionURIResponse", []],
];

describe.each(PAIRS)("%s against the document's %s", (_, schema, ref, optionalHere) => {
  const doc = component(ref);
  it("names only fields the document has", () => {
    const documented = Object.keys(doc.properties as Json);
    expect(Object.keys(schema.shape).filter((key) => !documented.includes(key))).toEqual([]);
  });
  it("requires what the document requires (and nothing else)", () => {
    const required = ((doc.required as string[] | undefined) ?? []).filter((k) => !optionalHere.includes(k));
    expect(requiredKeys(schema)).toEqual([...required].sort());
  });
  if (doc.example !== undefined) {
    it("parses the document's example", () => {
      expect(schema.safeParse(doc.example).success).toBe(true);
    });
  }
});

describe("documented exceptions", () => {
  it("get's annotation is optional here (required in AnnotationResponse): a branch nobody annotated has none", () => {
    expect(components.AnnotationResponse.required).toEqual(["annotation"]);
    const branch = component("Branch").example;
    expect(schemas.BranchWithAnnotation.parse({ branch }).annotation).toBeUndefined();
  });
  it("an update may send expires_at: null (removes the expiration)", () => {
    expect((component("BranchUpdateRequest.branch").properties as Record<string, Json>).expires_at.nullable).toBe(true);
    expect(schemas.BranchUpdateRequest.parse({ branch: { expires_at: null } }).branch.expires_at).toBeNull();
  });
  it("a branch lacking a required field fails naming it", () => {
    const { state_changed_at: _dropped, ...branch } = component("Branch").example as Json;
    const result = schemas.Branch.safeParse(branch);
    expect(result.success).toBe(false);
    expect(result.error?.issues[0].path).toEqual(["state_changed_at"]);
  });
  it("tolerates fields the service adds, stripping them", () => {
    const role = { ...(component("Role").example as Json), brand_new: 1 };
    expect(schemas.Role.parse(role)).not.toHaveProperty("brand_new");
  });
  it("an annotation holds at most 50 properties", () => {
    const value = (n: number) => Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, "v"]));
    expect(schemas.AnnotationValue.safeParse(value(50)).success).toBe(true);
    expect(schemas.AnnotationValue.safeParse(value(51)).success).toBe(false);
  });
});
