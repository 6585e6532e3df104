/**
 * A dynamic resource whose provider records every call it gets (method, arguments, plugin pid) to the file named by
 * RECORDER_LOG, and whose answers its inputs script. The differential suite (test/cli/differential-rules.ts) drives it
 * through the local engine and the real CLI, and compares the logs: exactly what each engine sent, in which process.
 */
import * as pulumi from "@pulumi/pulumi";

export interface RecorderArgs {
  value: pulumi.Input<string>;
  /** Another input (for ignoreChanges, dependencies). */
  other?: pulumi.Input<string>;
  /** What Diff answers: "compare" (value changes → update), "replace" (value changes → replace), "unknown" (no changes). */
  diffMode?: "compare" | "replace" | "unknown" | "replace-dbr" | "none";
  /** Check waits this long (ms) before answering. */
  checkDelayMs?: number;
  /** Check refuses the inputs, naming `value`. */
  refuse?: boolean;
  /** Create/Update fail: "error" (nothing made) or "init" (made, not ready: ErrorResourceInitFailed). */
  fail?: "error" | "init";
  /** Create/Update wait this long (ms) before answering. */
  delayMs?: number;
  /** Read answers the resource as gone. */
  gone?: boolean;
  /** Read reports this value (drift); Read returns inputs only with readInputs. */
  drift?: string;
  readInputs?: boolean;
}

type Props = Record<string, unknown>;

function record(method: string, args: Props): void {
  const fs = require("fs") as typeof import("fs");
  const file = process.env.RECORDER_LOG;
  if (file) fs.appendFileSync(file, JSON.stringify({ pid: process.pid, method, ...args }) + "\n");
}

async function pause(inputs: Props, key = "delayMs"): Promise<void> {
  const ms = Number(inputs[key] ?? 0);
  if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
}

function failure(inputs: Props, id: string): Error | undefined {
  if (inputs.fail === "error") return new Error(`recorder: failing as asked`);
  if (inputs.fail !== "init") return undefined;
  return Object.assign(new Error("recorder: made but not ready"), {
    id,
    properties: { ...inputs, out: `out-${String(inputs.value)}` },
    reasons: ["not ready"],
  });
}

const recorderProvider: pulumi.dynamic.ResourceProvider = {
  async configure(req: pulumi.dynamic.ConfigureRequest) {
    const config = (req.config as unknown as { rawConfig: Props }).rawConfig;
    record("configure", {
      config,
      project: process.env.PULUMI_NODEJS_PROJECT,
      envConfig: process.env.PULUMI_CONFIG,
    });
  },
  async check(olds: Props, news: Props) {
    record("check", { olds, news, at: Date.now() });
    await pause(news, "checkDelayMs");
    record("checked", { at: Date.now() });
    return { inputs: news, failures: news.refuse ? [{ property: "value", reason: "is refused as asked" }] : [] };
  },
  async diff(id: string, olds: Props, news: Props) {
    record("diff", { id, olds, news });
    if (news.diffMode === "unknown") return {};
    if (news.diffMode === "none") return { changes: false };
    const changed = olds.value !== news.value || olds.other !== news.other;
    const replace = (news.diffMode === "replace" || news.diffMode === "replace-dbr") && olds.value !== news.value;
    return {
      changes: changed,
      replaces: replace ? ["value"] : [],
      deleteBeforeReplace: news.diffMode === "replace-dbr",
    };
  },
  async create(inputs: Props) {
    record("create", { inputs, at: Date.now() });
    await pause(inputs);
    record("created", { value: inputs.value, at: Date.now() });
    const id = `${String(inputs.value)}-${Math.random().toString(16).slice(2, 8)}`;
    const error = failure(inputs, id);
    if (error) throw error;
    return { id, outs: { ...inputs, out: `out-${String(inputs.value)}` } };
  },
  async read(id: string, props: Props) {
    record("read", { id, props });
    if (props.gone) return { id: "", props: {} };
    const value = props.drift ?? props.value;
    const outs = { ...props, value, out: `out-${String(value)}` };
    return props.readInputs ? { id, props: outs, inputs: { ...props, value } } : { id, props: outs };
  },
  async update(id: string, olds: Props, news: Props) {
    record("update", { id, olds, news });
    await pause(news);
    const error = failure(news, id);
    if (error) throw error;
    return { outs: { ...news, out: `out-${String(news.value)}` } };
  },
  async delete(id: string, props: Props) {
    record("delete", { id, props });
    await pause(props);
  },
};

/** A recorded resource: outputs are its inputs plus `out`. */
export class Recorder extends pulumi.dynamic.Resource {
  declare readonly value: pulumi.Output<string>;
  declare readonly out: pulumi.Output<string>;

  constructor(name: string, args: RecorderArgs, opts?: pulumi.CustomResourceOptions) {
    super(recorderProvider, name, { out: undefined, ...args }, opts, "test", "Recorder");
  }
}

/**
 * The same resource type with another provider object, so another `__provider` text (as after an upgrade of the
 * provider's code): only the engine's own DIFF_UNKNOWN comparison sees that difference.
 */
export class RecorderUpgraded extends pulumi.dynamic.Resource {
  declare readonly out: pulumi.Output<string>;

  constructor(name: string, args: RecorderArgs, opts?: pulumi.CustomResourceOptions) {
    const upgraded = { ...recorderProvider, release: 2 } as pulumi.dynamic.ResourceProvider;
    super(upgraded, name, { out: undefined, ...args }, opts, "test", "Recorder");
  }
}

/** A component to parent recorders under. */
export class Group extends pulumi.ComponentResource {
  constructor(name: string, opts?: pulumi.ComponentResourceOptions) {
    super("test:index:Group", name, {}, opts);
  }
}
