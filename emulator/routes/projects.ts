import { page } from "../paging";
import { renderProject } from "../render";
import type { RequestContext, Route } from "../router";
import type { Project } from "../types";
import { ID_PATTERN, parseLimit } from "../validation";
import { badRequest } from "../errors";

/** `{projects, pagination: {cursor}, applications: {}, integrations: {}}` with limit 1..400 (default 10). */
function listing(ctx: RequestContext, all: Project[]) {
  const limit = parseLimit(ctx.query.get("limit") ?? undefined, 400, 10);
  const search = ctx.query.get("search")?.toLowerCase();
  const orgId = ctx.query.get("org_id");
  if (orgId !== null && !ID_PATTERN.test(orgId)) throw badRequest(`org_id must match ${ID_PATTERN.source}`);
  const matching = all.filter(
    (p) =>
      (!search || p.name.toLowerCase().includes(search) || p.id.includes(search)) &&
      (orgId === null || p.orgId === orgId),
  );
  const { items, cursor } = page(matching, ctx.query.get("cursor"), limit);
  return {
    status: 200,
    body: { projects: items.map(renderProject), pagination: { cursor }, applications: {}, integrations: {} },
  };
}

/** The project list (owned), the shared list (none are shared in the emulator) and one project. */
export const projectRoutes: Route[] = [
  { method: "GET", pattern: "/projects", handler: (ctx) => listing(ctx, ctx.state.store.projectsOf(ctx.account.id)) },
  { method: "GET", pattern: "/projects/shared", handler: (ctx) => listing(ctx, []) },
  {
    method: "GET",
    pattern: "/projects/:project_id",
    handler: ({ state, account, params }) => ({
      status: 200,
      body: { project: renderProject(state.store.project(account.id, params.project_id)) },
    }),
  },
];
