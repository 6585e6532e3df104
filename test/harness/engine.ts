/**
 * A step driver that does for each resource what the Pulumi engine does with a resource provider:
 * Check (olds = old inputs), Diff (olds = old OUTPUTS), then Create, Update, or a replacement (a second
 * Check with empty olds, create-before-delete unless deleteBeforeReplace, the old one deleted at the end),
 * Delete for resources no longer declared, Read for refresh, and ErrorResourceInitFailed kept in state.
 *
 * State is kept the way a backend keeps it: outputs named in additionalSecretOutputs are encrypted, so a
 * test can search the serialized state for plain-text secrets.
 */
import { createCipheriv, createDecipheriv, randomBytes } from "crypto";
import { Plugin, PluginError, Props } from "./plugin";

export interface Declared {
  type: string;
  name: string;
  inputs: Props;
  secretOutputs: string[];
}

export interface ResourceState {
  urn: string;
  type: string;
  id: string;
  inputs: Props;
  outputs: Props;
  secretOutputs: string[];
  initErrors?: string[];
}

export type StepOp = "create" | "update" | "same" | "replace" | "delete" | "delete-replaced" | "refresh" | "drop";

export interface Step {
  op: StepOp;
  name: string;
  replaces?: string[];
}

const SECRET_SIG = "4dabf18193072939515e22adb298388d";

/** A Check that refused the inputs: each failure names its property. */
export class CheckFailedError extends Error {
  constructor(
    readonly resourceName: string,
    readonly failures: { property: string; reason: string }[],
  ) {
    super(`${resourceName}: ${failures.map((f) => `${f.property}: ${f.reason}`).join("; ")}`);
  }
}

export class StepEngine {
  readonly state = new Map<string, ResourceState>();
  steps: Step[] = [];
  errors: Error[] = [];
  private readonly stateKey = randomBytes(32);
  private pendingDeletes: ResourceState[] = [];

  constructor(readonly plugin: Plugin) {}

  static urn(type: string, name: string): string {
    return `urn:pulumi:stack::project::${type}::${name}`;
  }

  /** Registers one declared resource during an update (or a preview) and returns its id and outputs. */
  async apply(declared: Declared, preview: boolean): Promise<{ id: string; outputs: Props }> {
    const urn = StepEngine.urn(declared.type, declared.name);
    const old = this.state.get(urn);
    const checked = await this.check(urn, old?.inputs ?? {}, declared);
    if (!old) return preview ? this.plan("create", declared, {}) : this.create(urn, declared, checked);
    const outputs = this.reveal(old);
    const diff = await this.plugin.diff(urn, old.id, outputs, checked);
    if (diff.replaces.length > 0) {
      if (preview) return { ...this.plan("replace", declared, outputs, diff.replaces), id: old.id };
      return this.replace(urn, declared, old, diff.replaces, diff.deleteBeforeReplace);
    }
    const changed = diff.changes === "some" || (diff.changes === "unknown" && json(old.inputs) !== json(checked));
    if (!changed && !old.initErrors) return { ...this.plan("same", declared, outputs), id: old.id };
    if (preview) return { ...this.plan("update", declared, outputs), id: old.id };
    return this.update(urn, declared, old, checked);
  }

  /** Ends an update: deletes replaced resources, then resources the program no longer declares. */
  async finish(declaredUrns: Set<string>, preview: boolean): Promise<void> {
    for (const old of this.pendingDeletes.splice(0)) await this.deleteOne(old, "delete-replaced");
    for (const resource of [...this.state.values()].reverse()) {
      if (declaredUrns.has(resource.urn)) continue;
      if (preview) this.steps.push({ op: "delete", name: nameOf(resource.urn) });
      else await this.deleteOne(resource, "delete");
    }
  }

  /** `pulumi refresh`: Read for every resource; an empty id drops it from state. */
  async refresh(): Promise<void> {
    for (const resource of [...this.state.values()]) {
      const read = await this.plugin.read(resource.urn, resource.id, this.reveal(resource), resource.inputs);
      if (!read.id) {
        this.state.delete(resource.urn);
        this.steps.push({ op: "drop", name: nameOf(resource.urn) });
        continue;
      }
      this.store(
        resource.urn,
        resource.type,
        read.id,
        read.inputs ?? resource.inputs,
        read.properties,
        resource.secretOutputs,
      );
      this.steps.push({ op: "refresh", name: nameOf(resource.urn) });
    }
  }

  /** `pulumi destroy`: deletes every resource, newest first. */
  async destroy(): Promise<void> {
    await this.finish(new Set(), false);
  }

  /** The state as a backend would write it: secrets encrypted. */
  serializedState(): string {
    return JSON.stringify([...this.state.values()]);
  }

  /** A resource's outputs with secrets decrypted (what the engine hands the provider). */
  outputsOf(type: string, name: string): Props | undefined {
    const resource = this.state.get(StepEngine.urn(type, name));
    return resource && this.reveal(resource);
  }

  private async check(urn: string, olds: Props, declared: Declared): Promise<Props> {
    const result = await this.plugin.check(urn, olds, declared.inputs);
    if (result.failures.length > 0) throw new CheckFailedError(declared.name, result.failures);
    return result.inputs;
  }

  private plan(op: StepOp, declared: Declared, outputs: Props, replaces?: string[]): { id: string; outputs: Props } {
    this.steps.push({ op, name: declared.name, ...(replaces ? { replaces } : {}) });
    return { id: "", outputs };
  }

  private async create(urn: string, declared: Declared, inputs: Props, op: StepOp = "create") {
    this.steps.push({ op, name: declared.name });
    try {
      const created = await this.plugin.create(urn, inputs);
      this.store(urn, declared.type, created.id, inputs, created.properties, declared.secretOutputs);
      return { id: created.id, outputs: created.properties };
    } catch (error) {
      throw this.keepInitFailure(urn, declared, inputs, error);
    }
  }

  private async update(urn: string, declared: Declared, old: ResourceState, inputs: Props) {
    this.steps.push({ op: "update", name: declared.name });
    try {
      const outputs = await this.plugin.update(urn, old.id, this.reveal(old), inputs);
      this.store(urn, declared.type, old.id, inputs, outputs, declared.secretOutputs);
      return { id: old.id, outputs };
    } catch (error) {
      throw this.keepInitFailure(urn, declared, inputs, error);
    }
  }

  private async replace(urn: string, declared: Declared, old: ResourceState, replaces: string[], deleteFirst: boolean) {
    const inputs = await this.check(urn, {}, declared);
    if (deleteFirst) await this.deleteOne(old, "delete-replaced");
    else this.pendingDeletes.push(old);
    this.state.delete(urn);
    const result = await this.create(urn, declared, inputs, "replace");
    this.steps[this.steps.length - 1].replaces = replaces;
    return result;
  }

  private async deleteOne(resource: ResourceState, op: StepOp): Promise<void> {
    this.steps.push({ op, name: nameOf(resource.urn) });
    await this.plugin.delete(resource.urn, resource.id, this.reveal(resource));
    if (this.state.get(resource.urn)?.id === resource.id) this.state.delete(resource.urn);
  }

  /** ErrorResourceInitFailed: the object exists, so the engine keeps it with the properties it was given. */
  private keepInitFailure(urn: string, declared: Declared, inputs: Props, error: unknown): unknown {
    if (error instanceof PluginError && error.initFailure) {
      const { id, properties, reasons } = error.initFailure;
      this.store(urn, declared.type, id, inputs, properties, declared.secretOutputs);
      this.state.get(urn)!.initErrors = reasons;
    }
    this.errors.push(error as Error);
    return error;
  }

  private store(urn: string, type: string, id: string, inputs: Props, outputs: Props, secretOutputs: string[]): void {
    const sealed: Props = { ...outputs };
    for (const key of secretOutputs) if (key in sealed) sealed[key] = this.seal(sealed[key]);
    this.state.set(urn, { urn, type, id, inputs, outputs: sealed, secretOutputs });
  }

  private reveal(resource: ResourceState): Props {
    const outputs: Props = { ...resource.outputs };
    for (const key of resource.secretOutputs) if (outputs[key]?.[SECRET_SIG]) outputs[key] = this.unseal(outputs[key]);
    return outputs;
  }

  private seal(value: unknown): Props {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.stateKey, iv);
    const body = Buffer.concat([cipher.update(JSON.stringify(value)), cipher.final()]);
    const ciphertext = Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64");
    return { [SECRET_SIG]: "1b47061264138c4ac30d75fd1eb44270", ciphertext };
  }

  private unseal(sealed: Props): unknown {
    const raw = Buffer.from(String(sealed.ciphertext), "base64");
    const decipher = createDecipheriv("aes-256-gcm", this.stateKey, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return JSON.parse(Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString());
  }
}

function nameOf(urn: string): string {
  return urn.split("::").pop() ?? urn;
}

function json(value: unknown): string {
  return JSON.stringify(value);
}
