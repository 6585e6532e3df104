/**
 * The package as a user installs it: `npm pack`, unpacked into a project's node_modules, and a file importing every
 * subpath type-checked with the module resolutions users' tsconfigs name.
 *
 * Guards: `"moduleResolution": "node"` (node10, which the examples and many projects use) ignores `exports`, so a
 * subpath such as `pulumi-neon-dynamic/testing` found no types (TS2307) until package.json listed them in
 * `typesVersions`; and a subpath left out of the tarball's `files` (the native plugin's launcher among them).
 *
 * The project gets the package's dependencies (and TypeScript's, jest's and ts-jest's) by links to this repository's
 * node_modules, the same versions npm would install, so the suite needs no network; one unpacked install serves every
 * case, examples/testing-your-program's own setup included (it could not run on its own: no jest config, no ts-jest
 * or TypeScript among its devDependencies).
 */
import { execFileSync, spawn, spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { packRepository, REPO_ROOT } from "./pack";

const TSC = path.join(REPO_ROOT, "node_modules", "typescript", "bin", "tsc");
const JEST = path.join(REPO_ROOT, "node_modules", "jest", "bin", "jest.js");
const EXAMPLE = path.join(REPO_ROOT, "examples", "testing-your-program");

const SUBPATHS = `
import { ApiKey, Compute, getProjectsOutput } from "pulumi-neon-dynamic";
import { NeonClient } from "pulumi-neon-dynamic/sdk";
import { Emulator, startEmulator } from "pulumi-neon-dynamic/emulator";
import { CommandResult, LocalStack, moduleProgram, renderResult } from "pulumi-neon-dynamic/testing";
import * as computeImpl from "pulumi-neon-dynamic/provider/compute-impl";

export type Used = [ApiKey, Compute, NeonClient, Emulator, CommandResult, LocalStack];
export const used = [getProjectsOutput, startEmulator, moduleProgram, renderResult, computeImpl];
`;

let project: string;

/** A temporary project with the packed package unpacked in its node_modules, beside links to the rest. */
function installPacked(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "neon-installed-"));
  const tarball = packRepository(dir);
  const modules = path.join(dir, "node_modules");
  fs.mkdirSync(modules);
  execFileSync("tar", ["-xzf", tarball, "-C", modules]);
  fs.renameSync(path.join(modules, "package"), path.join(modules, "pulumi-neon-dynamic"));
  for (const entry of fs.readdirSync(path.join(REPO_ROOT, "node_modules"))) {
    if (entry.startsWith(".") || entry === "pulumi-neon-dynamic") continue;
    fs.symlinkSync(path.join(REPO_ROOT, "node_modules", entry), path.join(modules, entry), "dir");
  }
  fs.writeFileSync(path.join(dir, "index.ts"), SUBPATHS);
  return dir;
}

/** tsc's diagnostics for the project's index.ts with `moduleResolution` (and the module kind it requires). */
function typeCheck(moduleResolution: "node" | "node16"): string {
  const config = {
    compilerOptions: {
      strict: true,
      target: "ES2021",
      module: moduleResolution === "node" ? "commonjs" : "node16",
      moduleResolution,
      skipLibCheck: true,
      noEmit: true,
      types: ["node"],
    },
    files: ["index.ts"],
  };
  const file = path.join(project, `tsconfig.${moduleResolution}.json`);
  fs.writeFileSync(file, JSON.stringify(config));
  try {
    execFileSync(process.execPath, [TSC, "-p", file], { cwd: project, encoding: "utf8", stdio: "pipe" });
    return "";
  } catch (error) {
    return String((error as { stdout?: string }).stdout ?? error);
  }
}

beforeAll(() => {
  project = installPacked();
});

afterAll(() => {
  if (project) fs.rmSync(project, { recursive: true, force: true });
});

describe("the packed package, installed in a project", () => {
  it.each(["node", "node16"] as const)("type-checks an import of every subpath with moduleResolution %s", (kind) => {
    expect(typeCheck(kind)).toBe("");
  });

  it("holds the native plugin's launcher, executable, which starts from a link to it and prints its port", async () => {
    // A plugin cache or PATH entry is often a link: the launcher must find dist/ beside the real file.
    const link = path.join(project, "pulumi-resource-neon");
    fs.symlinkSync(path.join(project, "node_modules", "pulumi-neon-dynamic", "bin", "pulumi-resource-neon"), link);
    const child = spawn(link, ["127.0.0.1:1"], { stdio: ["ignore", "pipe", "pipe"] });
    const exited = new Promise((resolve) => child.on("exit", resolve));
    const firstLine = await new Promise<string>((resolve) => {
      let out = "";
      child.stdout.on("data", (chunk) => {
        out += chunk;
        if (out.includes("\n")) resolve(out.split("\n")[0]);
      });
      child.on("exit", () => resolve(out));
    });
    child.kill("SIGTERM");
    await exited;
    expect(firstLine).toMatch(/^\d+$/);
  });

  describe("examples/testing-your-program, on its own in the project", () => {
    let example: string;
    beforeAll(() => {
      example = path.join(project, "testing-your-program");
      fs.mkdirSync(example);
      for (const file of fs.readdirSync(EXAMPLE).filter((name) => fs.statSync(path.join(EXAMPLE, name)).isFile())) {
        fs.copyFileSync(path.join(EXAMPLE, file), path.join(example, file));
      }
    });

    it("declares what its README's `npm install` and `npm test` need", () => {
      const manifest = JSON.parse(fs.readFileSync(path.join(example, "package.json"), "utf8"));
      expect(manifest.scripts.test).toBe("jest");
      for (const dev of ["jest", "ts-jest", "typescript", "@types/jest", "@types/node"]) {
        expect(Object.keys(manifest.devDependencies)).toContain(dev);
      }
      // The example asks for @pulumi/pulumi in the package's range (^3.248.0), so npm installs one copy.
      expect(manifest.dependencies["@pulumi/pulumi"]).toBe(
        JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8")).dependencies["@pulumi/pulumi"],
      );
    });

    it("type-checks with its own tsconfig", () => {
      const checked = spawnSync(process.execPath, [TSC, "-p", "tsconfig.json", "--noEmit"], {
        cwd: example,
        encoding: "utf8",
      });
      expect(checked.stdout).toBe("");
      expect(checked.status).toBe(0);
    });

    it("runs a test with its own jest config (ts-jest), against the installed package", () => {
      const run = spawnSync(process.execPath, [JEST, "--maxWorkers=1", "size-change.test.ts"], {
        cwd: example,
        env: { ...process.env, NEON_API_KEY: "", NEON_API_HOST: "" },
        encoding: "utf8",
        timeout: 480_000,
      });
      expect({ status: run.status, output: run.stderr.slice(-2000) }).toEqual({
        status: 0,
        output: expect.any(String),
      });
      expect(run.stderr).toMatch(/Tests:\s+1 passed, 1 total/);
    }, 600_000);
  });

  it("type-checks every TypeScript snippet of the README and docs/ that imports the package", () => {
    const pages = ["README.md", ...fs.readdirSync(path.join(REPO_ROOT, "docs")).map((name) => `docs/${name}`)];
    const snippets = pages
      .filter((page) => page.endsWith(".md"))
      .flatMap((page) =>
        [...fs.readFileSync(path.join(REPO_ROOT, page), "utf8").matchAll(/^```ts\n([\s\S]*?)^```/gm)]
          .map((match) => match[1])
          .filter((code) => /from "pulumi-neon-dynamic/.test(code))
          .map((code, i) => ({ file: `snippet-${page.replace(/\W/g, "-")}-${i}.ts`, code })),
      );
    // The README's first program, docs/resources.md's program, docs/testing.md's test.
    expect(snippets.length).toBeGreaterThanOrEqual(3);
    const dir = path.join(project, "snippets");
    fs.mkdirSync(dir);
    for (const { file, code } of snippets) fs.writeFileSync(path.join(dir, file), code);
    const config = {
      compilerOptions: {
        strict: true,
        target: "ES2021",
        module: "commonjs",
        moduleResolution: "node",
        esModuleInterop: true,
        skipLibCheck: true,
        noEmit: true,
        types: ["node", "jest"],
      },
      files: snippets.map(({ file }) => file),
    };
    fs.writeFileSync(path.join(dir, "tsconfig.json"), JSON.stringify(config));
    const checked = spawnSync(process.execPath, [TSC, "-p", "tsconfig.json"], { cwd: dir, encoding: "utf8" });
    expect(checked.stdout).toBe("");
    expect(checked.status).toBe(0);
  });

  it("resolves every subpath at run time from the project", () => {
    const from = { paths: [project] };
    const installed = path.join(fs.realpathSync(project), "node_modules", "pulumi-neon-dynamic", "dist");
    for (const [subpath, file] of [
      ["", "provider/index.js"],
      ["/sdk", "client/index.js"],
      ["/client", "client/index.js"],
      ["/emulator", "emulator/index.js"],
      ["/testing", "testing/index.js"],
      ["/provider/compute/impl", "provider/compute/impl.js"],
      ["/provider/api-key/impl", "provider/api-key/impl.js"],
      // what the __provider of state written by 0.2.0 loads (test/legacy)
      ["/provider/compute-impl", "provider/compute-impl.js"],
      ["/provider/api-key-impl", "provider/api-key-impl.js"],
    ]) {
      expect(fs.realpathSync(require.resolve(`pulumi-neon-dynamic${subpath}`, from))).toBe(path.join(installed, file));
    }
  });
});
