/**
 * The README's Install section gives a whole program that works as written: the files test/cli/examples-outside.test.ts
 * copies out of the repository, installs the tarball into and runs with the real Pulumi CLI (it reads them through
 * readmeProgram(), as this test does), declared as the examples declare theirs.
 *
 * Guards: an Install section that named the tarball but not what a program needs beside it (without `typescript` of
 * its own, Pulumi compiles with its vendored TypeScript 3.8, which cannot read the package's declarations: "Unable to
 * compile TypeScript"; with TypeScript 6, `"moduleResolution": "node"` fails with TS5107); a README program that
 * drifts from the examples'.
 */
import * as fs from "fs";
import * as path from "path";
import { parse } from "yaml";
import { examplesOf } from "../examples/runtimes";
import { REPO_ROOT } from "./pack";
import { readmeProgram } from "./readme-program";

const read = (file: string) => fs.readFileSync(path.join(REPO_ROOT, file), "utf8");
const ROOT_MANIFEST = JSON.parse(read("package.json"));
/** The TypeScript examples (the YAML one has no package.json or tsconfig.json). */
const EXAMPLES = examplesOf("nodejs");

describe("the README's Install section: a whole minimal program", () => {
  const program = readmeProgram();
  const manifest = JSON.parse(program.files["package.json"]);
  const tsconfig = JSON.parse(program.files["tsconfig.json"]);

  it("gives its four files, then the tarball's npm install and the pulumi commands", () => {
    expect(Object.keys(program.files)).toEqual(["Pulumi.yaml", "package.json", "tsconfig.json", "index.ts"]);
    expect(parse(program.files["Pulumi.yaml"])).toMatchObject({ runtime: "nodejs" });
    expect(manifest.main).toBe("index.ts");
    expect(program.install).toBe(`npm install /path/to/pulumi-neon-dynamic-${ROOT_MANIFEST.version}.tgz`);
    expect(program.commands[0]).toBe("pulumi stack init dev");
    expect(program.commands.at(-1)).toBe("pulumi up");
    // test/cli/examples-outside.test.ts sets exactly these (the emulator's values).
    expect(program.configKeys).toEqual(["neon:apiKey", "neon:apiUrl", "projectId", "branchId"]);
  });

  it("declares @pulumi/pulumi in the package's range and TypeScript 5 or 6, as every example does", () => {
    expect(manifest.dependencies).toEqual({ "@pulumi/pulumi": ROOT_MANIFEST.dependencies["@pulumi/pulumi"] });
    expect(manifest.devDependencies.typescript).toBe("^5.9.3 || ^6.0.2");
    for (const example of EXAMPLES) {
      const declared = JSON.parse(read(`examples/${example}/package.json`));
      expect({
        example,
        pulumi: declared.dependencies["@pulumi/pulumi"],
        ts: declared.devDependencies?.typescript,
      }).toEqual({ example, pulumi: manifest.dependencies["@pulumi/pulumi"], ts: manifest.devDependencies.typescript });
    }
  });

  it("has the examples' compiler options: module and moduleResolution node16, which TypeScript 5 and 6 both accept", () => {
    expect(tsconfig).toEqual({ compilerOptions: expect.any(Object), files: ["index.ts"] });
    expect(tsconfig.compilerOptions).toMatchObject({ module: "node16", moduleResolution: "node16" });
    for (const example of EXAMPLES) {
      const own = JSON.parse(read(`examples/${example}/tsconfig.json`)).compilerOptions;
      // testing-your-program adds what its jest tests need (esModuleInterop, the types of node and jest).
      const common = { ...own };
      delete common.esModuleInterop;
      delete common.types;
      expect({ example, compilerOptions: common }).toEqual({ example, compilerOptions: tsconfig.compilerOptions });
    }
  });

  it("imports the package by name, as the examples do", () => {
    expect(program.files["index.ts"]).toMatch(/from "pulumi-neon-dynamic"/);
  });
});
