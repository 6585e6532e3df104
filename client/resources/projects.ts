/**
 * The project listing (owned and shared), walked page by page; a project's connection URI; a project's create, get,
 * update and delete (OpenAPI `createProject`, `getProject`, `updateProject`, `deleteProject`). A create is sent once
 * (no project exists to lock before it), then waited for under the new project's lock, so that the project's next
 * change meets no 423 of its `create_timeline` / `start_compute`; an update and a delete run under the project lock
 * like every change. A create whose answer was lost is not resent here: the caller decides (a project's name is not
 * unique, so nothing can tell its project from another's).
 */
import { NeonError } from "../errors";
import { iterateProjects, listAllProjects, ProjectQuery } from "../paging";
import { mutateProject } from "../project-lock";
import { Project } from "../schemas";
import { ConnectionURIResponse } from "../schemas-branches";
import {
  ProjectCreate,
  ProjectCreated,
  ProjectDetail,
  ProjectOperations,
  ProjectResponse,
  ProjectUpdate,
} from "../schemas-projects";
import { ClientContext, seg } from "./context";

/** A delete's result: no `project` when it was not there (404 / 204). */
export interface ProjectDeleted {
  project?: ProjectDetail;
}

/** What a connection URI is for (the query of GET /projects/{p}/connection_uri, beside the project). */
export interface ConnectionUriQuery {
  projectId: string;
  /** Default: the project's default branch. */
  branch_id?: string;
  /** Default: the branch's read-write compute. */
  endpoint_id?: string;
  database_name: string;
  role_name: string;
  /** `true`: the pooled URI (`-pooler` host). */
  pooled?: boolean;
}

/** Typed calls of `/projects` and `/projects/shared`. */
export class ProjectsApi {
  constructor(private readonly ctx: ClientContext) {}

  /** Every project of the account, lazily, page by page. */
  iterate(query?: ProjectQuery): AsyncIterable<Project> {
    return iterateProjects(this.ctx.transport, query);
  }

  /** Every project of the account, all pages collected. */
  listAll(query?: ProjectQuery): Promise<Project[]> {
    return listAllProjects(this.ctx.transport, query);
  }

  /** Every project shared with the account (`/projects/shared`, same paging). */
  iterateShared(query?: ProjectQuery): AsyncIterable<Project> {
    return iterateProjects(this.ctx.transport, query, "/projects/shared");
  }

  /** Every project shared with the account, all pages collected. */
  listAllShared(query?: ProjectQuery): Promise<Project[]> {
    return listAllProjects(this.ctx.transport, query, "/projects/shared");
  }

  /**
   * GET /projects/{p}/connection_uri → `postgresql://role:password@host/database?…`. It holds the role's password:
   * a secret, returned to the caller only (never logged: the transport logs no bodies or queries).
   */
  async connectionUri(query: ConnectionUriQuery): Promise<string> {
    const { projectId, pooled, ...rest } = query;
    const path = `/projects/${seg(projectId)}/connection_uri`;
    const params = { ...rest, pooled: pooled === undefined ? undefined : String(pooled) };
    const body = await this.ctx.transport.request({
      method: "GET",
      path,
      query: params,
      schema: ConnectionURIResponse,
    });
    return body.uri;
  }

  /** GET /projects/{p} → the project with its settings (kind `not_found` when absent or out of the key's reach). */
  async get(projectId: string): Promise<ProjectDetail> {
    const path = `/projects/${seg(projectId)}`;
    return (await this.ctx.transport.request({ method: "GET", path, schema: ProjectResponse })).project;
  }

  /**
   * POST /projects; resolves once the project's operations (`create_timeline`, `start_compute`) are done. The answer
   * holds the default role's password and connection URIs: secrets, returned to the caller only.
   */
  async create(project: ProjectCreate): Promise<ProjectCreated> {
    const body = { project };
    const made = await this.ctx.transport.request({ method: "POST", path: "/projects", body, schema: ProjectCreated });
    const id = made.project.id;
    return mutateProject(
      this.ctx.lockKey(id),
      (ops) => this.ctx.waitFor(id, ops),
      async () => made,
      () => id,
    );
  }

  /** PATCH /projects/{p} (body: the fields to change); resolves once its operations are done. */
  update(
    projectId: string,
    project: ProjectUpdate,
  ): Promise<{ project: ProjectDetail; operations: ProjectOperations["operations"] }> {
    const path = `/projects/${seg(projectId)}`;
    return mutateProject(
      this.ctx.lockKey(projectId),
      (ops) => this.ctx.waitFor(projectId, ops),
      () => this.ctx.transport.request({ method: "PATCH", path, body: { project }, schema: ProjectOperations }),
      () => projectId,
    );
  }

  /**
   * DELETE /projects/{p}, under the project lock. A project that was not there (404 or 204) resolves without
   * `project`; a delete whose answer was lost is settled by reading the project back (gone: resolved; else the error
   * stands, and the caller may resend).
   */
  delete(projectId: string): Promise<ProjectDeleted> {
    const path = `/projects/${seg(projectId)}`;
    const send = async () => {
      try {
        const body = await this.ctx.transport.requestOptional({ method: "DELETE", path, schema: ProjectResponse });
        return { project: body?.project, operations: [] };
      } catch (error) {
        if (error instanceof NeonError && error.kind === "not_found") return { operations: [] };
        if (error instanceof NeonError && error.kind === "ambiguous" && (await this.gone(projectId))) {
          return { operations: [] };
        }
        throw error;
      }
    };
    const wait = (ops: readonly ProjectOperations["operations"][number][]) => this.ctx.waitFor(projectId, ops);
    return mutateProject(this.ctx.lockKey(projectId), wait, send, () => projectId).then(({ project }) => ({ project }));
  }

  /** True when reading the project answers 404. */
  private async gone(projectId: string): Promise<boolean> {
    try {
      await this.get(projectId);
      return false;
    } catch (error) {
      return error instanceof NeonError && error.kind === "not_found";
    }
  }
}
