/** Operation records of a project: read one, list, and wait. */
import { collect, walkPages } from "../paging";
import { Operation, OperationResponse, OperationsPage } from "../schemas";
import { WaitOptions } from "../wait";
import { ClientContext, seg } from "./context";

/** Typed calls of `/projects/{p}/operations`. */
export class OperationsApi {
  constructor(private readonly ctx: ClientContext) {}

  /** GET /projects/{p}/operations/{id} → the operation. */
  async get(projectId: string, operationId: string): Promise<Operation> {
    const path = `/projects/${seg(projectId)}/operations/${seg(operationId)}`;
    const body = await this.ctx.transport.request({ method: "GET", path, schema: OperationResponse });
    return body.operation;
  }

  /** GET /projects/{p}/operations → the operations of the first page (the most recent ones). */
  async list(projectId: string, query: { cursor?: string; limit?: number } = {}): Promise<Operation[]> {
    return (await this.listPage(projectId, query)).operations;
  }

  /**
   * GET /projects/{p}/operations → every operation of the project, page by page to the last (newest first). For
   * decisions that need them all (which operations a recovered change waits for); the waiter's batch read takes the
   * first page only and reads the rest one by one.
   */
  listAll(projectId: string): Promise<Operation[]> {
    const read = async (cursor: string | undefined) => {
      const page = await this.listPage(projectId, { cursor });
      return { items: page.operations, cursor: page.pagination?.cursor };
    };
    return collect(walkPages(read));
  }

  /** GET /projects/{p}/operations → one page of operations, with the cursor of the next one. */
  listPage(projectId: string, query: { cursor?: string; limit?: number } = {}): Promise<OperationsPage> {
    const path = `/projects/${seg(projectId)}/operations`;
    return this.ctx.transport.request({ method: "GET", path, query, schema: OperationsPage });
  }

  /** Polls until every operation is done; see `waitForOperations`. */
  waitFor(projectId: string, operations: readonly Operation[], options?: WaitOptions): Promise<Operation[]> {
    return this.ctx.waitFor(projectId, operations, options);
  }
}
