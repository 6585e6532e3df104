/**
 * The engine's side of the dynamic-provider plugin for one deployment: one plugin process, configured once with the
 * default provider's inputs, and every call marshalled as pulumi/pulumi `sdk/go/common/resource/plugin/
 * provider_plugin.go` does for a plugin that accepts no secrets:
 *
 * - secrets are stripped from every request (MarshalProperties with KeepSecrets = acceptSecrets = false) and the
 *   answer is re-marked by name from what was sent (`annotateSecrets`): Check's inputs from the news, Create's and
 *   Update's outputs from the inputs, Read's inputs and outputs from the old ones;
 * - during preview, Create and Update are not sent (the plugin does not support previews): the inputs stand for the
 *   outputs (Create, Update with `req.Preview`);
 * - Configure gets the provider's inputs with their secrets kept; the plugin unwraps them (dynamic-provider
 *   `configure`, which answers acceptSecrets false).
 */
import { CheckFailure, DiffChanges, InitFailure, Plugin, PluginError } from "./plugin";
import { annotateSecrets, Props, reveal } from "./values";

export interface DiffAnswer {
  changes: DiffChanges;
  replaceKeys: string[];
  changedKeys: string[];
  deleteBeforeReplace: boolean;
}

/** A Create or Update that failed after the object existed (the plugin's ErrorResourceInitFailed). */
export class InitError extends Error {
  constructor(
    message: string,
    readonly id: string,
    readonly outputs: Props,
    readonly reasons: string[],
  ) {
    super(message);
    this.name = "InitError";
  }
}

export interface ProviderHostOptions {
  start: () => Promise<Plugin>;
  /** The default provider's inputs (the stack configuration, secrets marked), read when the plugin starts. */
  config: () => Props;
}

export class ProviderHost {
  private plugin?: Promise<Plugin>;

  constructor(private readonly options: ProviderHostOptions) {}

  /** Loads and configures the plugin without calling it (Deployment.EnsureProvider, e.g. for a delete in a preview). */
  async ensure(): Promise<void> {
    await this.ready();
  }

  /** The plugin, started and configured on first use (the registry loads a provider when a resource needs it). */
  private async ready(): Promise<Plugin> {
    this.plugin ??= this.options.start().then(async (plugin) => {
      await plugin.configure(this.options.config());
      return plugin;
    });
    return this.plugin;
  }

  /** Whether a plugin process was started. */
  started(): boolean {
    return this.plugin !== undefined;
  }

  async check(urn: string, olds: Props, news: Props): Promise<{ inputs: Props; failures: CheckFailure[] }> {
    const answer = await (await this.ready()).check(urn, reveal(olds), reveal(news));
    return { inputs: annotateSecrets(answer.inputs, news), failures: answer.failures };
  }

  async diff(urn: string, id: string, oldInputs: Props, oldOutputs: Props, news: Props): Promise<DiffAnswer> {
    const plugin = await this.ready();
    const answer = await plugin.diff(urn, id, reveal(oldInputs), reveal(oldOutputs), reveal(news));
    return {
      changes: answer.changes,
      replaceKeys: answer.replaces,
      changedKeys: answer.diffs,
      deleteBeforeReplace: answer.deleteBeforeReplace,
    };
  }

  async create(urn: string, inputs: Props, preview: boolean): Promise<{ id: string; outputs: Props }> {
    if (preview) return { id: "", outputs: inputs };
    let created: { id: string; properties: Props };
    try {
      created = await (await this.ready()).create(urn, reveal(inputs));
    } catch (error) {
      throw asInitError(error, inputs);
    }
    if (!created.id) throw new Error(`plugin returned empty resource.ID from create '${urn}'`);
    return { id: created.id, outputs: annotateSecrets(created.properties, inputs) };
  }

  async update(urn: string, id: string, oldInputs: Props, oldOutputs: Props, news: Props, preview: boolean) {
    if (preview) return news;
    try {
      const plugin = await this.ready();
      const outputs = await plugin.update(urn, id, reveal(oldInputs), reveal(oldOutputs), reveal(news));
      return annotateSecrets(outputs, news);
    } catch (error) {
      throw asInitError(error, news);
    }
  }

  async read(urn: string, id: string, inputs: Props, outputs: Props) {
    const read = await (await this.ready()).read(urn, id, reveal(outputs), reveal(inputs));
    return {
      id: read.id,
      outputs: annotateSecrets(read.outputs, outputs),
      inputs: read.inputs && annotateSecrets(read.inputs, inputs),
    };
  }

  async delete(urn: string, id: string, inputs: Props, outputs: Props): Promise<void> {
    await (await this.ready()).delete(urn, id, reveal(inputs), reveal(outputs));
  }

  /** What the plugin wrote (the engine shows it as the command's diagnostics). */
  async output(): Promise<string> {
    return (await this.plugin?.catch(() => undefined))?.text() ?? "";
  }

  async kill(): Promise<void> {
    if (this.plugin) (await this.plugin.catch(() => undefined))?.kill();
  }

  async close(): Promise<void> {
    if (this.plugin) await (await this.plugin.catch(() => undefined))?.close();
  }
}

function asInitError(error: unknown, inputs: Props): unknown {
  if (!(error instanceof PluginError) || !error.initFailure) return error;
  const failure: InitFailure = error.initFailure;
  return new InitError(error.message, failure.id, annotateSecrets(failure.properties, inputs), failure.reasons);
}
