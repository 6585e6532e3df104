/**
 * The examples of examples/ (each directory with a Pulumi.yaml) by the runtime their Pulumi.yaml names. The
 * TypeScript programs (`nodejs`) run through the dynamic resources, on the local engine and copied out with the packed
 * package; a YAML program (`yaml`) runs only through the real CLI and the native plugin (test/cli/native-yaml.test.ts,
 * native-yaml-project.test.ts).
 *
 * Guards: the suites that compile, copy and run every example as a TypeScript program failing on a YAML one.
 */
import * as fs from "fs";
import * as path from "path";
import { parse } from "yaml";

const EXAMPLES_DIR = path.resolve(__dirname, "../../..", "examples");

/** The names of the example directories whose Pulumi.yaml has this runtime, sorted. */
export function examplesOf(runtime: "nodejs" | "yaml"): string[] {
  return fs
    .readdirSync(EXAMPLES_DIR)
    .filter((name) => fs.existsSync(path.join(EXAMPLES_DIR, name, "Pulumi.yaml")))
    .filter((name) => {
      const project = parse(fs.readFileSync(path.join(EXAMPLES_DIR, name, "Pulumi.yaml"), "utf8")) as {
        runtime: string | { name: string };
      };
      return (typeof project.runtime === "string" ? project.runtime : project.runtime.name) === runtime;
    })
    .sort();
}
