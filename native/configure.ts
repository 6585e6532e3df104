/**
 * Configure: where this provider's key and URL come from. The engine configures the default provider with the stack's
 * `neon:*` configuration and an explicit provider resource (`new neon.Provider("other", { apiKey })`) with its own
 * inputs, both as the request's arguments (`apiKey`, possibly a secret) and, deprecated, as its variables
 * (`neon:config:apiKey`) (pulumi/pulumi provider_plugin.go, Configure). Either is read here, the arguments first; a
 * setting in neither falls back to NEON_API_KEY / NEON_API_HOST as the dynamic provider's does
 * (client/config.ts `resolveConfig`).
 *
 * The engine starts one plugin process per provider (pkg/host/host.go, Provider: a new plugin for each load), so the
 * process-wide settings of provider/shared/runtime.ts are this provider's own: two explicit providers of one
 * program, with two accounts' keys, are two processes, each using its own key.
 */
import { ConfigureRequest } from "@pulumi/pulumi/proto/provider_pb";
import type { ConfigSource } from "../client";
import { configure as configureRuntime } from "../provider/shared/runtime";
import { receive } from "./wire";

/** The configuration of one Configure request, looked up as `neon:<name>` (the runtime's keys). */
export function configOf(request: ConfigureRequest): ConfigSource {
  const args = receive(request.getArgs()).props;
  const variables = request.getVariablesMap();
  return {
    get(key: string): string | undefined {
      const name = key.replace(/^neon:/, "");
      const value = args[name];
      if (value !== undefined && value !== null) return typeof value === "string" ? value : JSON.stringify(value);
      return variables.get(`neon:config:${name}`) ?? variables.get(`neon:${name}`);
    },
  };
}

/** Makes this process's provider use the request's settings, and name them as an explicit provider's when so. */
export function configure(request: ConfigureRequest): void {
  configureRuntime(configOf(request), explicitProviderName(request));
}

/** The names the engine gives a default provider: `default`, `default_<major>_<minor>_<patch>[_<pre>…]`. */
const DEFAULT_PROVIDER = /^default(_\d+_\d+_\d+(_\w+)*)?$/;

/**
 * The name of the explicit provider resource being configured, from the request's name or URN (sent since pulumi
 * v3.132); undefined for the default provider, which the engine names `default` or `default_<version>`
 * (pkg/resource/deploy/providers/provider.go, DefaultName).
 */
export function explicitProviderName(request: ConfigureRequest): string | undefined {
  const name = request.getName() || (request.getUrn() ?? "").split("::").pop() || "";
  return name === "" || DEFAULT_PROVIDER.test(name) ? undefined : name;
}
