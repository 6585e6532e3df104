/**
 * Where the real Pulumi CLI is: a root named by PULUMI_CLI_ROOT (`<root>/bin/pulumi`), the build of
 * `npm run pulumi:install` (`.pulumi-cli/bin/pulumi` in this repository), or a `pulumi` on PATH (Pulumi's installer puts the
 * dynamic provider's plugin and the Node.js language host beside it). The answer is the install root that the
 * Automation API's `PulumiCommand.get({ root })` takes.
 */
import * as fs from "fs";
import * as path from "path";

/** The repository's (or the installed package's) root: the CLI build lives under it. */
const PACKAGE_ROOT = path.resolve(
  __dirname,
  "..",
  fs.existsSync(path.join(__dirname, "..", "package.json")) ? "" : "..",
);

export const CLI_BUILD_ROOT = path.join(PACKAGE_ROOT, ".pulumi-cli");

/**
 * The CLI's install root (its `bin/pulumi` runs), or undefined when there is none. PULUMI_CLI_ROOT, when set, is the
 * only place looked at (set to "" it means "no CLI": a test of what a machine without one does).
 */
export function findPulumiCli(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.PULUMI_CLI_ROOT !== undefined) {
    return env.PULUMI_CLI_ROOT && isExecutable(path.join(env.PULUMI_CLI_ROOT, "bin", "pulumi"))
      ? env.PULUMI_CLI_ROOT
      : undefined;
  }
  if (isExecutable(path.join(CLI_BUILD_ROOT, "bin", "pulumi"))) return CLI_BUILD_ROOT;
  for (const dir of (env.PATH ?? "").split(path.delimiter).filter(Boolean)) {
    if (isExecutable(path.join(dir, "pulumi"))) return path.dirname(dir);
  }
  return undefined;
}

/** An executable file (not a directory) that this process may run. */
export function isExecutable(file: string): boolean {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return fs.statSync(file).isFile();
  } catch {
    return false;
  }
}
