/**
 * `npm run generate` and its `--check` (CI's `npm run generate:check`), run as CI runs them, on a copy of the
 * generated files: the check passes on what the repository holds, fails naming a file that no longer matches the
 * declarations (a hand edit of schema.json, of a docs table or of a class's args or outputs), and the generator puts
 * it back. The copy has no sdk/,
 * and `--no-sdks` leaves it out: the SDKs need Go, which npm test does not (test/sdk checks what they hold).
 */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { REPO_ROOT } from "../plugin/world";
import { DECLARATIONS } from "../../provider/declarations";
import { LOOKUP_ELEMENTS } from "../../provider/functions/lookups-schema";
import { classFile } from "../../provider/shared/class-of";

const GENERATE = path.join(REPO_ROOT, "dist", "scripts", "generate.js");
/** The TypeScript files with generated parts: the classes, and the lookups' element interfaces. */
const TYPESCRIPT = [...DECLARATIONS.map(classFile), ...LOOKUP_ELEMENTS.map((element) => element.file)];
const FILES = ["schema.json", path.join("docs", "resources.md"), "package.json", ...TYPESCRIPT];

function copyOfRepo(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "neon-generate-"));
  for (const file of FILES) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.copyFileSync(path.join(REPO_ROOT, file), path.join(root, file));
  }
  return root;
}

const edit = (root: string, file: string, from: string | RegExp, to: string) => {
  const text = fs.readFileSync(path.join(root, file), "utf8");
  fs.writeFileSync(path.join(root, file), text.replace(from, to));
  expect(fs.readFileSync(path.join(root, file), "utf8")).not.toBe(text);
};

const run = (root: string, ...args: string[]) =>
  spawnSync(process.execPath, [GENERATE, "--root", root, "--no-sdks", ...args], { encoding: "utf8" });

describe("npm run generate", () => {
  it("--check passes on the files the repository holds", () => {
    const checked = run(copyOfRepo(), "--check");
    expect(checked.stderr).toBe("");
    expect(checked.status).toBe(0);
  });

  it("--check fails naming schema.json and the docs after hand edits; generate writes them back as they were", () => {
    const root = copyOfRepo();
    const schema = path.join(root, "schema.json");
    const docs = path.join(root, "docs", "resources.md");
    fs.writeFileSync(schema, fs.readFileSync(schema, "utf8").replace("Project of the database.", "Edited by hand."));
    fs.writeFileSync(docs, fs.readFileSync(docs, "utf8").replace("| `ownerName`  |", "| `owner`  |"));

    const checked = run(root, "--check");
    expect(checked.status).toBe(1);
    expect(checked.stderr).toBe(
      "generate: schema.json, docs/resources.md out of date with the declarations: run npm run generate\n",
    );

    const written = run(root);
    expect(written.status).toBe(0);
    expect(written.stdout).toBe("generate: wrote schema.json, docs/resources.md\n");
    for (const file of FILES) {
      expect(fs.readFileSync(path.join(root, file), "utf8")).toBe(fs.readFileSync(path.join(REPO_ROOT, file), "utf8"));
    }
  });

  it("--check fails naming a class or lookup whose generated types were edited; generate writes them back", () => {
    const root = copyOfRepo();
    const database = "provider/database/resource.ts";
    const compute = "provider/compute/resource.ts";
    const roles = "provider/functions/get-roles.ts";
    edit(root, database, "declare readonly databaseId: pulumi.Output<number>;", "declare readonly databaseId: string;");
    edit(root, compute, "  disabled?: pulumi.Input<boolean>;\n", "");
    edit(root, roles, "  noLogin: boolean;", "  noLogin?: boolean;");

    const checked = run(root, "--check");
    expect(checked.status).toBe(1);
    expect(checked.stderr).toBe(
      `generate: ${compute}, ${database}, ${roles} out of date with the declarations: run npm run generate\n`,
    );
    expect(run(root).status).toBe(0);
    for (const file of [database, compute, roles]) {
      expect(fs.readFileSync(path.join(root, file), "utf8")).toBe(fs.readFileSync(path.join(REPO_ROOT, file), "utf8"));
    }
  });

  it("refuses a class file without its markers, naming them", () => {
    const root = copyOfRepo();
    edit(root, "provider/role/resource.ts", "  // end of the generated Role outputs\n", "");
    const checked = run(root, "--check");
    expect(checked.status).toBe(1);
    expect(checked.stderr).toContain(
      "provider/role/resource.ts has no // generated: the Role outputs (npm run generate, from declaration.ts)",
    );
  });

  it("refuses a docs page without a resource's markers, naming them", () => {
    const root = copyOfRepo();
    const docs = path.join(root, "docs", "resources.md");
    fs.writeFileSync(docs, fs.readFileSync(docs, "utf8").replace(/<!-- end of the generated Role properties -->/, ""));
    const checked = run(root, "--check");
    expect(checked.status).toBe(1);
    expect(checked.stderr).toContain(
      "docs/resources.md has no <!-- generated: the Role properties (npm run generate) -->",
    );
  });
});
