/** The package as `npm pack` makes it from this repository (its compiled dist/, without running `prepack` again). */
import { execFileSync } from "child_process";
import * as path from "path";

export const REPO_ROOT = path.resolve(__dirname, "../../..");

/** Packs the repository into `destination`; returns the tarball's path. */
export function packRepository(destination: string): string {
  const packed = execFileSync("npm", ["pack", "--ignore-scripts", "--json", "--pack-destination", destination], {
    cwd: REPO_ROOT,
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  });
  return path.join(destination, (JSON.parse(packed) as { filename: string }[])[0].filename);
}
