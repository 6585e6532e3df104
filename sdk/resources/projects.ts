/** The project listing (owned and shared), walked page by page. */
import { iterateProjects, listAllProjects, ProjectQuery } from "../paging";
import { Project } from "../schemas";
import { ClientContext } from "./context";

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
}
