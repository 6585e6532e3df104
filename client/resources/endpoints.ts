/**
 * Computes (endpoints). Every mutation runs under the project lock: sent after the project's earlier operations
 * finished, resolved once its own are done; so parallel changes of one project never meet a 423. Deletes too:
 * the real service's delete returns a running suspend_compute that locks the project (api.md, "Delete"), so
 * deletes sent side by side would meet each other's 423.
 */
import { NeonError } from "../errors";
import { mutateProject } from "../project-lock";
import {
  Endpoint,
  EndpointCreate,
  EndpointCreateRequest,
  EndpointOperations,
  EndpointResponse,
  EndpointsResponse,
  EndpointUpdate,
  EndpointUpdateRequest,
  Operation,
} from "../schemas";
import { ClientContext, seg } from "./context";
import { Recover, settlingLostCreate } from "./recover";

/** A compute with the final records of the operations its change started. */
export interface EndpointWithOperations {
  endpoint: Endpoint;
  operations: Operation[];
}

/** How a create whose response was lost finds the compute it made, if any (recover.ts). */
export type RecoverCreated = Recover<Endpoint>;

/** A delete's result: no endpoint when it was already gone (404 / 204). */
export interface EndpointDeleted {
  endpoint?: Endpoint;
  operations: Operation[];
}

const DeleteResponse = EndpointOperations.partial({ endpoint: true });

/** Typed calls of `/projects/{p}/endpoints`. */
export class EndpointsApi {
  constructor(private readonly ctx: ClientContext) {}

  /** GET /projects/{p}/endpoints → every compute of the project. */
  async list(projectId: string): Promise<Endpoint[]> {
    const path = `/projects/${seg(projectId)}/endpoints`;
    return (await this.ctx.transport.request({ method: "GET", path, schema: EndpointsResponse })).endpoints;
  }

  /** GET /projects/{p}/branches/{b}/endpoints → the computes of one branch. */
  async listForBranch(projectId: string, branchId: string): Promise<Endpoint[]> {
    const path = `/projects/${seg(projectId)}/branches/${seg(branchId)}/endpoints`;
    return (await this.ctx.transport.request({ method: "GET", path, schema: EndpointsResponse })).endpoints;
  }

  /** GET /projects/{p}/endpoints/{e} → the compute (kind `not_found` when it does not exist). */
  async get(projectId: string, endpointId: string): Promise<Endpoint> {
    const path = this.path(projectId, endpointId);
    return (await this.ctx.transport.request({ method: "GET", path, schema: EndpointResponse })).endpoint;
  }

  /**
   * POST /projects/{p}/endpoints (body: the inner `endpoint` object, or the whole request). With `recover`, a
   * create whose outcome is unknown (kind `ambiguous`) is settled by `recover` before the lock is released: the
   * compute it returns is waited for and returned as if the response had arrived; none → the error stands.
   */
  create(
    projectId: string,
    body: EndpointCreate | EndpointCreateRequest,
    options: { recover?: RecoverCreated } = {},
  ): Promise<EndpointWithOperations> {
    const request = "endpoint" in body ? body : { endpoint: body };
    const path = `/projects/${seg(projectId)}/endpoints`;
    const send = () => this.ctx.transport.request({ method: "POST", path, body: request, schema: EndpointOperations });
    return this.mutate(
      projectId,
      settlingLostCreate(send, options.recover, async (endpoint) => ({
        endpoint,
        operations: await this.ctx.operationsOf(projectId, endpoint.id),
      })),
    );
  }

  /** PATCH /projects/{p}/endpoints/{e} (body: the fields to change, or the whole request). */
  update(
    projectId: string,
    endpointId: string,
    body: EndpointUpdate | EndpointUpdateRequest,
  ): Promise<EndpointWithOperations> {
    const request = "endpoint" in body && typeof body.endpoint === "object" ? body : { endpoint: body };
    return this.mutate(projectId, this.sender("PATCH", this.path(projectId, endpointId), request));
  }

  /** POST .../restart: operations suspend_compute then start_compute. */
  restart(projectId: string, endpointId: string): Promise<EndpointWithOperations> {
    return this.mutate(projectId, this.sender("POST", `${this.path(projectId, endpointId)}/restart`));
  }

  /** POST .../start. */
  start(projectId: string, endpointId: string): Promise<EndpointWithOperations> {
    return this.mutate(projectId, this.sender("POST", `${this.path(projectId, endpointId)}/start`));
  }

  /** POST .../suspend. */
  suspend(projectId: string, endpointId: string): Promise<EndpointWithOperations> {
    return this.mutate(projectId, this.sender("POST", `${this.path(projectId, endpointId)}/suspend`));
  }

  /**
   * DELETE /projects/{p}/endpoints/{e}, under the project lock like every change; resolves once the operations the
   * delete returned are done (a failed one rejects `operation_failed` carrying the compute's id). 404 and 204 count
   * as already deleted. A delete whose outcome is unknown is settled by reading the compute back: gone → resolved
   * once its unfinished operations are done; still there → the `ambiguous` error stands (the caller may resend).
   */
  delete(projectId: string, endpointId: string): Promise<EndpointDeleted> {
    const path = this.path(projectId, endpointId);
    const send = async (): Promise<EndpointDeleted> => {
      try {
        const body = await this.ctx.transport.requestOptional({ method: "DELETE", path, schema: DeleteResponse });
        return body ?? { operations: [] };
      } catch (error) {
        return this.settleFailedDelete(error, projectId, endpointId);
      }
    };
    return mutateProject(
      this.ctx.lockKey(projectId),
      (ops) => this.ctx.waitFor(projectId, ops),
      send,
      () => endpointId,
    );
  }

  private async settleFailedDelete(error: unknown, projectId: string, endpointId: string): Promise<EndpointDeleted> {
    if (!(error instanceof NeonError)) throw error;
    if (error.kind === "not_found") return { operations: [] };
    if (error.kind !== "ambiguous" || !(await this.isGone(projectId, endpointId))) throw error;
    return { operations: await this.ctx.operationsOf(projectId, endpointId) };
  }

  /** True when reading the compute answers 404; false when it is there or the read failed otherwise. */
  private async isGone(projectId: string, endpointId: string): Promise<boolean> {
    try {
      await this.get(projectId, endpointId);
      return false;
    } catch (readError) {
      return readError instanceof NeonError && readError.kind === "not_found";
    }
  }

  private sender(method: "POST" | "PATCH", path: string, body?: unknown): () => Promise<EndpointOperations> {
    return () => this.ctx.transport.request({ method, path, body, schema: EndpointOperations });
  }

  private mutate(projectId: string, send: () => Promise<EndpointOperations>) {
    return mutateProject(
      this.ctx.lockKey(projectId),
      (ops) => this.ctx.waitFor(projectId, ops),
      send,
      (result) => result.endpoint.id,
    );
  }

  private path(projectId: string, endpointId: string): string {
    return `/projects/${seg(projectId)}/endpoints/${seg(endpointId)}`;
  }
}
