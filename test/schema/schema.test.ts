/**
 * schema.json against the TypeScript surface, property by property: a property added to ComputeArgs, an
 * Output added to a class, a changed optionality or type, or a config key read by client/config.ts that the
 * schema does not declare, fails here instead of shipping a schema that lies.
 *
 * The surface is read from the sources with the TypeScript compiler API (syntax only: `pulumi.Input<T>` and
 * `pulumi.Output<T>` are unwrapped, unions of literals become their primitive, `| undefined` and `| null` make
 * a member optional).
 */
import * as fs from "fs";
import * as path from "path";
import * as ts from "typescript";
import * as pulumi from "@pulumi/pulumi";
import { ApiKey, Branch, Compute, Database, Project, Role } from "../../provider";
import { API_KEY } from "../../provider/api-key/declaration";
import { BRANCH } from "../../provider/branch/declaration";
import { COMPUTE } from "../../provider/compute/declaration";
import { DATABASE } from "../../provider/database/declaration";
import { ROLE } from "../../provider/role/declaration";
import { CONFIG_KEYS } from "../../client";
import { REPO_ROOT } from "../plugin/world";

/* eslint-disable @typescript-eslint/no-explicit-any */
type Kind = "string" | "number" | "boolean" | "array" | "object";
interface Member {
  kind: Kind;
  optional: boolean;
}
type Members = Record<string, Member>;

const schema = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "schema.json"), "utf8"));
const source = (file: string) => {
  const fileName = path.join(REPO_ROOT, file);
  return ts.createSourceFile(fileName, fs.readFileSync(fileName, "utf8"), ts.ScriptTarget.Latest, true);
};

function declarationNamed<T extends ts.Node>(file: ts.SourceFile, name: string, is: (n: ts.Node) => n is T): T {
  const found = file.statements.find((s) => is(s) && (s as any).name?.text === name);
  if (!found) throw new Error(`${name} not found in ${file.fileName}`);
  return found as unknown as T;
}

/**
 * Members of an exported interface (the args types); of `type X = InputsOf<Y>` (an Output form's arguments, each an
 * Input: shared/program-client.ts), Y's.
 */
function interfaceMembers(file: string, name: string): Members {
  const alias = source(file).statements.find((s) => ts.isTypeAliasDeclaration(s) && s.name.text === name);
  if (alias && ts.isTypeAliasDeclaration(alias) && isWrapped(alias.type, "InputsOf"))
    return interfaceMembers(file, alias.type.typeArguments![0].getText());
  const decl = declarationNamed(source(file), name, ts.isInterfaceDeclaration);
  const members: Members = {};
  for (const m of decl.members.filter(ts.isPropertySignature)) {
    const { kind, nullable } = kindOf(m.type!);
    members[m.name.getText()] = { kind, optional: !!m.questionToken || nullable };
  }
  return members;
}

/** The `declare readonly x: pulumi.Output<T>` members of a resource class. */
function outputMembers(file: string, name: string): Members {
  const decl = declarationNamed(source(file), name, ts.isClassDeclaration);
  const members: Members = {};
  for (const m of decl.members.filter(ts.isPropertyDeclaration)) {
    if (!m.type || !isWrapped(m.type, "Output")) continue;
    const { kind, nullable } = kindOf(m.type);
    members[m.name.getText()] = { kind, optional: !!m.questionToken || nullable };
  }
  return members;
}

function isWrapped(type: ts.TypeNode, wrapper: string): type is ts.TypeReferenceNode {
  return ts.isTypeReferenceNode(type) && type.typeName.getText().replace(/^pulumi\./, "") === wrapper;
}

/** The kind of a type node, and whether it admits undefined or null. */
function kindOf(type: ts.TypeNode): { kind: Kind; nullable: boolean } {
  if ((isWrapped(type, "Input") || isWrapped(type, "Output")) && type.typeArguments)
    return kindOf(type.typeArguments[0]);
  if (ts.isParenthesizedTypeNode(type)) return kindOf(type.type);
  if (ts.isUnionTypeNode(type)) {
    const parts = type.types.filter((t) => !isNullish(t));
    const kinds = new Set(parts.map((t) => kindOf(t).kind));
    if (kinds.size !== 1) throw new Error(`mixed union ${type.getText()}`);
    return { kind: [...kinds][0], nullable: parts.length < type.types.length };
  }
  return { kind: simpleKind(type), nullable: false };
}

function isNullish(type: ts.TypeNode): boolean {
  if (type.kind === ts.SyntaxKind.UndefinedKeyword) return true;
  return ts.isLiteralTypeNode(type) && type.literal.kind === ts.SyntaxKind.NullKeyword;
}

function simpleKind(type: ts.TypeNode): Kind {
  if (type.kind === ts.SyntaxKind.StringKeyword) return "string";
  if (type.kind === ts.SyntaxKind.NumberKeyword) return "number";
  if (type.kind === ts.SyntaxKind.BooleanKeyword) return "boolean";
  if (ts.isLiteralTypeNode(type)) return typeof JSON.parse(type.literal.getText()) as Kind;
  if (ts.isArrayTypeNode(type)) return "array";
  if (ts.isTypeReferenceNode(type) && type.typeName.getText() === "Record") return "object";
  if (ts.isTypeReferenceNode(type) && isInterfaceOfFile(type)) return "object";
  if (ts.isTypeLiteralNode(type)) return "object";
  throw new Error(`unhandled type ${type.getText()}`);
}

/**
 * A reference to an interface the same file declares (a named object type's, `PreloadLibrariesArgs`), or imports as a
 * type (a lookup's `PreloadLibraries`, Compute's).
 */
function isInterfaceOfFile(type: ts.TypeReferenceNode): boolean {
  const name = type.typeName.getText();
  const imported = (s: ts.Statement) =>
    ts.isImportDeclaration(s) &&
    s.importClause?.isTypeOnly === true &&
    s.importClause.namedBindings !== undefined &&
    ts.isNamedImports(s.importClause.namedBindings) &&
    s.importClause.namedBindings.elements.some((e) => e.name.text === name);
  return type
    .getSourceFile()
    .statements.some((s) => (ts.isInterfaceDeclaration(s) && s.name.text === name) || imported(s));
}

/** The kind a schema property spec describes, following `$ref`s into the schema's types. */
function schemaKind(spec: any): Kind {
  if (spec.$ref?.startsWith("#/types/")) return schemaKind(schema.types[spec.$ref.slice("#/types/".length)]);
  if (spec.type === "integer") return "number";
  return spec.type;
}

/** Schema properties as Members: optional unless listed as required. */
function schemaMembers(properties: Record<string, any>, required: string[] = []): Members {
  const members: Members = {};
  for (const [name, spec] of Object.entries(properties)) {
    members[name] = { kind: schemaKind(spec), optional: !required.includes(name) };
  }
  return members;
}

function expectEveryDescribed(properties: Record<string, any>): void {
  for (const [name, spec] of Object.entries(properties)) expect(`${name}: ${spec.description ?? ""}`).toMatch(/: \S/);
}

/** The additionalSecretOutputs a resource class sends to the engine when constructed (the engine encrypts those). */
async function registeredSecretOutputs(construct: () => pulumi.Resource): Promise<string[]> {
  const { MockMonitor } = require("@pulumi/pulumi/runtime/mocks");
  const settings = require("@pulumi/pulumi/runtime/settings");
  const seen: string[][] = [];
  const monitor = new MockMonitor({
    newResource: async (args: any) => ({ id: "id", state: args.inputs }),
    call: () => ({}),
  });
  const register = monitor.registerResource.bind(monitor);
  monitor.registerResource = (req: any, callback: any) => {
    seen.push(req.getAdditionalsecretoutputsList());
    return register(req, callback);
  };
  settings.setMockOptions(monitor, "project", "stack", true);
  construct();
  await settings.waitForRPCs();
  return seen[0];
}

describe("schema.json agrees with the TypeScript surface", () => {
  const compute = schema.resources["neon:index:Compute"];
  const apiKey = schema.resources["neon:index:ApiKey"];
  const branch = schema.resources["neon:index:Branch"];
  const role = schema.resources["neon:index:Role"];
  const database = schema.resources["neon:index:Database"];
  const project = schema.resources["neon:index:Project"];
  const getProjects = schema.functions["neon:index:getProjects"];
  const getRolePassword = schema.functions["neon:index:getRolePassword"];

  it("names the package neon, with the six resources and the eight functions (connectionUri, no request, is none)", () => {
    expect(schema.name).toBe("neon");
    expect(Object.keys(schema.resources).sort()).toEqual([
      "neon:index:ApiKey",
      "neon:index:Branch",
      "neon:index:Compute",
      "neon:index:Database",
      "neon:index:Project",
      "neon:index:Role",
    ]);
    expect(Object.keys(schema.functions).sort()).toEqual([
      "neon:index:getBranch",
      "neon:index:getBranches",
      "neon:index:getComputes",
      "neon:index:getDatabases",
      "neon:index:getProject",
      "neon:index:getProjects",
      "neon:index:getRolePassword",
      "neon:index:getRoles",
    ]);
  });

  it("carries the package's version, and every example installs the package from this repository as written", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8"));
    expect(schema.version).toBe(pkg.version);
    const examples = fs.readdirSync(path.join(REPO_ROOT, "examples"));
    for (const example of examples) {
      const manifest = path.join(REPO_ROOT, "examples", example, "package.json");
      if (!fs.existsSync(manifest)) continue;
      const { dependencies } = JSON.parse(fs.readFileSync(manifest, "utf8"));
      // The package is not on the npm registry: a version range there made `npm install` fail with a 404.
      expect(`${example}: ${dependencies["pulumi-neon-dynamic"]}`).toBe(`${example}: file:../..`);
      // The same range as the package's, so npm can install one copy of @pulumi/pulumi for both.
      expect(`${example}: ${dependencies["@pulumi/pulumi"]}`).toBe(`${example}: ${pkg.dependencies["@pulumi/pulumi"]}`);
    }
  });

  it("takes @pulumi/pulumi as a range (a program's copy is used, not a second one) and ships the license it names", () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8"));
    expect(pkg.dependencies["@pulumi/pulumi"]).toMatch(/^\^3\.\d+\.\d+$/);
    expect(pkg.license).toBe("Apache-2.0");
    const license = fs.readFileSync(path.join(REPO_ROOT, "LICENSE"), "utf8");
    expect(license).toMatch(/^\s*Apache License\s+Version 2\.0, January 2004/);
    expect(license).toContain("END OF TERMS AND CONDITIONS");
  });

  it("Compute inputs are ComputeArgs, member by member (name, kind, required)", () => {
    expect(schemaMembers(compute.inputProperties, compute.requiredInputs)).toEqual(
      interfaceMembers("provider/compute/resource.ts", "ComputeArgs"),
    );
  });

  it("Compute outputs are the class's declared Outputs", () => {
    expect(schemaMembers(compute.properties, compute.required)).toEqual(
      outputMembers("provider/compute/resource.ts", "Compute"),
    );
  });

  it("Compute's named object type PreloadLibraries is PreloadLibrariesArgs (inputs) and PreloadLibraries (outputs)", () => {
    expect(compute.inputProperties.preloadLibraries.$ref).toBe("#/types/neon:index:PreloadLibraries");
    expect(compute.properties.preloadLibraries.$ref).toBe("#/types/neon:index:PreloadLibraries");
    const type = schema.types["neon:index:PreloadLibraries"];
    expect(type.type).toBe("object");
    const file = "provider/compute/resource.ts";
    expect(schemaMembers(type.properties, type.required)).toEqual(interfaceMembers(file, "PreloadLibrariesArgs"));
    expect(schemaMembers(type.properties, type.required)).toEqual(interfaceMembers(file, "PreloadLibraries"));
  });

  it("ApiKey inputs and outputs match ApiKeyArgs and the class", () => {
    expect(schemaMembers(apiKey.inputProperties, apiKey.requiredInputs)).toEqual(
      interfaceMembers("provider/api-key/resource.ts", "ApiKeyArgs"),
    );
    expect(schemaMembers(apiKey.properties, apiKey.required)).toEqual(
      outputMembers("provider/api-key/resource.ts", "ApiKey"),
    );
  });

  it("ApiKey's scope: orgId and projectId are optional inputs, projectId an output, as is every API_KEY.outputs name", () => {
    expect(schemaMembers(apiKey.inputProperties, apiKey.requiredInputs)).toMatchObject({
      orgId: { kind: "string", optional: true },
      projectId: { kind: "string", optional: true },
    });
    expect(apiKey.inputProperties.projectId.description).toMatch(/requires orgId/);
    expect(schemaMembers(apiKey.properties, apiKey.required)).toMatchObject({
      orgId: { kind: "string", optional: true },
      projectId: { kind: "string", optional: true },
    });
    for (const name of Object.keys(API_KEY.outputs)) expect(Object.keys(apiKey.properties)).toContain(name);
  });

  it("Branch inputs and outputs match BranchArgs and the class, every BRANCH.outputs name an output", () => {
    expect(schemaMembers(branch.inputProperties, branch.requiredInputs)).toEqual(
      interfaceMembers("provider/branch/resource.ts", "BranchArgs"),
    );
    expect(schemaMembers(branch.properties, branch.required)).toEqual(
      outputMembers("provider/branch/resource.ts", "Branch"),
    );
    expect(Object.keys(branch.properties)).toEqual([...Object.keys(BRANCH.outputs)]);
  });

  it("Role inputs and outputs match RoleArgs and the class, every ROLE.outputs name an output", () => {
    expect(schemaMembers(role.inputProperties, role.requiredInputs)).toEqual(
      interfaceMembers("provider/role/resource.ts", "RoleArgs"),
    );
    expect(schemaMembers(role.properties, role.required)).toEqual(outputMembers("provider/role/resource.ts", "Role"));
    expect(Object.keys(role.properties)).toEqual([...Object.keys(ROLE.outputs)]);
  });

  it("Database inputs and outputs match DatabaseArgs and the class, every DATABASE.outputs name an output", () => {
    expect(schemaMembers(database.inputProperties, database.requiredInputs)).toEqual(
      interfaceMembers("provider/database/resource.ts", "DatabaseArgs"),
    );
    expect(schemaMembers(database.properties, database.required)).toEqual(
      outputMembers("provider/database/resource.ts", "Database"),
    );
    expect(Object.keys(database.properties)).toEqual([...Object.keys(DATABASE.outputs)]);
  });

  it("getRolePassword inputs and result match GetRolePasswordArgs and GetRolePasswordResult", () => {
    const file = "provider/functions/get-role-password.ts";
    expect(schemaMembers(getRolePassword.inputs.properties, getRolePassword.inputs.required)).toEqual(
      interfaceMembers(file, "GetRolePasswordArgs"),
    );
    // getRolePasswordOutput takes the same arguments, each an Input.
    expect(schemaMembers(getRolePassword.inputs.properties, getRolePassword.inputs.required)).toEqual(
      interfaceMembers(file, "GetRolePasswordOutputArgs"),
    );
    expect(schemaMembers(getRolePassword.outputs.properties, getRolePassword.outputs.required)).toEqual(
      interfaceMembers(file, "GetRolePasswordResult"),
    );
  });

  it("getProjects inputs, result and project summary match GetProjectsArgs, GetProjectsResult and ProjectSummary", () => {
    const file = "provider/functions/get-projects.ts";
    expect(schemaMembers(getProjects.inputs.properties, getProjects.inputs.required)).toEqual(
      interfaceMembers(file, "GetProjectsArgs"),
    );
    expect(schemaMembers(getProjects.outputs.properties, getProjects.outputs.required)).toEqual(
      interfaceMembers(file, "GetProjectsResult"),
    );
    const summary = schema.types["neon:index:ProjectSummary"];
    expect(schemaMembers(summary.properties, summary.required)).toEqual(interfaceMembers(file, "ProjectSummary"));
  });

  describe.each([
    ["getProject", "get-project.ts", "GetProjectArgs", "GetProjectOutputArgs", "GetProjectResult"],
    ["getBranch", "get-branch.ts", "GetBranchArgs", "GetBranchOutputArgs", "BranchInfo"],
    ["getBranches", "get-branch.ts", "GetBranchesArgs", "GetBranchesOutputArgs", "GetBranchesResult"],
    ["getComputes", "get-computes.ts", "GetComputesArgs", "GetComputesOutputArgs", "GetComputesResult"],
    ["getRoles", "get-roles.ts", "GetRolesArgs", "GetRolesOutputArgs", "GetRolesResult"],
    ["getDatabases", "get-databases.ts", "GetDatabasesArgs", "GetDatabasesOutputArgs", "GetDatabasesResult"],
  ])("the lookup %s", (name, file, args, outputArgs, result) => {
    const fn = schema.functions[`neon:index:${name}`];
    const path = `provider/functions/${file}`;
    it(`takes ${args} (and ${outputArgs}, each an Input) and gives ${result}`, () => {
      expect(schemaMembers(fn.inputs.properties, fn.inputs.required)).toEqual(interfaceMembers(path, args));
      expect(schemaMembers(fn.inputs.properties, fn.inputs.required)).toEqual(interfaceMembers(path, outputArgs));
      expect(schemaMembers(fn.outputs.properties, fn.outputs.required)).toEqual(interfaceMembers(path, result));
    });
  });

  it.each([
    ["BranchInfo", "get-branch.ts", Object.keys(BRANCH.outputs)],
    ["ComputeInfo", "get-computes.ts", Object.keys(COMPUTE.outputs)],
    ["RoleInfo", "get-roles.ts", Object.keys(ROLE.outputs)],
    ["DatabaseInfo", "get-databases.ts", Object.keys(DATABASE.outputs)],
  ])(
    "a lookup's %s is its TypeScript interface, its fields the resource's outputs in their order",
    (type, file, outputs) => {
      const element = schema.types[`neon:index:${type}`];
      expect(schemaMembers(element.properties, element.required)).toEqual(
        interfaceMembers(`provider/functions/${file}`, type),
      );
      expect(Object.keys(element.properties)).toEqual(outputs.filter((name) => name in element.properties));
    },
  );

  it("a lookup's element leaves out the provider's own records and the secrets, and nothing else", () => {
    const left = (type: string, outputs: readonly string[]) =>
      outputs.filter((name) => !(name in schema.types[`neon:index:${type}`].properties));
    expect(left("BranchInfo", Object.keys(BRANCH.outputs))).toEqual(["resetTriggers", "adoptId", "resourceName"]);
    expect(left("ComputeInfo", Object.keys(COMPUTE.outputs))).toEqual([
      "restartTriggers",
      "adoptId",
      "resourceName",
      "ownerTag",
    ]);
    expect(left("RoleInfo", Object.keys(ROLE.outputs))).toEqual(["passwordTriggers", "password", "adoptId"]);
    expect(left("DatabaseInfo", Object.keys(DATABASE.outputs))).toEqual(["adoptId"]);
  });

  it("enums list exactly the literal values the TypeScript types allow", () => {
    const values = (token: string) => schema.types[token].enum.map((e: any) => e.value);
    const literals = (member: string, file = "provider/compute/resource.ts", args = "ComputeArgs") => {
      const decl = declarationNamed(source(file), args, ts.isInterfaceDeclaration);
      const m = decl.members.find((x) => x.name?.getText() === member) as ts.PropertySignature;
      return [...m.type!.getText().matchAll(/"([^"]+)"/g)].map((x) => x[1]);
    };
    expect(values("neon:index:ComputeType")).toEqual(literals("type"));
    expect(values("neon:index:PoolerMode")).toEqual(literals("poolerMode"));
    expect(values("neon:index:Provisioner")).toEqual(literals("provisioner"));
    expect(values("neon:index:BranchInitSource")).toEqual(
      literals("initSource", "provider/branch/resource.ts", "BranchArgs"),
    );
    // Every enum is the type of some input.
    const enums = Object.keys(schema.types).filter((token) => schema.types[token].enum);
    const used = Object.values<any>(schema.resources).flatMap((r) =>
      Object.values<any>(r.inputProperties).map((p) => p.$ref?.slice("#/types/".length)),
    );
    expect([...new Set(used.filter((token) => enums.includes(token)))].sort()).toEqual([...enums].sort());
  });

  it("every property is described", () => {
    for (const resource of [compute, apiKey, branch, role, database]) {
      expect(resource.description).toMatch(/\S/);
      expectEveryDescribed(resource.inputProperties);
      expectEveryDescribed(resource.properties);
    }
    for (const fn of Object.values<any>(schema.functions)) {
      expect(fn.description).toMatch(/\S/);
      expectEveryDescribed(fn.inputs.properties);
      expectEveryDescribed(fn.outputs.properties);
    }
    for (const type of Object.values<any>(schema.types)) {
      expect(type.description).toMatch(/\S/);
      expectEveryDescribed(type.properties ?? {});
    }
    expectEveryDescribed(schema.config.variables);
  });

  it("the config variables are the keys the provider reads (CONFIG_KEYS), with their environment fallbacks", () => {
    const variables = schema.config.variables;
    const names = Object.values(CONFIG_KEYS).map((key) => key.replace(/^neon:/, ""));
    expect(Object.keys(variables).sort()).toEqual([...names].sort());
    const sources = ["client/config.ts", "provider/shared/runtime.ts"].map((f) =>
      fs.readFileSync(path.join(REPO_ROOT, f), "utf8"),
    );
    const envs = new Set(sources.flatMap((text) => [...text.matchAll(/env\.(NEON_\w+)/g)].map((m) => m[1])));
    for (const name of names) expect(envs).toContain(variables[name].defaultInfo.environment[0]);
    expect(sources[0]).toContain(`DEFAULT_API_URL = "${variables.apiUrl.default}"`);
  });

  it("marks the secrets: the apiKey config, ApiKey.key, Role.password and Project's password and connection strings (registered as secret outputs) and getRolePassword's password", async () => {
    expect(schema.config.variables.apiKey.secret).toBe(true);
    expect(schema.config.variables.apiUrl.secret).toBeUndefined();
    const secretOutputs = (spec: any) =>
      Object.entries(spec.properties)
        .filter(([, p]: [string, any]) => p.secret)
        .map(([name]) => name);
    expect(secretOutputs(apiKey)).toEqual(["key"]);
    expect(secretOutputs(compute)).toEqual([]);
    expect(secretOutputs(branch)).toEqual([]);
    expect(secretOutputs(role)).toEqual(["password"]);
    expect(secretOutputs(database)).toEqual([]);
    expect(secretOutputs(project)).toEqual(["rolePassword", "connectionUri", "connectionUriPooled"]);
    expect(secretOutputs(getRolePassword.outputs)).toEqual(["password"]);
    expect(secretOutputs(getProjects.outputs)).toEqual([]);
    // The lookups give no secret: getRoles leaves the password out (getRolePassword reads one).
    for (const name of ["getProject", "getBranch", "getBranches", "getComputes", "getRoles", "getDatabases"])
      expect(secretOutputs(schema.functions[`neon:index:${name}`].outputs)).toEqual([]);
    for (const type of ["BranchInfo", "ComputeInfo", "RoleInfo", "DatabaseInfo"])
      expect(secretOutputs(schema.types[`neon:index:${type}`])).toEqual([]);
    for (const spec of [compute, apiKey, branch, role, database, project]) {
      const secretInputs = Object.values<any>(spec.inputProperties).filter((p) => p.secret);
      expect(secretInputs).toEqual([]);
    }
    expect(await registeredSecretOutputs(() => new ApiKey("ci", { keyName: "ci" }))).toEqual(["key"]);
    expect(await registeredSecretOutputs(() => new Compute("db", { projectId: "p", branchId: "br-x" }))).toEqual([]);
    expect(
      await registeredSecretOutputs(() => new Role("app", { projectId: "p", branchId: "br-x", name: "app" })),
    ).toEqual(["password"]);
    const db = { projectId: "p", branchId: "br-x", name: "appdb", ownerName: "app" };
    expect(await registeredSecretOutputs(() => new Database("appdb", db))).toEqual([]);
    expect(await registeredSecretOutputs(() => new Branch("preview", { projectId: "p" }))).toEqual([]);
    expect(await registeredSecretOutputs(() => new Project("app", {}))).toEqual([
      "rolePassword",
      "connectionUri",
      "connectionUriPooled",
    ]);
  });
});
