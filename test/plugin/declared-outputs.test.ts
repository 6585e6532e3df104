/**
 * Every declared output of every resource is what its type says (issue 19, item 4): an Output whether or not the
 * program set it, resolving to the service's value when the service reports one. A program that sets the fewest
 * inputs (a Compute with only projectId and branchId, a personal ApiKey with only keyName) runs through the local
 * engine against the emulator; `db.regionId.apply(…)` used to throw there (regionId was undefined at run time).
 *
 * The declared outputs are read from the class declarations (TypeScript compiler API; `npm run generate` writes them
 * from the declaration's rows) and must be the names schema.json lists as the resource's outputs, and the names the
 * class registers (its declaration's outputs: shared/dynamic-class.ts constructedWith). Each type's `| undefined` or
 * `| null` (the rows' `optional` and `nullable`) is checked against what the service's values resolve to.
 */
import * as fs from "fs";
import * as path from "path";
import * as ts from "typescript";
import * as pulumi from "@pulumi/pulumi";
import { ApiKey, Branch, Compute, Database, Role } from "../../provider";
import { DECLARATIONS } from "../../provider/declarations";
import { classFile } from "../../provider/shared/class-of";
import { tokenOf } from "../../provider/shared/declaration";
import { API_KEY, COMPUTE, neonWorld, NeonWorld, ok, ops, outputs, REPO_ROOT } from "./world";

/** An output as the class declares it; `nullable`: its type admits undefined or null. */
interface Declared {
  name: string;
  nullable: boolean;
}

/** The `declare readonly x: pulumi.Output<T>` members of a resource class, in declaration order. */
function declaredOutputs(file: string, className: string): Declared[] {
  const fileName = path.join(REPO_ROOT, file);
  const source = ts.createSourceFile(fileName, fs.readFileSync(fileName, "utf8"), ts.ScriptTarget.Latest, true);
  const decl = source.statements.find((s) => ts.isClassDeclaration(s) && s.name?.text === className);
  if (!decl || !ts.isClassDeclaration(decl)) throw new Error(`class ${className} not found in ${file}`);
  return decl.members.filter(ts.isPropertyDeclaration).flatMap((member) => {
    const type = member.type;
    if (!type || !ts.isTypeReferenceNode(type) || type.typeName.getText().replace(/^pulumi\./, "") !== "Output")
      return [];
    const inner = type.typeArguments?.[0];
    const parts = inner && ts.isUnionTypeNode(inner) ? inner.types : [];
    const nullable = parts.some(
      (t) =>
        t.kind === ts.SyntaxKind.UndefinedKeyword ||
        (ts.isLiteralTypeNode(t) && t.literal.kind === ts.SyntaxKind.NullKeyword),
    );
    return [{ name: member.name.getText(), nullable }];
  });
}

const schema = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "schema.json"), "utf8"));
/** Every resource: its class file, its token in schema.json, and the outputs it registers (constructedWith). */
const RESOURCES = Object.fromEntries(
  DECLARATIONS.map((d) => [d.name, { file: classFile(d), token: tokenOf(d), registered: Object.keys(d.outputs) }]),
);
const BRANCH = "pulumi-nodejs:dynamic/neon:Branch";
const ROLE = "pulumi-nodejs:dynamic/neon:Role";
const DATABASE = "pulumi-nodejs:dynamic/neon:Database";
const declared = (resource: string) => declaredOutputs(RESOURCES[resource].file, resource);

/**
 * What the program saw of each declared output: `notOutput` lists the members that were not Outputs, `values` is one
 * stack output holding each Output's resolved value as `{ value }` (`{}` when it resolved to undefined).
 */
function observe(resource: pulumi.Resource, names: string[]): { notOutput: string[]; values: pulumi.Output<unknown> } {
  const members = resource as unknown as Record<string, unknown>;
  const notOutput = names.filter((name) => !pulumi.Output.isInstance(members[name]));
  const values = Object.fromEntries(
    names
      .filter((name) => !notOutput.includes(name))
      .map((name) => [name, (members[name] as pulumi.Output<unknown>).apply((value) => ({ value }))]),
  );
  return { notOutput, values: pulumi.all(values) };
}

/** The service's field for an output: its snake_case name, but for the few the API names otherwise. */
const FIELD_OF: Record<string, string[]> = {
  endpointId: ["id"],
  keyId: ["id"],
  keyName: ["name"],
  pgSettings: ["settings", "pg_settings"],
  databaseId: ["id"],
};
function reported(record: Record<string, unknown>, output: string, fields: Record<string, string[]> = {}): unknown {
  const field = fields[output] ?? FIELD_OF[output] ?? [output.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)];
  return field.reduce<unknown>((at, key) => (at as Record<string, unknown> | undefined)?.[key], record);
}

/**
 * Fields that the service changes on its own (a compute as it starts, runs and idles; a key as it is used): the outputs
 * hold them as the step's last answer gave them (a create's answer: `init`, not started yet; a key's: not used, null),
 * and a refresh reads them anew.
 */
const MOVING = {
  compute: ["currentState", "pendingState", "lastActive", "startedAt", "suspendedAt", "updatedAt"],
  key: ["lastUsedAt", "lastUsedFromAddr"],
  branch: [
    "currentState",
    "pendingState",
    "stateChangedAt",
    "updatedAt",
    "logicalSize",
    "computeTimeSeconds",
    "activeTimeSeconds",
    "writtenDataBytes",
    "dataTransferBytes",
  ],
};

/**
 * What is wrong with the observed outputs: one that was no Output; one the service reports that resolved to another
 * value (but for the `moving` ones); one whose type admits neither undefined nor null that resolved to either.
 */
function problems(
  outputsOf: Declared[],
  seen: { notOutput: string[]; values: Record<string, { value?: unknown }> },
  record: Record<string, unknown>,
  moving: string[] = [],
  fields: Record<string, string[]> = {},
): string[] {
  const found: string[] = seen.notOutput.map((name) => `${name} is not an Output`);
  for (const { name, nullable } of outputsOf) {
    if (seen.notOutput.includes(name)) continue;
    const value = seen.values[name]?.value;
    const service = moving.includes(name) ? undefined : reported(record, name, fields);
    if (service !== undefined && service !== null && JSON.stringify(value) !== JSON.stringify(service))
      found.push(`${name} resolved to ${JSON.stringify(value)}; the service reports ${JSON.stringify(service)}`);
    if (!nullable && (value === undefined || value === null))
      found.push(`${name} resolved to ${String(value)}, though its type admits neither undefined nor null`);
  }
  return found;
}

describe("declared outputs: the class, schema.json and the registered properties agree", () => {
  it.each(Object.keys(RESOURCES))("%s", (resource) => {
    const names = declared(resource).map((output) => output.name);
    expect(names.length).toBeGreaterThan(5);
    expect([...names].sort()).toEqual(Object.keys(schema.resources[RESOURCES[resource].token].properties).sort());
    expect([...RESOURCES[resource].registered]).toEqual(names);
  });
});

describe("every declared output is an Output resolving to the service's value, for a program with the fewest inputs", () => {
  let world: NeonWorld;
  let orgId: string;
  beforeAll(async () => {
    world = await neonWorld();
    orgId = world.emulator.createOrganization().orgId;
  });
  afterAll(() => world.stop());

  it("Compute (projectId, branchId) and ApiKey (keyName; and keyName, orgId): after up, refresh and a second up", async () => {
    const computeOutputs = declared("Compute");
    const keyOutputs = declared("ApiKey");
    const notOutput: Record<string, string[]> = {};
    const stack = world.stack(() => {
      const db = new Compute("db", { projectId: world.projectId, branchId: world.branches.dev });
      const personal = new ApiKey("personal", { keyName: "fewest-inputs" });
      const org = new ApiKey("org", { keyName: "org-wide", orgId });
      const seen = {
        db: observe(
          db,
          computeOutputs.map((o) => o.name),
        ),
        personal: observe(
          personal,
          keyOutputs.map((o) => o.name),
        ),
        org: observe(
          org,
          keyOutputs.map((o) => o.name),
        ),
      };
      for (const [name, { notOutput: missing }] of Object.entries(seen)) notOutput[name] = missing;
      // The example: this threw ("Cannot read properties of undefined") before every output was registered.
      const region = db.regionId.apply((id) => `region ${id}`);
      return { db: seen.db.values, personal: seen.personal.values, org: seen.org.values, region };
    });

    const up = ok(await stack.up());
    expect(ops(up)).toEqual(["create db", "create org", "create personal"]);
    const out = outputs(stack);
    const endpoint = await world.api.endpoints.get(world.projectId, String(out.db.endpointId.value));
    const personalKey = (await world.api.apiKeys.list()).find((k) => k.id === out.personal.keyId.value);
    const orgKey = (await world.api.orgApiKeys.list(orgId)).find((k) => k.id === out.org.keyId.value);
    expect(personalKey && orgKey).toBeTruthy();

    const seen = (name: string, values = out) => ({ notOutput: notOutput[name], values: values[name] });
    expect(problems(computeOutputs, seen("db"), endpoint, MOVING.compute)).toEqual([]);
    expect(problems(keyOutputs, seen("personal"), personalKey!, MOVING.key)).toEqual([]);
    expect(problems(keyOutputs, seen("org"), orgKey!, MOVING.key)).toEqual([]);
    // The values the issue names, and those the service reports for a compute the program said nothing about.
    expect(out.region).toBe(`region ${endpoint.region_id}`);
    expect(out.db).toMatchObject({
      type: { value: "read_write" },
      regionId: { value: endpoint.region_id },
      autoscalingLimitMinCu: { value: endpoint.autoscaling_limit_min_cu },
      autoscalingLimitMaxCu: { value: endpoint.autoscaling_limit_max_cu },
      suspendTimeoutSeconds: { value: endpoint.suspend_timeout_seconds },
      pgSettings: { value: {} },
    });
    expect(out.personal.orgId).toEqual({}); // an Output of undefined: a personal key has no organization
    expect(out.personal.projectId).toEqual({ value: null });
    expect(out.org.orgId).toEqual({ value: orgId });
    expect(out.org.projectId).toEqual({ value: null });

    // The outputs registered as undefined are not inputs: the state's inputs hold what the program set, and nothing
    // changes on the next commands (no diff, no request).
    const inputsOf = (type: string, name: string) =>
      Object.keys(stack.state.resources.find((r) => r.type === type && r.urn.endsWith(`::${name}`))!.inputs).sort();
    expect(inputsOf(COMPUTE, "db")).toEqual(["__provider", "branchId", "ownerTag", "projectId", "resourceName"]);
    expect(inputsOf(API_KEY, "personal")).toEqual(["__provider", "keyName"]);
    expect(inputsOf(API_KEY, "org")).toEqual(["__provider", "keyName", "orgId"]);
    const preview = ok(await stack.preview());
    expect(ops(preview)).toEqual(["same db", "same org", "same personal"]);
    expect(preview.requests).toEqual([]);
    // A refresh reads the compute anew: then every output the service reports is its current value, the moving ones
    // included; an up after it records them (the outputs of the program's resources) and sends nothing.
    ok(await stack.refresh());
    const compute = await world.api.endpoints.get(world.projectId, endpoint.id);
    const keys = [...(await world.api.apiKeys.list()), ...(await world.api.orgApiKeys.list(orgId))];
    const again = ok(await stack.up());
    expect(ops(again)).toEqual(["same db", "same org", "same personal"]);
    expect(again.requests).toEqual([]);
    const after = outputs(stack);
    expect(problems(computeOutputs, seen("db", after), compute)).toEqual([]);
    for (const name of ["personal", "org"]) {
      const key = keys.find((k) => k.id === after[name].keyId.value)!;
      expect(problems(keyOutputs, seen(name, after), key)).toEqual([]);
    }
    expect(after.db.currentState).toEqual({ value: "active" });
    ok(await stack.destroy());
  });

  it("Role (projectId, branchId, name) and Database (projectId, branchId, name, ownerName): after up, refresh and a second up", async () => {
    const roleOutputs = declared("Role");
    const databaseOutputs = declared("Database");
    const notOutput: Record<string, string[]> = {};
    const branchId = world.branches.dev;
    const stack = world.stack(() => {
      const role = new Role("app", { projectId: world.projectId, branchId, name: "fewest_inputs" });
      const db = new Database("appdb", { projectId: world.projectId, branchId, name: "fewest", ownerName: role.name });
      const seen = {
        role: observe(
          role,
          roleOutputs.map((o) => o.name),
        ),
        db: observe(
          db,
          databaseOutputs.map((o) => o.name),
        ),
      };
      for (const [name, { notOutput: missing }] of Object.entries(seen)) notOutput[name] = missing;
      return { role: seen.role.values, db: seen.db.values };
    });

    const up = ok(await stack.up());
    expect(ops(up, "app", "appdb")).toEqual(["create app", "create appdb"]);
    const read = async () => ({
      role: await world.api.roles.get(world.projectId, branchId, "fewest_inputs"),
      db: await world.api.databases.get(world.projectId, branchId, "fewest"),
    });
    const seen = (name: string, values: ReturnType<typeof outputs>) => ({
      notOutput: notOutput[name],
      values: values[name],
    });
    const check = async () => {
      const out = outputs(stack);
      const service = await read();
      expect(problems(roleOutputs, seen("role", out), service.role)).toEqual([]);
      expect(problems(databaseOutputs, seen("db", out), service.db)).toEqual([]);
      // Not in the role's record: the password (revealed on request) and noLogin (its authentication_method).
      const password = await world.api.roles.revealPassword(world.projectId, branchId, "fewest_inputs");
      expect(out.role).toMatchObject({ password: { value: password }, noLogin: { value: false } });
      expect(out.role.passwordTriggers).toEqual({}); // an Output of undefined: the program set none
      expect(out.db).toMatchObject({ databaseId: { value: service.db.id }, ownerName: { value: "fewest_inputs" } });
    };
    await check();

    const inputsOf = (type: string, name: string) =>
      Object.keys(stack.state.resources.find((r) => r.type === type && r.urn.endsWith(`::${name}`))!.inputs).sort();
    expect(inputsOf(ROLE, "app")).toEqual(["__provider", "branchId", "name", "projectId"]);
    expect(inputsOf(DATABASE, "appdb")).toEqual(["__provider", "branchId", "name", "ownerName", "projectId"]);
    const preview = ok(await stack.preview());
    expect(ops(preview, "app", "appdb")).toEqual(["same app", "same appdb"]);
    expect(preview.requests).toEqual([]);
    ok(await stack.refresh());
    const again = ok(await stack.up());
    expect(ops(again, "app", "appdb")).toEqual(["same app", "same appdb"]);
    expect(again.requests).toEqual([]);
    await check();
    ok(await stack.destroy());
  });

  it("Branch (projectId): after up, refresh and a second up", async () => {
    const branchOutputs = declared("Branch");
    let notOutput: string[] = [];
    const stack = world.stack(() => {
      const branch = new Branch("fewest-inputs", { projectId: world.projectId });
      const seen = observe(
        branch,
        branchOutputs.map((o) => o.name),
      );
      notOutput = seen.notOutput;
      return { branch: seen.values };
    });
    // The branch's own id is its `id` field; a Role's or a Database's `branchId` is their `branch_id`.
    const fields = { branchId: ["id"] };

    const up = ok(await stack.up());
    expect(ops(up, "fewest-inputs")).toEqual(["create fewest-inputs"]);
    const id = String(outputs(stack).branch.branchId.value);
    const read = async () => (await world.api.branches.get(world.projectId, id)).branch;
    const seen = () => ({ notOutput, values: outputs(stack).branch });
    expect(problems(branchOutputs, seen(), await read(), MOVING.branch, fields)).toEqual([]);
    // What the program left out: the name is the resource's, the parent the project's default branch (recorded).
    const defaultBranch = (await world.api.branches.list(world.projectId)).find((b) => b.default)!;
    expect(outputs(stack).branch).toMatchObject({
      name: { value: "fewest-inputs" },
      parentId: { value: defaultBranch.id },
      resourceName: { value: "fewest-inputs" },
      protected: { value: false },
      default: { value: false },
    });
    expect(outputs(stack).branch.resetTriggers).toEqual({}); // an Output of undefined: the program set none
    expect(outputs(stack).branch.adoptId).toEqual({});

    const inputsOf = Object.keys(
      stack.state.resources.find((r) => r.type === BRANCH && r.urn.endsWith("::fewest-inputs"))!.inputs,
    ).sort();
    // `name` is check's default (the resource's name), recorded as an input; no output registered undefined is one.
    expect(inputsOf).toEqual(["__provider", "name", "projectId", "resourceName"]);
    const preview = ok(await stack.preview());
    expect(ops(preview, "fewest-inputs")).toEqual(["same fewest-inputs"]);
    expect(preview.requests).toEqual([]);
    ok(await stack.refresh());
    const service = await read();
    const again = ok(await stack.up());
    expect(ops(again, "fewest-inputs")).toEqual(["same fewest-inputs"]);
    expect(again.requests).toEqual([]);
    expect(problems(branchOutputs, seen(), service, [], fields)).toEqual([]);
    ok(await stack.destroy());
  });
});
