/**
 * The delete phase of a deployment (pulumi/pulumi `pkg/resource/deploy/deployment_executor.go` performPostSteps,
 * `step_executor.go` cancelDueToError): the deletes in antichains, dependents first. A protected resource's refused
 * delete does not cancel the deployment ("we special case deleteProtectedError to always continue past them"): the
 * later antichains run, leaving out what the refused resource depends on (`erroredDeps`, its transitive
 * dependencies). Any other failure cancels what has not started.
 */
import { dependencyUrns, scheduleDeletes } from "./executor";
import { ResourceState } from "./state";
import { Step } from "./step-generator";

export class DeleteProtectedError extends Error {
  constructor(readonly urn: string) {
    super(
      `resource "${urn}" cannot be deleted\nbecause it is protected. To unprotect the resource, either remove the ` +
        "`protect` flag from the resource in your Pulumi program and run `pulumi up`, or use the command:\n" +
        `\`pulumi state unprotect '${urn}'\``,
    );
    this.name = "DeleteProtectedError";
  }
}

export interface DeleteRunner {
  /** Runs one step on a worker; throws its error. */
  run(step: Step): Promise<void>;
  cancelled(): boolean;
}

/** Runs the deletes; returns the protect errors it continued past. */
export async function runDeletes(steps: Step[], runner: DeleteRunner): Promise<DeleteProtectedError[]> {
  const all = steps.flatMap((step) => ("old" in step ? [step.old] : []));
  const refused: DeleteProtectedError[] = [];
  const spared = new Set<ResourceState>();
  for (const antichain of scheduleDeletes(steps)) {
    if (runner.cancelled()) break;
    const runnable = antichain.filter((step) => !("old" in step && spared.has(step.old)));
    await Promise.all(
      runnable.map(async (step) => {
        try {
          await runner.run(step);
        } catch (error) {
          if (!(error instanceof DeleteProtectedError) || !("old" in step)) return;
          refused.push(error);
          for (const dependency of transitiveDependencies(step.old, all)) spared.add(dependency);
        }
      }),
    );
  }
  return refused;
}

/** DependencyGraph.TransitiveDependenciesOf among the states being deleted. */
function transitiveDependencies(state: ResourceState, all: ResourceState[]): Set<ResourceState> {
  const found = new Set<ResourceState>();
  const visit = (current: ResourceState) => {
    for (const urn of dependencyUrns(current)) {
      for (const dependency of all.filter((s) => s.urn === urn && !found.has(s))) {
        found.add(dependency);
        visit(dependency);
      }
    }
  };
  visit(state);
  return found;
}
