/**
 * Our provider as the engine drives it: each stage (create, resize, destroy) is one `pulumi up` (a new plugin
 * process, configured, then Check/Diff/Create/Update/Delete over gRPC with the real `__provider`), with at most
 * `parallel` resource steps in flight.
 */
import { Emulator } from "../emulator";
import { Plugin } from "../testing/plugin";
import { Props } from "../testing/values";
import { BenchConfig } from "./config";
import { meter, RunResult } from "./measure";
import { pool } from "./stats";
import { Captured, COMPUTE_TYPE, computeInputs, pluginFor, urn } from "./world";

interface Resource {
  urn: string;
  project: number;
  name: string;
  id?: string;
  inputs?: Props;
  outputs?: Props;
}

/** The computes of a run: `perProject` in each of `projects`, listed round-robin across projects. */
export function resources(projects: number, perProject: number): Resource[] {
  const out: Resource[] = [];
  for (let c = 0; c < perProject; c++) {
    for (let p = 0; p < projects; p++)
      out.push({ urn: urn(COMPUTE_TYPE, `c${p}-${c}`), project: p, name: `c${p}-${c}` });
  }
  return out;
}

async function create(plugin: Plugin, captured: Captured, r: Resource): Promise<void> {
  const news = computeInputs(captured, r.project, r.name, 0.25);
  const checked = await plugin.check(r.urn, {}, news);
  if (checked.failures.length > 0) throw new Error(`check: ${JSON.stringify(checked.failures)}`);
  const created = await plugin.create(r.urn, checked.inputs);
  Object.assign(r, { id: created.id, inputs: checked.inputs, outputs: created.properties });
}

async function resize(plugin: Plugin, captured: Captured, r: Resource): Promise<void> {
  const news = computeInputs(captured, r.project, r.name, 0.5);
  const checked = await plugin.check(r.urn, r.inputs!, news);
  const diff = await plugin.diff(r.urn, r.id!, r.inputs!, r.outputs!, checked.inputs);
  if (diff.changes !== "some" || diff.replaces.length > 0) throw new Error(`unexpected diff ${JSON.stringify(diff)}`);
  const outputs = await plugin.update(r.urn, r.id!, r.inputs!, r.outputs!, checked.inputs);
  Object.assign(r, { inputs: checked.inputs, outputs });
}

async function destroy(plugin: Plugin, _captured: Captured, r: Resource): Promise<void> {
  await plugin.delete(r.urn, r.id!, r.inputs!, r.outputs!);
}

type Step = (plugin: Plugin, captured: Captured, r: Resource) => Promise<void>;

/** One `pulumi up`: a fresh plugin (started before the clock runs), then the steps. */
async function stage(
  emulator: Emulator,
  captured: Captured,
  shape: { parallel: number; timeScale: number },
  list: Resource[],
  step: Step,
) {
  const plugin = await pluginFor(emulator, shape.timeScale);
  try {
    // Plugin start and the first load of the provider's code are measured apart (section 5): one pure Check first.
    await plugin.check(list[0].urn, {}, computeInputs(captured, list[0].project, list[0].name, 0.25));
    const started = performance.now();
    const results = await pool(
      shape.parallel,
      list.map((r) => () => step(plugin, captured, r)),
    );
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
  captured: Captured,
  config: BenchConfig,
  shape: { projects: number; perProject: number; parallel: number },
): Promise<RunResult> {
  const list = resources(shape.projects, shape.perProject);
  const done = meter(emulator, config.timeScale);
  const stagesMs: number[] = [];
  for (const step of [create, resize, destroy])
    stagesMs.push(
      await stage(emulator, captured, { parallel: shape.parallel, timeScale: config.timeScale }, list, step),
    );
  return { ...done(0, list.length * 3), wallMs: stagesMs.reduce((a, b) => a + b, 0), stagesMs };
}
