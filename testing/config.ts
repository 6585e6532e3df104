/**
 * A stack's configuration, as `pulumi config set` keeps it: namespaced keys (`neon:apiKey`; a key without a
 * namespace belongs to the project), string values (structured values as JSON), some of them secret.
 *
 * The engine hands it on twice: to the program (PULUMI_CONFIG, with PULUMI_CONFIG_SECRET_KEYS), and to the default
 * provider of a dynamic provider as its inputs, every namespace kept and secrets marked (pulumi/pulumi
 * `pkg/resource/deploy/target.go` GetPackageConfig: "For dynamic providers, we always pass the full configuration").
 */
import { Props, secret } from "./values";

/** A value as a test writes it: plain, or `{ secret: … }` for `pulumi config set --secret`. */
export type ConfigInput = string | number | boolean | { secret: string | number | boolean | object } | object;

export class StackConfig {
  private readonly values = new Map<string, { value: string; secret: boolean }>();

  constructor(
    private readonly project: string,
    entries: Record<string, ConfigInput> = {},
  ) {
    for (const [key, input] of Object.entries(entries)) this.set(key, input);
  }

  /** A copy with `changes` applied (`undefined` removes a key), as `pulumi config set/rm` would leave it. */
  with(changes: Record<string, ConfigInput | undefined>): StackConfig {
    const next = new StackConfig(this.project);
    for (const [key, entry] of this.values) next.values.set(key, entry);
    for (const [key, input] of Object.entries(changes)) {
      if (input === undefined) next.values.delete(this.fullKey(key));
      else next.set(key, input);
    }
    return next;
  }

  /** The default provider's inputs: every key with its namespace, secrets marked. */
  providerInputs(): Props {
    const inputs: Props = {};
    for (const [key, entry] of this.values) inputs[key] = entry.secret ? secret(entry.value) : entry.value;
    return inputs;
  }

  /**
   * The plugin's PULUMI_CONFIG: the keys of the plugin's own namespace, `pulumi-nodejs` for a dynamic provider, by
   * their names (pkg/host/host.go Provider: `if k.Namespace() != pkg { continue }; result[k.Name()] = v`).
   */
  pluginEnvConfig(): string {
    const result: Record<string, string> = {};
    for (const [key, entry] of this.values) {
      const at = key.indexOf(":");
      if (key.slice(0, at) === "pulumi-nodejs") result[key.slice(at + 1)] = entry.value;
    }
    return JSON.stringify(result);
  }

  /** What the language host passes the program. */
  forProgram(): { config: Record<string, string>; secretKeys: string[] } {
    const config: Record<string, string> = {};
    const secretKeys: string[] = [];
    for (const [key, entry] of this.values) {
      config[key] = entry.value;
      if (entry.secret) secretKeys.push(key);
    }
    return { config, secretKeys };
  }

  private set(key: string, input: ConfigInput): void {
    const isSecretInput = typeof input === "object" && input !== null && "secret" in input;
    const raw = isSecretInput ? (input as { secret: unknown }).secret : input;
    const value = typeof raw === "string" ? raw : JSON.stringify(raw);
    this.values.set(this.fullKey(key), { value, secret: isSecretInput });
  }

  private fullKey(key: string): string {
    return key.includes(":") ? key : `${this.project}:${key}`;
  }
}
