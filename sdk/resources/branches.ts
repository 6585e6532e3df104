/** Branches of a project: list, and create (serialized with the project's other mutations). */
import { mutateProject } from "../project-lock";
import { Branch, BranchCreated, BranchCreateRequest, BranchesResponse } from "../schemas";
import { ClientContext, seg } from "./context";

/** The inner `branch` object of a create request. */
export type BranchCreate = NonNullable<BranchCreateRequest["branch"]>;

/** Typed calls of `/projects/{p}/branches`. */
export class BranchesApi {
  constructor(private readonly ctx: ClientContext) {}

  /** GET /projects/{p}/branches → the project's branches. */
  async list(projectId: string): Promise<Branch[]> {
    const path = `/projects/${seg(projectId)}/branches`;
    return (await this.ctx.transport.request({ method: "GET", path, schema: BranchesResponse })).branches;
  }

  /**
   * POST /projects/{p}/branches, under the project lock; resolves once the branch's operations are done. Takes
   * the request body (`{branch, endpoints}`) or just the inner `branch` object.
   */
  create(projectId: string, body: BranchCreateRequest | BranchCreate = {}): Promise<BranchCreated> {
    const path = `/projects/${seg(projectId)}/branches`;
    const request = "branch" in body || "endpoints" in body ? body : { branch: body };
    return mutateProject(
      this.ctx.lockKey(projectId),
      (ops) => this.ctx.waitFor(projectId, ops),
      () => this.ctx.transport.request({ method: "POST", path, body: request, schema: BranchCreated }),
      (result) => result.branch.id,
    );
  }
}
