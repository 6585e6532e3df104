/** The project listing (owned and shared), walked page by page; a project's connection URI. */
import { iterateProjects, listAllProjects, ProjectQuery } from "../paging";
import { Project, ProjectDetail, ProjectResponse } from "../schemas";
import { ConnectionURIResponse } from "../schemas-branches";
import { ClientContext, seg } from "./context";

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

  /** GET /projects/{p} → the project (kind `not_found` when absent, or out of the key's reach). */
  async get(projectId: string): Promise<ProjectDetail> {
    const path = `/projects/${seg(projectId)}`;
    return (await this.ctx.transport.request({ method: "GET", path, schema: ProjectResponse })).project;
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
}
