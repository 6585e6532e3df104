/**
 * The whole minimal program of the README's Install section, as written: its files (`Pulumi.yaml`, `package.json`,
 * `tsconfig.json`, `index.ts`), the `npm install` of the tarball and the keys its `pulumi config set` lines set.
 * test/cli/examples-outside.test.ts runs it with the real CLI; test/package/readme-program.test.ts checks it matches
 * the examples'. Both read it here, so what runs is what the README says.
 */
import * as fs from "fs";
import * as path from "path";
import { sectionSteps } from "./markdown-steps";
import { REPO_ROOT } from "./pack";

export const INSTALL_SECTION = "## Install";

export interface ReadmeProgram {
  /** File name → content, in the order the README gives them. */
  files: Record<string, string>;
  /** The command that installs the tarball in the program's directory (its path as the README's placeholder). */
  install: string;
  /** The keys of the `pulumi config set` lines, in order. */
  configKeys: string[];
  /** The `pulumi` commands, in order. */
  commands: string[];
}

/** The program of the README's Install section; throws when the section holds no such program. */
export function readmeProgram(readme = fs.readFileSync(path.join(REPO_ROOT, "README.md"), "utf8")): ReadmeProgram {
  const steps = sectionSteps(readme, INSTALL_SECTION);
  const files = Object.fromEntries(steps.filter((step) => step.file).map((step) => [step.file!, step.body]));
  const last = steps.at(-1);
  if (!last || last.file || last.lang !== "sh") throw new Error("the README's Install section ends with no sh block");
  const lines = last.body
    .split("\n")
    .map((line) => line.replace(/\s+#.*$/, "").trim())
    .filter(Boolean);
  const install = lines.find((line) => line.startsWith("npm install "));
  if (!install) throw new Error("the README's Install section's last sh block has no npm install");
  const commands = lines.filter((line) => line.startsWith("pulumi "));
  const configKeys = commands
    .filter((line) => line.startsWith("pulumi config set "))
    .map((line) => line.split(/\s+/).filter((word) => !word.startsWith("--"))[3]);
  return { files, install, configKeys, commands };
}
