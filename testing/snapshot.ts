/**
 * The snapshot manager: the state each completed step leaves, as pulumi/pulumi `pkg/backend/snapshot.go` builds it.
 *
 * - The new snapshot is the states the steps produced, in the order they completed, then every base resource no step
 *   has replaced or removed (`snap()`: "Append any resources from the base plan that were not produced").
 * - A step that starts records a pending operation; one that reports back (success or failure) clears it. What an
 *   interrupted command leaves is the snapshot of that moment, its pending operations included.
 * - Pending `creating` operations of the base are carried forward ("these must require user intervention").
 */
import { PendingOperation, ResourceState, Snapshot } from "./state";
import { Props } from "./values";

export class SnapshotManager {
  private readonly done = new Set<ResourceState>();
  private readonly produced: ResourceState[] = [];
  private readonly pending = new Set<PendingOperation>();
  private readonly inPlace = new Map<ResourceState, ResourceState>();
  private frozen?: Snapshot;

  constructor(private readonly base: Snapshot) {}

  /** The base resource states (the previous snapshot's), some of which steps mark (delete, pendingReplacement). */
  get olds(): ResourceState[] {
    return this.base.resources;
  }

  /** A step began an operation on the service (step_executor: OnResourceStepPre → BeginMutation). */
  begin(type: PendingOperation["type"], resource: ResourceState): PendingOperation {
    const operation = { type, resource };
    this.pending.add(operation);
    return operation;
  }

  /** The operation reported back, successfully or not (End of the mutation). */
  end(operation: PendingOperation): void {
    this.pending.delete(operation);
  }

  /** `old` is replaced by `state` (same, update, refresh), or `state` is new (create: old undefined). */
  produce(state: ResourceState, old?: ResourceState): void {
    if (old) this.remove(old);
    this.produced.push(state);
  }

  /**
   * A refresh's new state for `old`, in `old`'s place: a refresh keeps the snapshot's order, which is a topological
   * sort the engine relies on (deployment_executor.go rebuildBaseState; snapshot.go elides refresh steps).
   */
  replaceInPlace(old: ResourceState, state: ResourceState): void {
    this.inPlace.set(old, state);
  }

  /** `old` leaves the state (deleted, or dropped by a refresh that found it gone). */
  remove(old: ResourceState): void {
    this.done.add(old);
    const at = this.produced.indexOf(old);
    if (at >= 0) this.produced.splice(at, 1);
  }

  /** RegisterResourceOutputs: a registered component's outputs. */
  setOutputs(urn: string, outputs: Props): void {
    const state = this.produced.find((produced) => produced.urn === urn);
    if (state && !this.frozen) state.outputs = outputs;
  }

  /** Stops recording: the command was interrupted, and this is what its checkpoint holds. */
  freeze(): void {
    this.frozen ??= this.snapshot();
  }

  snapshot(): Snapshot {
    if (this.frozen) return this.frozen;
    const kept = this.base.resources
      .filter((state) => !this.done.has(state))
      .map((state) => this.inPlace.get(state) ?? state);
    const carried = this.base.pendingOperations.filter((operation) => operation.type === "creating");
    return {
      resources: [...this.produced, ...kept].map((state) => structuredClone(state)),
      pendingOperations: [...carried, ...this.pending].map((operation) => structuredClone(operation)),
    };
  }
}
