/**
 * What every resource namespace needs from its client: the transport, waiting, and the project lock. Keeps the
 * namespaces free of construction details (and of the key).
 */
import { WaitOptions } from "../wait";
import { Operation } from "../schemas";
import { Transport } from "../transport";

export interface ClientContext {
  transport: Transport;
  /** Waits with the client's wait policy (overridable per call). */
  waitFor(projectId: string, operations: readonly Operation[], options?: WaitOptions): Promise<Operation[]>;
  /** The unfinished operations of one compute (every page of the project's operations). */
  operationsOf(projectId: string, endpointId: string): Promise<Operation[]>;
  /** The unfinished operations of one branch (every page of the project's operations). */
  branchOperationsOf(projectId: string, branchId: string): Promise<Operation[]>;
  /** The process-wide lock key of a project of this client's account. */
  lockKey(projectId: string): string;
}

/** One path segment, encoded: an id can never change the route (`../`, `?`). */
export function seg(value: string | number): string {
  return encodeURIComponent(String(value));
}
