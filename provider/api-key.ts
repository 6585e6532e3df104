/**
 * The ApiKey resource: an account API key, for example one for a CI pipeline.
 *
 * The provider object is serialized into `__provider`: it loads the installed implementation at call
 * time and captures nothing (no key, no client). The secret output `key` is registered as a secret, so
 * the engine encrypts it in state.
 */
import * as pulumi from "@pulumi/pulumi";

export interface ApiKeyArgs {
  /** The key's name, 1 to 64 characters. A new name makes a new key (created before the old one is revoked). */
  keyName: pulumi.Input<string>;
}

const apiKeyProvider: pulumi.dynamic.ResourceProvider = {
  configure: (req) => impl().configure(req),
  check: (olds, news) => impl().check(olds, news),
  diff: (id, olds, news) => impl().diff(id, olds, news),
  create: (inputs) => impl().create(inputs),
  read: (id, props) => impl().read(id, props),
  update: (id, olds) => impl().update(id, olds),
  delete: (id) => impl().deleteKey(id),
};

function impl(): typeof import("./api-key-impl") {
  return require("pulumi-neon-dynamic/provider/api-key-impl");
}

export const API_KEY_OUTPUTS = ["keyId", "key", "createdAt", "lastUsedAt", "lastUsedFromAddr"] as const;

/** An account API key. Destroying it revokes it. */
export class ApiKey extends pulumi.dynamic.Resource {
  declare readonly keyName: pulumi.Output<string>;
  /** The key's numeric id. */
  declare readonly keyId: pulumi.Output<number>;
  /** The secret value: shown only at creation, kept encrypted in state. */
  declare readonly key: pulumi.Output<string>;
  declare readonly createdAt: pulumi.Output<string>;
  declare readonly lastUsedAt: pulumi.Output<string | null>;
  declare readonly lastUsedFromAddr: pulumi.Output<string | null>;

  constructor(name: string, args: ApiKeyArgs, opts?: pulumi.CustomResourceOptions) {
    const outputs = Object.fromEntries(API_KEY_OUTPUTS.map((key) => [key, undefined]));
    const secretOutputs = [...(opts?.additionalSecretOutputs ?? []), "key"];
    super(
      apiKeyProvider,
      name,
      { ...outputs, ...args },
      { ...opts, additionalSecretOutputs: secretOutputs },
      "neon",
      "ApiKey",
    );
  }
}
