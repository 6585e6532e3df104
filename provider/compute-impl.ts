/**
 * Compute's provider implementation, loaded by the serialized provider at call time (see compute.ts), so
 * that resources already in state run the installed version of this code.
 */
import type * as pulumi from "@pulumi/pulumi";
import { checkComputeInputs } from "./compute-check";
import { planComputeChange, restartWarning } from "./compute-diff";
import { ApiEndpoint, inputsFromOutputs, toOutputs } from "./compute-mapping";
import { adoptCompute, createCompute } from "./compute-create";
import { errorKind, OUTCOME_UNKNOWN, resendWhileUnknown, ResourceInitError } from "./errors";
import { client, configure as configureRuntime } from "./runtime";
import { patchCompute } from "./compute-patch";

type Props = Record<string, unknown>;

export async function configure(req: pulumi.dynamic.ConfigureRequest): Promise<void> {
  configureRuntime(req.config);
}

export async function check(_olds: Props, news: Props): Promise<pulumi.dynamic.CheckResult> {
  return { inputs: news, failures: checkComputeInputs(news) };
}

/** Pure: decides replace / restart / PATCH from the old outputs and new inputs; warns when a size change restarts. */
export async function diff(id: string, olds: Props, news: Props): Promise<pulumi.dynamic.DiffResult> {
  const plan = planComputeChange(olds, news);
  if (plan.restartsBySize && plan.replaces.length === 0) process.stderr.write(`${restartWarning(id, olds, news)}\n`);
  return { changes: plan.changes, replaces: plan.replaces, deleteBeforeReplace: plan.deleteBeforeReplace };
}

export async function create(inputs: Props): Promise<pulumi.dynamic.CreateResult> {
  const endpoint = inputs.adoptId ? await adoptCompute(inputs) : await createCompute(inputs);
  return { id: endpoint.id, outs: toOutputs(endpoint, inputs) };
}

/** Refresh: the compute as it is now; one deleted outside Pulumi leaves state (empty id). */
export async function read(id: string, props: Props): Promise<pulumi.dynamic.ReadResult> {
  try {
    const endpoint = (await client().endpoints.get(String(props.projectId), id)) as ApiEndpoint;
    const outs = toOutputs(endpoint, props);
    return { id, props: outs, inputs: inputsFromOutputs(outs) };
  } catch (error) {
    if (errorKind(error) === "not_found") return { id: "", props: {} };
    throw error;
  }
}

/** Sends only what changed (one PATCH), then the restart API when restartTriggers changed. */
export async function update(id: string, olds: Props, news: Props): Promise<pulumi.dynamic.UpdateResult> {
  const plan = planComputeChange(olds, news);
  const projectId = String(olds.projectId);
  try {
    let endpoint: ApiEndpoint | undefined;
    if (plan.patch.length > 0) endpoint = await patchCompute(projectId, id, news, plan.patch);
    if (plan.restartByTrigger) endpoint = (await client().endpoints.restart(projectId, id)).endpoint as ApiEndpoint;
    endpoint ??= (await client().endpoints.get(projectId, id)) as ApiEndpoint;
    return { outs: toOutputs(endpoint, news) };
  } catch (error) {
    // The restart comes last: after any failure it did not finish, so the old triggers are what stands.
    const recorded = plan.restartByTrigger ? { ...news, restartTriggers: olds.restartTriggers } : news;
    throw await withCurrentState(projectId, id, recorded, error);
  }
}

/**
 * Deletes and waits; a compute already gone is fine. A delete whose outcome is unknown is read back by the client
 * (gone → done) and only then sent again, a few times, so that a run of lost responses does not fail the step.
 */
export async function deleteCompute(id: string, props: Props): Promise<void> {
  const projectId = String(props.projectId);
  await resendWhileUnknown(async () => void (await client().endpoints.delete(projectId, id)));
}

/**
 * After a failed update whose outcome is unknown, report the compute as it now is, so the engine's state
 * matches the service and the next `up` sends exactly what is still missing.
 */
async function withCurrentState(projectId: string, id: string, news: Props, error: unknown): Promise<unknown> {
  if (!OUTCOME_UNKNOWN.has(errorKind(error) ?? "")) return error;
  try {
    const endpoint = (await client().endpoints.get(projectId, id)) as ApiEndpoint;
    return new ResourceInitError(id, toOutputs(endpoint, news), error, news);
  } catch {
    return error;
  }
}
