/**
 * Per-project serialization of mutations within the process. Prevents 423 storms: Neon refuses a change to a
 * project while earlier operations run ("project already has running conflicting operations"), and a `pulumi up`
 * changes many computes of one project in parallel. Here a mutation is sent only after the project's earlier
 * operations finished, and releases the project only once its own operations are done; so parallel changes of one
 * project produce no 423 at all. A 423 caused by another process is still retried by the transport.
 *
 * The registry is process-wide (Pulumi builds a client per resource call), keyed by a hash of URL and key.
 */
import { NeonError } from "./errors";
import { Operation } from "./schemas";

interface ProjectState {
  /** Resolves when the last queued mutation released the project. */
  tail: Promise<void>;
  /** Mutations queued or running. */
  queued: number;
  /** Operations returned by the last mutation that were not seen done (its wait failed or timed out). */
  pending: Operation[];
}

const projects = new Map<string, ProjectState>();

function stateOf(key: string): ProjectState {
  const state = projects.get(key) ?? { tail: Promise.resolve(), queued: 0, pending: [] };
  projects.set(key, state);
  state.queued += 1;
  return state;
}

function settle(key: string, state: ProjectState): void {
  state.queued -= 1;
  if (state.queued === 0 && state.pending.length === 0) projects.delete(key);
}

/**
 * Runs `fn` when every earlier `fn` of the same key has settled (FIFO). When another is queued, this one's result
 * goes back to its caller only after a turn of the event loop (`setImmediate`): the next mutation starts first, and
 * its request is on the wire before this step's outputs are built and sent to the engine (unless the rate limiter
 * holds it). The mutations run in order; their results may reach their callers out of order. Like the waits, this
 * uses timers: under jest's fake timers, advance them.
 */
export async function runExclusive<T>(key: string, fn: (state: ProjectState) => Promise<T>): Promise<T> {
  const state = stateOf(key);
  const previous = state.tail;
  let release!: () => void;
  state.tail = new Promise<void>((resolve) => (release = resolve));
  try {
    await previous;
    return await fn(state);
  } finally {
    settle(key, state);
    release();
    if (state.queued > 0) await handOver();
  }
}

/** Resolves after the microtasks and ticks queued now and the I/O due: by then the next mutation has sent. */
const handOver = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** How a mutation waits for operations (the client's `operations.waitFor` with its policy). */
export type OperationWaiter = (operations: readonly Operation[]) => Promise<Operation[]>;

/** What a mutation returns: at least the operations it started. */
export interface MutationResult {
  operations: Operation[];
}

/**
 * Sends one mutation of a project under its lock: waits for the project's leftover operations, sends, then waits
 * for the operations the mutation returned. Resolves with the result whose operations are the final records. An
 * error while waiting carries `resourceId` (what was created or changed), so the caller never orphans it.
 */
export function mutateProject<R extends MutationResult>(
  key: string,
  wait: OperationWaiter,
  send: () => Promise<R>,
  resourceIdOf: (result: R) => string | undefined,
): Promise<R> {
  return runExclusive(key, async (state) => {
    await drainLeftovers(state, wait);
    const result = await send();
    state.pending = result.operations;
    try {
      const operations = await wait(result.operations);
      state.pending = [];
      return { ...result, operations };
    } catch (error) {
      throw withResource(error, resourceIdOf(result));
    }
  });
}

/**
 * Waits for what an earlier mutation left running. If that wait fails (the operation failed or is stuck), the
 * leftovers are forgotten: the service itself then decides (a 423 is retried with backoff).
 */
async function drainLeftovers(state: ProjectState, wait: OperationWaiter): Promise<void> {
  if (state.pending.length === 0) return;
  const leftovers = state.pending;
  state.pending = [];
  try {
    await wait(leftovers);
  } catch (error) {
    if (error instanceof NeonError && error.kind === "cancelled") throw error;
  }
}

function withResource(error: unknown, resourceId: string | undefined): unknown {
  if (!(error instanceof NeonError) || resourceId === undefined || error.resourceId === resourceId) return error;
  return error.with({ resourceId });
}

/** The lock key of a project of an account (never contains the key itself). */
export function projectKey(accountHash: string, projectId: string): string {
  return `${accountHash}:${projectId}`;
}
