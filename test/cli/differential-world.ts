/**
 * The two sides of the differential suite: the same program, with the same inputs, run by the local engine
 * (`LocalStack`, testing/) and by the real Pulumi CLI (`CliStack`), each against a fresh emulator of its own.
 *
 * The program is built from a `Spec` the test changes between commands (both sides read the same one), with the ids
 * of each side's own emulator (its project and branches). Ids differ between the two emulators, so every id a
 * result shows is replaced by a label that means the same on both sides (differential-compare.ts): `{ep:db}` is the
 * first compute resource `db` had, `{ep:db#2}` its replacement, `{br:dev}` the branch dev, `{op}` any operation.
 */
import { createHash } from "crypto";
import * as path from "path";
import * as pulumi from "@pulumi/pulumi";
import { Emulator, startEmulator } from "../../emulator";
import { ApiKey, Compute, ComputeArgs } from "../../provider";
import { NeonClient } from "../../client";
import { CommandOptions, CommandResult, LocalStack } from "../../testing";
import { CliStack } from "../../testing/cli-stack";

export const REPO_ROOT = path.resolve(__dirname, "../../..");
export const PROJECT = "differential";
export const STACK = "dev";

export type Engine = "model" | "cli";

/** The program's inputs: a primary `db`, a replica `replica`, an API key `ci`; the test changes them between runs. */
export interface Spec {
  db: { branch: string; size: number; args?: Partial<ComputeArgs> };
  replica?: { branch: string; type?: "read_write" | "read_only"; args?: Partial<ComputeArgs> };
  key?: { keyName: string; deleteBeforeReplace?: boolean };
}

/** The commands both stacks have. */
export interface DrivenStack {
  preview(options?: CommandOptions): Promise<CommandResult>;
  up(options?: CommandOptions): Promise<CommandResult>;
  refresh(options?: CommandOptions): Promise<CommandResult>;
  destroy(options?: CommandOptions): Promise<CommandResult>;
}

export interface Side {
  engine: Engine;
  emulator: Emulator;
  /** A client with the console key: what a user does outside Pulumi (an out-of-band change). */
  api: NeonClient;
  stack: DrivenStack;
  labels: IdLabels;
  /** The CLI's engine events of the last command (none for the model), for the dump of a failed comparison. */
  events(): unknown;
  /** Lists the emulator's computes and keys, so that their ids get labels (before and after each command). */
  learnIds(): Promise<void>;
  close(): Promise<void>;
}

/** The program: what `spec` declares, on the side's own project and branches. */
export function programOf(spec: () => Spec, emulator: Emulator): () => Record<string, unknown> {
  return () => {
    const { db, replica, key } = spec();
    const branches = emulator.branches;
    const primary = new Compute("db", {
      projectId: emulator.projectId,
      branchId: branches[db.branch],
      autoscalingLimitMinCu: db.size,
      autoscalingLimitMaxCu: db.size,
      ...db.args,
    });
    const outputs: Record<string, unknown> = { dbHost: primary.host, dbMinCu: primary.autoscalingLimitMinCu };
    if (replica) {
      const compute = new Compute("replica", {
        projectId: emulator.projectId,
        branchId: branches[replica.branch],
        type: replica.type ?? "read_only",
        ...replica.args,
      });
      outputs.replicaId = compute.id;
      outputs.replicaType = compute.type;
    }
    if (key) {
      const apiKey = new ApiKey(
        "ci",
        { keyName: key.keyName },
        key.deleteBeforeReplace ? { deleteBeforeReplace: true } : {},
      );
      outputs.key = apiKey.key;
      outputs.keyName = apiKey.keyName;
      outputs.keyLabel = pulumi.interpolate`key ${apiKey.keyName}`;
    }
    return outputs;
  };
}

export async function startSide(engine: Engine, spec: () => Spec, cliRoot: string | undefined): Promise<Side> {
  const emulator = await startEmulator({ operationDurationMs: 20 });
  const api = new NeonClient({ apiKey: emulator.apiKey, apiUrl: emulator.baseUrl, rateLimit: false });
  const options = {
    program: programOf(spec, emulator),
    project: PROJECT,
    stack: STACK,
    cwd: REPO_ROOT,
    requestLog: emulator,
    env: { ...process.env, NEON_API_KEY: "", NEON_API_HOST: "" },
    config: { "neon:apiKey": { secret: emulator.apiKey }, "neon:apiUrl": emulator.baseUrl },
  };
  let cli: CliStack | undefined;
  let stack: DrivenStack;
  if (engine === "cli") {
    if (!cliRoot) throw new Error("no Pulumi CLI: run npm run pulumi:install");
    cli = new CliStack({ ...options, cliRoot });
    stack = cli;
  } else {
    stack = new LocalStack({ ...options, engine: "model" });
  }
  const labels = new IdLabels(emulator);
  return {
    engine,
    emulator,
    api,
    stack,
    labels,
    events: () => cli?.lastEvents,
    learnIds: async () => {
      for (const endpoint of await api.endpoints.list(emulator.projectId)) labels.endpoint(endpoint.id, endpoint.name);
      for (const key of await api.apiKeys.list()) labels.key(String(key.id), key.name);
    },
    close: async () => {
      await cli?.dispose();
      await emulator.close();
    },
  };
}

/** The owner tag a Compute's name carries (provider/compute/resource.ts ownerTagOf), to tell whose compute an id is. */
function ownerTag(name: string): string {
  return createHash("sha256").update(`${PROJECT}/${STACK}/${name}`).digest("hex").slice(0, 12);
}

const RESOURCES = ["db", "replica"];

/**
 * Labels for the ids of one emulator: computes by the resource whose compute they are (in the order they appear:
 * `{ep:db}`, then `{ep:db#2}` for its replacement), keys by name and generation, branches by name, the project.
 */
export class IdLabels {
  private readonly labels = new Map<string, string>();
  private readonly generations = new Map<string, number>();

  constructor(private readonly emulator: Emulator) {}

  endpoint(id: string, name: string | undefined): void {
    const owner = RESOURCES.find((resource) => name?.startsWith(`pulumi-${ownerTag(resource)}-`));
    this.label(id, `ep:${owner ?? "other"}`);
  }

  key(id: string, name: string): void {
    this.label(id, `key:${name}`);
  }

  private label(id: string, base: string): void {
    if (this.labels.has(id)) return;
    const generation = (this.generations.get(base) ?? 0) + 1;
    this.generations.set(base, generation);
    this.labels.set(id, generation === 1 ? `{${base}}` : `{${base}#${generation}}`);
  }

  /**
   * Every id in a text replaced by its label; an id not seen is `{ep:?}`, `{key:?}`; operations are `{op}`; the random
   * part of a compute's name is `{n}`.
   */
  text(value: string): string {
    let out = value.split(this.emulator.projectId).join("{project}");
    for (const [name, id] of Object.entries(this.emulator.branches)) out = out.split(id).join(`{br:${name}}`);
    out = out.replace(/ep-[a-z]+-[a-z]+-\d{6}/g, (id) => this.labels.get(id) ?? "{ep:?}");
    out = out.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, "{op}");
    out = out.replace(/\b(pulumi-[0-9a-f]{12})-[0-9a-f]{8}\b/g, "$1-{n}"); // a compute's name: its tag, then a random part
    out = out.replace(
      /(\/api_keys\/)(\d+)/g,
      (_, prefix: string, id: string) => prefix + (this.labels.get(id) ?? "{key:?}"),
    );
    return out;
  }
}
