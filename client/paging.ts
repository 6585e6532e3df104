/**
 * Cursor paging: the one walk of every list the OpenAPI document pages (projects, branches, operations). Prevents
 * silently truncated listings: the API answers 10 projects a page by default, so a `getProjects` that read one page
 * missed the rest of a large account, and a branch list read once took "not in that page" for "already gone".
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

/** One page of a list: its items and the cursor of the next one (absent: the service says this is the last). */
export interface Page<T> {
  items: T[];
  cursor?: string;
}

/**
 * Walks every page, asking `read` for each (`undefined`: the first). Stops on an empty page, a page without a cursor,
 * a cursor seen before (a guard against a service that keeps answering the same one), or, when the walk sent a
 * `limit`, a page shorter than it (api.md, "Project list paging"). Without a `limit` the service picks the page size.
 */
export async function* walkPages<T>(
  read: (cursor: string | undefined) => Promise<Page<T>>,
  limit?: number,
): AsyncGenerator<T> {
  const seen = new Set<string>();
  let cursor: string | undefined;
  for (;;) {
    const page = await read(cursor);
    yield* page.items;
    cursor = page.cursor;
    const short = limit !== undefined && page.items.length < limit;
    if (page.items.length === 0 || short || !cursor || seen.has(cursor)) return;
    seen.add(cursor);
  }
}

/** Every item of a walk, in the API's order. */
export async function collect<T>(walk: AsyncIterable<T>): Promise<T[]> {
  const all: T[] = [];
  for await (const item of walk) all.push(item);
  return all;
}

/** The projects of `route`, page by page (`limit` 400 unless the query says otherwise: the fewest requests). */
export function iterateProjects(
  transport: Transport,
  query: ProjectQuery = {},
  route: ProjectsRoute = "/projects",
): AsyncGenerator<Project> {
  const limit = clampLimit(query.limit);
  const read = async (cursor: string | undefined): Promise<Page<Project>> => {
    const q = { limit, cursor, search: query.search, org_id: query.org_id };
    const page = await transport.request({ method: "GET", path: route, query: q, schema: ProjectsPage });
    return { items: page.projects, cursor: page.pagination?.cursor };
  };
  return walkPages(read, limit);
}

/** Every project of every page, in the API's order. */
export function listAllProjects(
  transport: Transport,
  query: ProjectQuery = {},
  route: ProjectsRoute = "/projects",
): Promise<Project[]> {
  return collect(iterateProjects(transport, query, route));
}

function clampLimit(limit: number | undefined): number {
  if (limit === undefined || !Number.isFinite(limit)) return MAX_PROJECTS_PAGE;
  return Math.min(MAX_PROJECTS_PAGE, Math.max(1, Math.floor(limit)));
}
