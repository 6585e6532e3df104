/**
 * The generated SDKs (sdk/, `npm run generate`) hold what schema.json declares, as a user would look for it: a file per
 * resource and per function in each language, every input of a resource in its Node.js args interface (required ones
 * required), in its Go args struct and in its Python args class, every output on its Node.js class, and the package's
 * version everywhere. It fails when the SDKs are stale in a way a program would notice (a property missing, a removed
 * resource still there), without Go: CI's generate:check compares every file, and sdk:check builds them.
 */
import * as fs from "fs";
import * as path from "path";

const ROOT = path.resolve(__dirname, "../../..");
const SDK = path.join(ROOT, "sdk");

interface Property {
  description?: string;
}
interface Schema {
  version: string;
  resources: Record<string, { inputProperties: Record<string, Property>; requiredInputs?: string[]; properties: Record<string, Property> }>;
  functions: Record<string, unknown>;
  language: { nodejs: { packageName: string }; go: { importBasePath: string }; python: { packageName: string } };
}

const schema = JSON.parse(fs.readFileSync(path.join(ROOT, "schema.json"), "utf8")) as Schema;
const read = (...parts: string[]) => fs.readFileSync(path.join(SDK, ...parts), "utf8");
const nameOf = (token: string) => token.split(":")[2];
const camel = (name: string) => name[0].toLowerCase() + name.slice(1);
const pascal = (name: string) => name[0].toUpperCase() + name.slice(1);
const snake = (name: string) => name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();
const GO_DIR = path.join("go", path.basename(schema.language.go.importBasePath));
const PY_DIR = path.join("python", schema.language.python.packageName);

/** The body of `export interface <name> {…}` or `type <name> struct {…}` or `class <name>:…` up to the next one. */
function block(text: string, start: string, end: RegExp): string {
  const from = text.indexOf(start);
  expect(from).toBeGreaterThanOrEqual(0);
  const rest = text.slice(from + start.length);
  const to = rest.search(end);
  return to < 0 ? rest : rest.slice(0, to);
}

describe.each(Object.entries(schema.resources))("the SDKs' %s", (token, resource) => {
  const name = nameOf(token);
  const inputs = Object.keys(resource.inputProperties);

  it("Node.js: every input in its args interface (required ones required), every output on its class", () => {
    const text = read("nodejs", `${camel(name)}.ts`);
    const args = block(text, `export interface ${name}Args {`, /^}/m);
    for (const input of inputs) {
      const optional = !(resource.requiredInputs ?? []).includes(input);
      expect(args).toContain(`    ${input}${optional ? "?" : ""}: pulumi.Input<`);
    }
    const cls = block(text, `export class ${name} extends pulumi.CustomResource {`, /^}/m);
    for (const output of Object.keys(resource.properties)) {
      expect(cls).toMatch(new RegExp(`declare public (/\\*out\\*/ )?readonly ${output}: pulumi\\.Output<`));
    }
  });

  it("Go: every input in its args struct", () => {
    const args = block(read(GO_DIR, `${camel(name)}.go`), `type ${name}Args struct {`, /^}/m);
    for (const input of inputs) expect(args).toMatch(new RegExp(`^\\t${pascal(input)} \\S+Input$`, "m"));
  });

  it("Python: every input in its args class", () => {
    const args = block(read(PY_DIR, `${snake(name)}.py`), `class ${name}Args:`, /^class /m);
    for (const input of inputs) expect(args).toContain(`${snake(input)}: pulumi.Input[`);
  });
});

describe("the SDKs' files", () => {
  const tokens = [...Object.keys(schema.resources), ...Object.keys(schema.functions)].map(nameOf);

  it("are one per resource and function in each language, and no other", () => {
    const wanted = (dir: string, file: (name: string) => string, extra: string[]) =>
      expect(fs.readdirSync(path.join(SDK, dir)).filter((f) => !extra.includes(f) && /\.(ts|go|py)$/.test(f)).sort()).toEqual(
        [...tokens.map(file), "provider" + path.extname(file("x"))].sort(),
      );
    wanted("nodejs", (n) => `${camel(n)}.ts`, ["index.ts", "utilities.ts"]);
    wanted(GO_DIR, (n) => `${camel(n)}.go`, ["doc.go", "init.go", "pulumiEnums.go", "pulumiTypes.go"]);
    wanted(PY_DIR, (n) => `${snake(n)}.py`, ["__init__.py", "_enums.py", "_inputs.py", "_utilities.py", "outputs.py"]);
  });

  it("carry package.json's version and the SDKs' own names (the Node.js one is not this package)", () => {
    const { name, version } = JSON.parse(fs.readFileSync(path.join(ROOT, "package.json"), "utf8"));
    expect(schema.version).toBe(version);
    const node = JSON.parse(read("nodejs", "package.json"));
    expect(node).toMatchObject({ name: schema.language.nodejs.packageName, version, pulumi: { name: "neon", version } });
    expect(node.name).not.toBe(name);
    for (const dir of [GO_DIR, PY_DIR]) {
      expect(JSON.parse(read(dir, "pulumi-plugin.json"))).toEqual({ resource: true, name: "neon", version });
    }
    expect(read("python", "pyproject.toml")).toContain(`version = "${version}"`);
    expect(read(GO_DIR, "go.mod")).toMatch(new RegExp(`^module ${schema.language.go.importBasePath}$`, "m"));
  });
});
