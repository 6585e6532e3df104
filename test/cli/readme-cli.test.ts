/**
 * The README's "The real Pulumi CLI": the lines that put the built `pulumi` on PATH, run as written by bash in the
 * repository's root, with no other `pulumi` on PATH; and its word on the stand-in language host, which serves
 * programs, fails `pulumi install` and leaves `pulumi about` without the runtime.
 *
 * Guards: a README that said where `npm run pulumi:install` builds the CLI but left the user to find
 * `.pulumi-cli/bin` and put it on PATH, and did not say which commands the stand-in language host does not serve.
 */
import { spawnSync } from "child_process";
import * as fs from "fs";
import * as os from "os";
import * as path from "path";
import { sectionSteps } from "../package/markdown-steps";
import { REPO_ROOT, userEnv } from "../package/pack";
import { cliRootOrThrow } from "./cli-world";

const SECTION = "## The real Pulumi CLI";
const README = fs.readFileSync(path.join(REPO_ROOT, "README.md"), "utf8");
const VERSION = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, "package-lock.json"), "utf8")).packages[
  "node_modules/@pulumi/pulumi"
].version as string;

/** A user's environment whose PATH finds no `pulumi`: only the README's line can make `pulumi` found. */
function envWithoutPulumi(): NodeJS.ProcessEnv {
  const env = userEnv();
  env.PATH = (env.PATH ?? "")
    .split(path.delimiter)
    .filter((dir) => dir && !fs.existsSync(path.join(dir, "pulumi")))
    .join(path.delimiter);
  return env;
}

describe("the README's real Pulumi CLI section", () => {
  const blocks = sectionSteps(README, SECTION).filter((step) => step.lang === "sh");

  it("puts the built pulumi on PATH with one line, and `pulumi version` prints the version built", () => {
    cliRootOrThrow();
    expect(blocks).toHaveLength(1);
    const script = blocks[0].body;
    expect(script).toContain('export PATH="$PWD/.pulumi-cli/bin:$PATH"');
    const env = envWithoutPulumi();
    expect(spawnSync("bash", ["-c", "command -v pulumi"], { env, encoding: "utf8" }).stdout).toBe("");
    const run = spawnSync("bash", ["-euo", "pipefail", "-c", `${script}\ncommand -v pulumi`], {
      cwd: REPO_ROOT,
      env,
      encoding: "utf8",
      timeout: 300_000,
    });
    expect({ status: run.status, stderr: run.stderr.slice(-2000) }).toEqual({ status: 0, stderr: expect.any(String) });
    const lines = run.stdout.trim().split("\n");
    expect(lines.slice(-2)).toEqual([`v${VERSION}`, path.join(REPO_ROOT, ".pulumi-cli", "bin", "pulumi")]);
  }, 320_000);

  it("names what the stand-in language host does not serve: pulumi install fails, pulumi about lists no runtime", () => {
    for (const command of ["`pulumi new`", "`pulumi install`", "`pulumi about`"]) expect(README).toContain(command);
    const program = fs.mkdtempSync(path.join(os.tmpdir(), "neon-readme-cli-"));
    const pulumi = (args: string[]) =>
      spawnSync(path.join(cliRootOrThrow(), "bin", "pulumi"), args, {
        cwd: program,
        env: {
          ...envWithoutPulumi(),
          PULUMI_HOME: path.join(program, ".home"),
          PULUMI_BACKEND_URL: `file://${program}`,
          PULUMI_SKIP_UPDATE_CHECK: "true",
        },
        encoding: "utf8",
        timeout: 120_000,
      });
    try {
      fs.writeFileSync(path.join(program, "Pulumi.yaml"), "name: about\nruntime: nodejs\n");
      const install = pulumi(["install"]);
      expect(install.status).not.toBe(0);
      expect(install.stderr).toContain("The server does not implement the method installDependencies");
      const about = JSON.parse(pulumi(["about", "--json"]).stdout) as { runtime: unknown; errors: string[] };
      expect(about.runtime).toBeNull();
      expect(about.errors).toContainEqual(expect.stringContaining("does not implement the method about"));
    } finally {
      fs.rmSync(program, { recursive: true, force: true });
    }
  }, 150_000);
});
