/**
 * The stack's state (the engine's snapshot): resources in dependency order, the operations a command left pending,
 * and, among the resources, the default provider whose inputs are the stack configuration saved by the last `up`.
 *
 * Fields follow pulumi/pulumi `sdk/go/common/resource/resource_state.go` (State) and `pkg/resource/deploy/snapshot.go`.
 * The serialized form encrypts every secret, as a checkpoint does with the stack's secrets manager, so a test can
 * search it for a plain-text key.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "crypto";
import { isObject, isSecret, Props, SECRET_SIG, SIG_KEY, Value } from "./values";

export interface ResourceState {
  urn: string;
  type: string;
  custom: boolean;
  id: string;
  inputs: Props;
  outputs: Props;
  parent?: string;
  /** `<provider urn>::<provider id>` for custom resources (resource.State.Provider). */
  provider?: string;
  dependencies: string[];
  propertyDependencies: Record<string, string[]>;
  protect: boolean;
  retainOnDelete: boolean;
  additionalSecretOutputs: string[];
  ignoreChanges: string[];
  replaceOnChanges: string[];
  replacementTrigger?: Value;
  /** Set by a create or update that left the object but did not finish (ErrorResourceInitFailed). */
  initErrors?: string[];
  /** Deleted by a delete-before-replace whose create has not happened yet (step.go DeleteStep.Apply). */
  pendingReplacement?: boolean;
  /** Replaced by a create-before-delete, awaiting deletion (step.go CreateStep.Apply sets old.Delete). */
  delete?: boolean;
}

/** resource.Operation: a step that started and did not report back (the CLI was interrupted). */
export interface PendingOperation {
  type: "creating" | "updating" | "deleting" | "reading";
  resource: ResourceState;
}

export interface Snapshot {
  resources: ResourceState[];
  pendingOperations: PendingOperation[];
}

export function emptySnapshot(): Snapshot {
  return { resources: [], pendingOperations: [] };
}

/** A deep copy: steps mutate states of the new snapshot, never the previous one's. */
export function copyState(state: ResourceState): ResourceState {
  return structuredClone(state);
}

/** Encrypts and decrypts secret values with a per-stack key, as the passphrase secrets provider does. */
export class SecretsManager {
  private readonly key = randomBytes(32);

  /** The snapshot as a backend would write it: every secret replaced by its ciphertext. */
  serialize(snapshot: Snapshot): string {
    return JSON.stringify(this.seal(snapshot));
  }

  /** Reads what `serialize` wrote (same manager). */
  deserialize(text: string): Snapshot {
    return this.unseal(JSON.parse(text)) as Snapshot;
  }

  private seal(value: Value): Value {
    if (isSecret(value)) return { [SIG_KEY]: SECRET_SIG, ciphertext: this.encrypt(JSON.stringify(value.value)) };
    if (Array.isArray(value)) return value.map((v) => this.seal(v));
    if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.seal(v)]));
    return value;
  }

  private unseal(value: Value): Value {
    if (isObject(value) && value[SIG_KEY] === SECRET_SIG && typeof value.ciphertext === "string") {
      return { [SIG_KEY]: SECRET_SIG, value: JSON.parse(this.decrypt(value.ciphertext)) };
    }
    if (Array.isArray(value)) return value.map((v) => this.unseal(v));
    if (isObject(value)) return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, this.unseal(v)]));
    return value;
  }

  private encrypt(plain: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    const body = Buffer.concat([cipher.update(plain), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64");
  }

  private decrypt(text: string): string {
    const raw = Buffer.from(text, "base64");
    const decipher = createDecipheriv("aes-256-gcm", this.key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString();
  }
}
