/**
 * docs/testing.md, "In an empty directory", done exactly as written: in a new, empty directory, each `sh` block run
 * by bash (the tarball's placeholder path replaced by the tarball `npm pack` makes of this repository), each file
 * block written under the name the text before it gives, in the order of the page; then the last block, `npx jest`,
 * must pass the page's test. Packages come from the npm registry as a user's would (npm's cache first).
 *
 * Guards: a newcomer's setup that did not say which packages at which versions (the latest TypeScript, 7, is outside
 * ts-jest 29's range, and 6 rejects the tsconfig's `"moduleResolution": "node"`), nor the jest and tsconfig settings;
 * a page whose steps drift from what runs.
 */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { sectionSteps } from "./markdown-steps";
import { packRepository, REPO_ROOT, userEnv } from "./pack";

const PAGE = path.join(REPO_ROOT, "docs", "testing.md");
const SECTION = "## In an empty directory";

let work: string;
let project: string;
let tarball: string;

beforeAll(() => {
  work = fs.mkdtempSync(path.join(os.tmpdir(), "neon-empty-dir-"));
  fs.mkdirSync(path.join(work, "pack"));
  tarball = packRepository(path.join(work, "pack"));
  project = path.join(work, "neon-tests");
  fs.mkdirSync(project);
});

afterAll(() => {
  if (work) fs.rmSync(work, { recursive: true, force: true });
});

describe("docs/testing.md, In an empty directory, as written", () => {
  const page = fs.readFileSync(PAGE, "utf8");
  const all = sectionSteps(page, SECTION);

  it("names the tarball npm pack makes, the files it writes and the commands it runs", () => {
    const { version } = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package.json"), "utf8"));
    expect(all.map((step) => step.file ?? step.lang)).toEqual([
      "sh",
      "jest.config.js",
      "tsconfig.json",
      "size-change.test.ts",
      "sh",
    ]);
    expect(all[0].body).toContain(`/path/to/pulumi-neon-dynamic-${version}.tgz`);
    expect(path.basename(tarball)).toBe(`pulumi-neon-dynamic-${version}.tgz`);
    expect(all.at(-1)!.body.trim()).toBe("npx jest");
  });

  it("installs, writes the files and passes its test with npx jest", () => {
    const outputs: string[] = [];
    for (const step of all) {
      if (step.file) {
        fs.writeFileSync(path.join(project, step.file), step.body);
        continue;
      }
      const script = step.body.split(`/path/to/${path.basename(tarball)}`).join(tarball);
      const run = spawnSync("bash", ["-euo", "pipefail", "-c", script], {
        cwd: project,
        env: userEnv(),
        encoding: "utf8",
        timeout: 420_000,
      });
      const output = `${run.stdout}\n${run.stderr}`;
      outputs.push(output);
      expect({ script, status: run.status, signal: run.signal, output: output.slice(-3000) }).toEqual({
        script,
        status: 0,
        signal: null,
        output: expect.any(String),
      });
    }
    expect(outputs.at(-1)).toMatch(/Tests:\s+1 passed, 1 total/);

    // What the page says it installs: one @pulumi/pulumi, 3.248.0 on Node.js 20; TypeScript 5.
    const version = (name: string) =>
      JSON.parse(fs.readFileSync(path.join(project, "node_modules", name, "package.json"), "utf8")).version as string;
    expect(version("typescript")).toMatch(/^5\./);
    expect(version("jest")).toMatch(/^30\./);
    expect(version("ts-jest")).toMatch(/^29\./);
    if (Number(process.versions.node.split(".")[0]) < 22) expect(version("@pulumi/pulumi")).toBe("3.248.0");
    const copies = spawnSync("find", ["node_modules", "-path", "*/@pulumi/pulumi/package.json"], {
      cwd: project,
      encoding: "utf8",
    });
    expect(copies.stdout.trim().split("\n")).toEqual(["node_modules/@pulumi/pulumi/package.json"]);
    // The package is the tarball's copy, not a link to this repository.
    expect(fs.lstatSync(path.join(project, "node_modules", "pulumi-neon-dynamic")).isSymbolicLink()).toBe(false);
  }, 900_000);
});
