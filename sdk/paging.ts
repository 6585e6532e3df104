/**
 * Cursor paging of the project list. Prevents silently truncated listings: the API answers 10 projects by default,
 * so a `getProjects` that reads one page misses the rest of a large account.
 */
import { Project, ProjectsPage } from "./schemas";
import { Transport } from "./transport";

/** Filters and page size of a project listing. */
export interface ProjectQuery {
  search?: string;
  org_id?: string;
  /** Page size, 1..400; the walk defaults to 400 (the API's maximum) to make the fewest requests. */
  limit?: number;
}

/** The API's maximum page size. */
export const MAX_PROJECTS_PAGE = 400;

/** Which route to walk: `/projects` (owned) or `/projects/shared` (shared with the account). */
export type ProjectsRoute = "/projects" | "/projects/shared";

/**
 * Walks every page: stops when a page is shorter than the limit, the cursor is empty, or the cursor repeats (a
 * guard against a service that keeps answering the same cursor).
 */
export async function* iterateProjects(
  transport: Transport,
  query: ProjectQuery = {},
  route: ProjectsRoute = "/projects",
): AsyncGenerator<Project> {
  const limit = clampLimit(query.limit);
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (;;) {
    const page = await transport.request({
      method: "GET",
      path: route,
      query: { limit, cursor, search: query.search, org_id: query.org_id },
      schema: ProjectsPage,
    });
    yield* page.projects;
    cursor = page.pagination?.cursor;
    if (page.projects.length < limit || !cursor || seen.has(cursor)) return;
    seen.add(cursor);
  }
}

/** Every project of every page, in the API's order. */
export async function listAllProjects(
  transport: Transport,
  query: ProjectQuery = {},
  route: ProjectsRoute = "/projects",
): Promise<Project[]> {
  const all: Project[] = [];
  for await (const project of iterateProjects(transport, query, route)) all.push(project);
  return all;
}

function clampLimit(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return MAX_PROJECTS_PAGE;
  return Math.min(MAX_PROJECTS_PAGE, Math.max(1, Math.floor(limit)));
}
