/**
 * Dynamic resources for the engine's edges (the differential suite, test/cli/differential-lifecycle.test.ts): a
 * provider whose Create answers an empty id (a defect the engine catches), and one whose Read takes a while (to make
 * refreshes finish out of order).
 */
import * as pulumi from "@pulumi/pulumi";

type Props = Record<string, unknown>;

function record(method: string, args: Props): void {
  const fs = require("fs") as typeof import("fs");
  const file = process.env.RECORDER_LOG;
  if (file) fs.appendFileSync(file, JSON.stringify({ pid: process.pid, method, ...args }) + "\n");
}

/** Create answers an empty id (e.g. the id read at the wrong level of an API answer). */
const emptyIdProvider: pulumi.dynamic.ResourceProvider = {
  async create(inputs: Props) {
    record("create", { inputs });
    return { id: "", outs: { ...inputs, out: "made" } };
  },
  async delete(id: string, props: Props) {
    record("delete", { id, props });
  },
};

export class EmptyId extends pulumi.dynamic.Resource {
  declare readonly out: pulumi.Output<string>;
  constructor(name: string, args: { value: pulumi.Input<string> }, opts?: pulumi.CustomResourceOptions) {
    super(emptyIdProvider, name, { out: undefined, ...args }, opts, "test", "EmptyId");
  }
}

/** Read waits `readDelayMs`; Diff replaces on a changed value (delete-before-replace with `dbr`). */
const slowReadProvider: pulumi.dynamic.ResourceProvider = {
  async diff(id: string, olds: Props, news: Props) {
    record("diff", { id, olds, news });
    const replace = olds.value !== news.value;
    return { changes: replace, replaces: replace ? ["value"] : [], deleteBeforeReplace: news.dbr === true };
  },
  async create(inputs: Props) {
    record("create", { inputs });
    return {
      id: `${String(inputs.value)}-${Math.random().toString(16).slice(2, 8)}`,
      outs: { ...inputs, out: `o-${String(inputs.value)}` },
    };
  },
  async read(id: string, props: Props) {
    const ms = Number(props.readDelayMs ?? 0);
    if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
    record("read", { id });
    return { id, props };
  },
  async delete(id: string, props: Props) {
    record("delete", { id, props });
  },
};

export class SlowRead extends pulumi.dynamic.Resource {
  declare readonly out: pulumi.Output<string>;
  constructor(
    name: string,
    args: { value: pulumi.Input<string>; readDelayMs?: number; dbr?: boolean },
    opts?: pulumi.CustomResourceOptions,
  ) {
    super(slowReadProvider, name, { out: undefined, ...args }, opts, "test", "SlowRead");
  }
}
