/** The package as `npm pack` makes it from this repository (its compiled dist/, without running `prepack` again), and the
 * environment npm installs it in, as a user's shell would. */
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

/** The environment of a user's shell: none of npm's script variables or this suite's Neon and Pulumi settings. */
export function userEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (!/^(npm_|NEON_|PULUMI_)/i.test(key)) env[key] = value;
  }
  return {
    ...env,
    // Cache and network policy only: the packages and their versions are the page's.
    npm_config_prefer_offline: "true",
    npm_config_fetch_retries: "5",
    npm_config_audit: "false",
    npm_config_fund: "false",
    npm_config_update_notifier: "false",
  };
}
