/**
 * Branches of a project: list, get, create, update, restore and delete. Every change runs under the project lock
 * (sent after the project's earlier operations finished, resolved once its own are done), like computes' changes;
 * reads take no lock.
 */
import { collect, walkPages } from "../paging";
import { mutateProject } from "../project-lock";
import { Operation } from "../schemas";
import {
  Branch,
  BranchCreated,
  BranchCreateRequest,
  BranchesResponse,
  BranchOperations,
  BranchRestoreRequest,
  BranchUpdate,
  BranchUpdateRequest,
  BranchWithAnnotation,
} from "../schemas-branches";
import { ClientContext, seg } from "./context";
import { deleteUnderLock } from "./deletes";
import { Recover, settlingLostCreate } from "./recover";

/** The inner `branch` object of a create request. */
export type BranchCreate = NonNullable<BranchCreateRequest["branch"]>;

/** A branch with the final records of the operations its change started. */
export interface BranchWithOperations {
  branch: Branch;
  operations: Operation[];
}

/** A listed branch and its annotation's value (none when it has no annotation). */
export interface AnnotatedBranch {
  branch: Branch;
  annotation?: Record<string, string>;
}

/** A delete's result: no `branch` when it was not there (404 / 204). */
export interface BranchDeleted {
  branch?: Branch;
  operations: Operation[];
}

const DeleteResponse = BranchOperations.partial({ branch: true });

/** Typed calls of `/projects/{p}/branches`. */
export class BranchesApi {
  constructor(private readonly ctx: ClientContext) {}

  /**
   * GET /projects/{p}/branches → every branch of the project, following `pagination.next` to the last page (the page
   * size is the service's: no default is documented). Sorted by `created_at`, which no change moves, so a branch
   * updated during the walk is neither skipped nor listed twice (the default sort, `updated_at`, would move it).
   */
  async list(projectId: string): Promise<Branch[]> {
    return (await this.listAnnotated(projectId)).map((listed) => listed.branch);
  }

  /** `list`, each branch with its annotation's value, when it has one (the pages' `annotations`). */
  listAnnotated(projectId: string): Promise<AnnotatedBranch[]> {
    const path = `/projects/${seg(projectId)}/branches`;
    const read = async (cursor: string | undefined) => {
      const query = { sort_by: "created_at", cursor };
      const page = await this.ctx.transport.request({ method: "GET", path, query, schema: BranchesResponse });
      const annotationOf = (id: string) => page.annotations?.[id]?.value;
      const items = page.branches.map((branch) => ({ branch, annotation: annotationOf(branch.id) }));
      return { items, cursor: page.pagination?.next };
    };
    return collect(walkPages(read));
  }

  /** GET /projects/{p}/branches/{b} → the branch and its annotation, if any (kind `not_found` when absent). */
  get(projectId: string, branchId: string): Promise<BranchWithAnnotation> {
    return this.ctx.transport.request({
      method: "GET",
      path: this.path(projectId, branchId),
      schema: BranchWithAnnotation,
    });
  }

  /**
   * POST /projects/{p}/branches; resolves once the branch's operations are done. Takes the request body
   * (`{branch, endpoints, annotation_value}`) or just the inner `branch` object. With `recover`, a create whose
   * response was lost is settled under the project lock (recover.ts): the branch it finds is waited for and returned
   * as if the response had arrived (without the computes, roles and databases a response lists).
   */
  create(
    projectId: string,
    body: BranchCreateRequest | BranchCreate = {},
    options: { recover?: Recover<Branch> } = {},
  ): Promise<BranchCreated> {
    const path = `/projects/${seg(projectId)}/branches`;
    const request = isCreateRequest(body) ? body : { branch: body };
    const send = () => this.ctx.transport.request({ method: "POST", path, body: request, schema: BranchCreated });
    const answer = async (branch: Branch): Promise<BranchCreated> => ({
      branch,
      operations: await this.ctx.branchOperationsOf(projectId, branch.id),
      endpoints: [],
      roles: [],
      databases: [],
    });
    return mutateProject(
      this.ctx.lockKey(projectId),
      (ops) => this.ctx.waitFor(projectId, ops),
      settlingLostCreate(send, options.recover, answer),
      (result) => result.branch.id,
    );
  }

  /**
   * PATCH /projects/{p}/branches/{b} (body: the fields to change, or the whole request): a new name, protection,
   * or `expires_at` (`null` removes the expiration).
   */
  update(projectId: string, branchId: string, body: BranchUpdate | BranchUpdateRequest): Promise<BranchWithOperations> {
    const request = "branch" in body && typeof body.branch === "object" ? body : { branch: body };
    return this.mutate(projectId, "PATCH", this.path(projectId, branchId), request);
  }

  /**
   * POST /projects/{p}/branches/{b}/restore: the branch takes the state of `source_branch_id` (at `source_lsn` or
   * `source_timestamp`, else its head); `preserve_under_name` keeps the previous state as a new branch.
   */
  restore(projectId: string, branchId: string, body: BranchRestoreRequest): Promise<BranchWithOperations> {
    return this.mutate(projectId, "POST", `${this.path(projectId, branchId)}/restore`, body);
  }

  /**
   * DELETE /projects/{p}/branches/{b}; resolves once the delete's operations are done. A branch that was not there
   * (404 or 204) resolves `{operations: []}` without `branch`. The service refuses the default branch and a branch
   * with children (the error stands).
   */
  delete(projectId: string, branchId: string): Promise<BranchDeleted> {
    return deleteUnderLock(this.ctx, {
      projectId,
      path: this.path(projectId, branchId),
      schema: DeleteResponse,
      resourceId: branchId,
      read: () => this.get(projectId, branchId),
      leftovers: () => this.ctx.branchOperationsOf(projectId, branchId),
    });
  }

  private mutate(projectId: string, method: "POST" | "PATCH", path: string, body: unknown) {
    return mutateProject(
      this.ctx.lockKey(projectId),
      (ops) => this.ctx.waitFor(projectId, ops),
      () => this.ctx.transport.request({ method, path, body, schema: BranchOperations }),
      (result) => result.branch.id,
    );
  }

  private path(projectId: string, branchId: string): string {
    return `/projects/${seg(projectId)}/branches/${seg(branchId)}`;
  }
}

/** The whole request rather than the inner `branch` object (whose fields never use these names). */
function isCreateRequest(body: BranchCreateRequest | BranchCreate): body is BranchCreateRequest {
  return "branch" in body || "endpoints" in body || "annotation_value" in body;
}
