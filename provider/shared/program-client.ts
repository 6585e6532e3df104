/**
 * A client for functions that run in the program, not in the plugin (getProjects, getRolePassword): credentials
 * resolved exactly as the plugin resolves them (`neon:apiKey` / `neon:apiUrl` from the stack config, else NEON_API_KEY /
 * NEON_API_HOST; never a program's own `apiKey`), when the function is called.
 */
import * as pulumi from "@pulumi/pulumi";
import { ConfigSource, NeonClient, resolveConfig } from "../../client";

/** The stack configuration as the program sees it, by full key (`neon:apiKey`). */
const programConfig: ConfigSource = {
  get(key) {
    const separator = key.indexOf(":");
    return new pulumi.Config(key.slice(0, separator)).get(key.slice(separator + 1));
  },
};

/** A new client with the program's credentials; fails before any request when no key is set. */
export function programClient(): NeonClient {
  const { apiKey, apiUrl } = resolveConfig(undefined, programConfig, process.env);
  return new NeonClient({ apiKey, apiUrl });
}

/** The setting the program's key comes from, for messages: `neon:apiKey`, else `NEON_API_KEY`. */
export function programKeySetting(): string {
  const configured = programConfig.get("neon:apiKey");
  return configured !== undefined && configured.trim() !== "" ? "neon:apiKey" : "NEON_API_KEY";
}
