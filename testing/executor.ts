/**
 * How steps run, from pulumi/pulumi `pkg/resource/deploy/step_executor.go` and `step_generator.go` ScheduleDeletes:
 * - a registration's steps form one chain, run in order by one worker; at most `parallel` chains run at once
 *   (`--parallel`, default 4 × the number of CPUs: pkg/cmd/pulumi/operations/up.go defaultParallel);
 * - after the first failed step no new chain starts (the executor cancels its context); chains already running
 *   finish;
 * - deletes run in antichains: each antichain in parallel, a resource only after everything that depends on it.
 */
import { cpus } from "os";
import { ResourceState } from "./state";
import { dependenciesOf, Step } from "./step-generator";

/** `--parallel`'s default: PULUMI_PARALLEL when set, else 4 × the CPUs (runtime.GOMAXPROCS(0) * 4). */
export function defaultParallel(env: NodeJS.ProcessEnv = process.env): number {
  const fromEnv = Number(env.PULUMI_PARALLEL);
  return Number.isInteger(fromEnv) && fromEnv > 0 ? fromEnv : cpus().length * 4;
}

/** At most `limit` tasks at once, in submission order. */
export class Pool {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    try {
      return await task();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
}

/**
 * ScheduleDeletes: antichains of delete steps, to run one after another, each in parallel. Built from the resources
 * with no dependency left among the condemned (parents, dependencies, property dependencies, provider), then
 * reversed, so a resource is deleted only after its dependents.
 */
export function scheduleDeletes(steps: Step[]): Step[][] {
  const condemned = new Map<ResourceState, Step>();
  for (const step of steps) if ("old" in step) condemned.set(step.old, step);
  const antichains: Step[][] = [];
  while (condemned.size > 0) {
    const urns = new Set([...condemned.keys()].map((state) => state.urn));
    const free = [...condemned.keys()].filter((state) =>
      dependencyUrns(state).every((urn) => urn === state.urn || !urns.has(urn)),
    );
    // A dependency cycle cannot come from a valid snapshot; break it rather than loop.
    const chain = free.length > 0 ? free : [...condemned.keys()];
    antichains.push(chain.map((state) => condemned.get(state) as Step));
    for (const state of chain) condemned.delete(state);
  }
  return antichains.reverse();
}

/** A state's dependencies, its provider included (DependencyGraph's edges). */
export function dependencyUrns(state: ResourceState): string[] {
  const provider = state.provider ? [state.provider.slice(0, state.provider.lastIndexOf("::"))] : [];
  return [...dependenciesOf(state), ...provider];
}
