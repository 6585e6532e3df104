/**
 * The ApiKey resource: a personal API key, an organization key, or a key limited to one project of an organization (for
 * example the key a CI pipeline holds). Its secret output `key` is registered as a secret, so the engine encrypts it in
 * state. The provider object and the constructed properties come from shared/dynamic-class.ts.
 */
import * as pulumi from "@pulumi/pulumi";
import { API_KEY } from "./declaration";
import { loadingProvider, constructedWith, withSecretOutputs } from "../shared/dynamic-class";

// generated: the ApiKey inputs (npm run generate, from declaration.ts)
/** The inputs of an ApiKey; docs/resources.md#apikey says what a change of each does. */
export interface ApiKeyArgs {
  /** The key's name, 1 to 64 characters. A new name makes a new key (created before the old one is revoked). */
  keyName: pulumi.Input<string>;
  /**
   * The organization the key belongs to (an id such as org-morning-bread-81040908). Without it, a personal key of the
   * account neon:apiKey belongs to; with it, an organization key, created with the personal key of a member (an
   * organization-wide key: of an admin). A change makes a new key (created before the old one is revoked).
   */
  orgId?: pulumi.Input<string>;
  /**
   * Limits the key to this project of the organization (an id such as spring-example-302709); requires orgId. Such a
   * key can use only that project (its branches, computes and operations): not list projects, create projects or keys,
   * or reach another project. A change makes a new key (created before the old one is revoked).
   */
  projectId?: pulumi.Input<string>;
}
// end of the generated ApiKey inputs

const apiKeyProvider = loadingProvider(
  () => require("pulumi-neon-dynamic/provider/api-key/impl") as typeof import("./impl"),
  (impl) => impl.deleteKey,
);

/** An API key: personal, of an organization, or limited to one project. Destroying it revokes it. */
export class ApiKey extends pulumi.dynamic.Resource {
  // generated: the ApiKey outputs (npm run generate, from declaration.ts)
  /** The key's name. */
  declare readonly keyName: pulumi.Output<string>;
  /** The key's numeric id. */
  declare readonly keyId: pulumi.Output<number>;
  /** The secret value: shown only at creation, kept encrypted in state. */
  declare readonly key: pulumi.Output<string>;
  /** Creation time (ISO 8601). */
  declare readonly createdAt: pulumi.Output<string>;
  /** When the key was last used, if ever (updated by refresh). */
  declare readonly lastUsedAt: pulumi.Output<string | null>;
  /** The address the key was last used from, if ever (updated by refresh). */
  declare readonly lastUsedFromAddr: pulumi.Output<string | null>;
  /** The organization of an organization or project-scoped key, as declared; absent for a personal key. */
  declare readonly orgId: pulumi.Output<string | undefined>;
  /**
   * The project the key is limited to, as the service answered; null for personal and organization-wide keys, and when
   * the service does not say. A project-scoped key the service answers with another scope is revoked and the create
   * fails.
   */
  declare readonly projectId: pulumi.Output<string | null>;
  // end of the generated ApiKey outputs

  constructor(name: string, args: ApiKeyArgs, opts?: pulumi.CustomResourceOptions) {
    const options = withSecretOutputs(opts, API_KEY);
    super(apiKeyProvider, name, constructedWith(API_KEY, args), options, "neon", "ApiKey");
  }
}
