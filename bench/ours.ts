/**
 * Our provider as the engine drives it: each stage (create, resize, destroy) is one `pulumi up` (a new plugin
 * process, configured, then Check/Diff/Create/Update/Delete over gRPC: the dynamic plugin with the real `__provider`,
 * or the native plugin; faces.ts), in the engine's order (`executeAsEngine`), with at most `parallel` resource steps
 * in flight.
 */
import { Emulator } from "../emulator";
import { Plugin } from "../testing/plugin";
import { Props } from "../testing/values";
import { BenchConfig } from "./config";
import { Face } from "./faces";
import { meter, RunResult } from "./measure";
import { COMPUTE_TYPE, urn } from "./world";

interface Resource {
  urn: string;
  project: number;
  name: string;
  id?: string;
  inputs?: Props;
  outputs?: Props;
}

/** The computes of a run: `perProject` in each of `projects`, listed round-robin across projects. */
export function resources(
  projects: number,
  perProject: number,
  urnOf: (name: string) => string = (name) => urn(COMPUTE_TYPE, name),
): Resource[] {
  const out: Resource[] = [];
  for (let c = 0; c < perProject; c++) {
    for (let p = 0; p < projects; p++) out.push({ urn: urnOf(`c${p}-${c}`), project: p, name: `c${p}-${c}` });
  }
  return out;
}

/**
 * How a stage changes one resource, as the engine splits it: `plan` is what the step generator does for a
 * registration (Check, then Diff for an update), `apply` the step a worker runs (Create, Update or Delete).
 */
interface Step {
  plan(plugin: Plugin, face: Face, r: Resource): Promise<() => Promise<void>>;
}

const create: Step = {
  async plan(plugin, face, r) {
    const checked = await plugin.check(r.urn, {}, face.inputs(r.project, r.name, 0.25));
    if (checked.failures.length > 0) throw new Error(`check: ${JSON.stringify(checked.failures)}`);
    return async () => {
      const created = await plugin.create(r.urn, checked.inputs);
      Object.assign(r, { id: created.id, inputs: checked.inputs, outputs: created.properties });
    };
  },
};

const resize: Step = {
  async plan(plugin, face, r) {
    const checked = await plugin.check(r.urn, r.inputs!, face.inputs(r.project, r.name, 0.5));
    const diff = await plugin.diff(r.urn, r.id!, r.inputs!, r.outputs!, checked.inputs);
    if (diff.changes !== "some" || diff.replaces.length > 0) throw new Error(`unexpected diff ${JSON.stringify(diff)}`);
    return async () => {
      const outputs = await plugin.update(r.urn, r.id!, r.inputs!, r.outputs!, checked.inputs);
      Object.assign(r, { inputs: checked.inputs, outputs });
    };
  },
};

/** A destroy's deletes are generated after the program ends, with no Check: one antichain, as these are independent. */
const destroy: Step = {
  plan: async (plugin, _face, r) => () => plugin.delete(r.urn, r.id!, r.inputs!, r.outputs!),
};

/**
 * Runs a stage's steps in the engine's order. The deployment executor's loop handles one registration at a time:
 * it generates its steps (Check and Diff, synchronous gRPC calls: deployment_executor.go handleSingleEvent,
 * step_generator.go GenerateSteps) and hands them to the step executor, whose `parallel` workers read an unbuffered
 * channel (step_executor.go ExecuteSerial, newStepExecutor): the loop waits there until a worker is free. So
 * resource k's Check is answered before resource k+1's is sent, and a Create may start while later Checks run.
 * After a failure nothing new starts (the step executor cancels), as in the tests' engine (testing/executor.ts).
 */
async function executeAsEngine(
  parallel: number,
  list: Resource[],
  plan: (r: Resource) => Promise<() => Promise<void>>,
): Promise<PromiseSettledResult<void>[]> {
  const results: PromiseSettledResult<void>[] = [];
  const running = new Set<Promise<void>>();
  const failed = () => results.some((r) => r.status === "rejected");
  for (const r of list) {
    let apply: () => Promise<void>;
    try {
      apply = await plan(r);
    } catch (reason) {
      results.push({ status: "rejected", reason });
      break;
    }
    while (running.size >= parallel) await Promise.race(running);
    if (failed()) break; // a failed step cancels the deployment: no new step starts, the running ones finish
    const step: Promise<void> = apply()
      .then(
        () => void results.push({ status: "fulfilled", value: undefined }),
        (reason: unknown) => void results.push({ status: "rejected", reason }),
      )
      .finally(() => running.delete(step));
    running.add(step);
  }
  await Promise.all(running);
  return results;
}

/** One `pulumi up`: a fresh plugin (started before the clock runs), then the steps. */
async function stage(
  emulator: Emulator,
  face: Face,
  shape: { parallel: number; timeScale: number },
  list: Resource[],
  step: Step,
) {
  const plugin = await face.start(emulator, shape.timeScale);
  try {
    // Plugin start and the first load of the provider's code are measured apart (section 5): one pure Check first.
    await plugin.check(list[0].urn, {}, face.inputs(list[0].project, list[0].name, 0.25));
    const started = performance.now();
    const results = await executeAsEngine(shape.parallel, list, (r) => step.plan(plugin, face, r));
    const failures = results.filter((r) => r.status === "rejected") as PromiseRejectedResult[];
    if (failures.length > 0) throw new Error(`${failures.length} steps failed: ${String(failures[0].reason)}`);
    return performance.now() - started;
  } finally {
    await plugin.close();
  }
}

/** Create, resize and destroy `perProject` computes in each of `projects` projects; the stages' times summed. */
export async function runOurs(
  emulator: Emulator,
  face: Face,
  config: BenchConfig,
  shape: { projects: number; perProject: number; parallel: number },
): Promise<RunResult> {
  const list = resources(shape.projects, shape.perProject, face.urn);
  const done = meter(emulator, config.timeScale);
  const stagesMs: number[] = [];
  for (const step of [create, resize, destroy])
    stagesMs.push(await stage(emulator, face, { parallel: shape.parallel, timeScale: config.timeScale }, list, step));
  return { ...done(0, list.length * 3), wallMs: stagesMs.reduce((a, b) => a + b, 0), stagesMs };
}
